import type { ChildProcess } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import react from '@vitejs/plugin-react';
import { chromium, type Browser, type Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shellApprovalAgents, useServer, writeAgentsFile } from '../cli/helpers.js';
import { serveEnv, startServeProcess } from './serve-process.js';

// Issue 34: LangGraph's own React hook (`useStream` from @langchain/langgraph-sdk/react) in a small
// page (test/fixtures/langgraph-page), in Chromium, against `adk serve` on another origin (--cors).
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
/** Where screenshots go (docs/img when asked: ADK_SCREENSHOTS=docs/img). */
const SHOTS = process.env.ADK_SCREENSHOTS ?? mkdtempSync(join(tmpdir(), 'adk-usestream-shots-'));
const model = useServer();
const children: ChildProcess[] = [];
let browser: Browser;
let site: Server;
let origin: string;

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

beforeAll(async () => {
  const out = mkdtempSync(join(tmpdir(), 'adk-usestream-page-'));
  await build({ root: join(import.meta.dirname, '../fixtures/langgraph-page'), base: './', plugins: [react()], logLevel: 'warn', build: { outDir: out, emptyOutDir: true } });
  site = createServer((req, res) => {
    const path = new URL(req.url!, 'http://x').pathname;
    const file = join(out, path === '/' ? 'index.html' : path);
    if (!file.startsWith(out) || !existsSync(file)) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM!, headless: true, args: ['--no-sandbox'] });
  mkdirSync(SHOTS, { recursive: true });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  site?.close();
  for (const c of children) c.kill('SIGKILL');
});

const lastUser = (req: any) => [...req.body.messages].reverse().find((m: any) => m.role === 'user' || m.role === 'tool');
/** Each message's text, without who said it or its buttons. */
const shown = (page: Page) => page.locator('.msg').evaluateAll((els) => els.map((e) => e.firstElementChild!.nextSibling?.textContent ?? ''));
const shot = (page: Page, name: string) => page.screenshot({ path: join(SHOTS, `langgraph-usestream-${name}.png`), fullPage: true });

describe.skipIf(!CHROMIUM && !process.env.CI)('useStream (LangGraph React hook) against adk serve', () => {
  it('streams an answer, shows an approval and resumes it with command.resume, and picks the thread up again after a reload', async () => {
    const ANSWER = Array.from({ length: 30 }, (_, i) => `token${i}`).join(' ');
    model().onRequest((req) => {
      const last = lastUser(req);
      if (last.role === 'tool') return { content: `The shell said ${String(last.content).split('\n')[0]}.` };
      if (last.content === 'run the shell') return { toolCalls: [{ name: 'shell', arguments: { command: 'echo approved-in-the-page' } }] };
      if (last.content === 'and after the reload?') return { content: `I still remember ${req.body.messages.filter((m: any) => m.role === 'user').length - 1} earlier messages.` };
      return { content: ANSWER, chunkSize: 6, chunkDelayMs: 40 };
    });
    const home = mkdtempSync(join(tmpdir(), 'adk-usestream-'));
    writeAgentsFile(home, shellApprovalAgents());
    const s = await startServeProcess(home, serveEnv(home, model().url, { ADK_SHELL_SANDBOX: 'off' }), children, ['--agents', 'agents.yaml', '--cors', origin]);
    const page = await browser.newPage({ viewport: { width: 900, height: 900 } });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    await page.goto(`${origin}/?api=${encodeURIComponent(s.url)}&assistant=chat`);

    // A streamed answer: part of it on screen while it streams, then all of it, once.
    await page.getByLabel('message', { exact: true }).fill('hello');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('.msg.ai', { hasText: 'token3' }).waitFor();
    expect(await page.getByTestId('status').textContent()).toContain('streaming');
    expect(await page.locator('.msg.ai').textContent()).not.toContain('token29');
    await page.getByText('token29').waitFor();
    await page.getByTestId('status').getByText(/^idle/).waitFor();
    expect(await shown(page)).toEqual(['hello', ANSWER]);
    const thread = new URL(page.url()).searchParams.get('thread');
    expect(thread).toBeTruthy();
    await shot(page, 'stream');

    // An approval: the interrupt is drawn from useStream's `interrupt`, answered with submit(undefined, {command: {resume}}).
    await page.getByLabel('message', { exact: true }).fill('run the shell');
    await page.getByRole('button', { name: 'Send' }).click();
    const card = page.getByRole('alertdialog', { name: 'approval' });
    await card.waitFor();
    expect(await card.textContent()).toContain('echo approved-in-the-page');
    await shot(page, 'approval');
    await card.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('The shell said approved-in-the-page.').waitFor();
    expect(await card.count()).toBe(0);
    expect(await page.locator('.msg.tool').textContent()).toContain('approved-in-the-page');

    // A reload: the thread id in the URL brings the conversation back, and it goes on.
    await page.reload();
    await page.getByText('The shell said approved-in-the-page.').waitFor();
    expect((await shown(page)).filter((_, i) => i === 0 || i === 2)).toEqual(['hello', 'run the shell']);
    await page.getByLabel('message', { exact: true }).fill('and after the reload?');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('I still remember 2 earlier messages.').waitFor();
    expect(new URL(page.url()).searchParams.get('thread')).toBe(thread);
    await shot(page, 'resumed');
    // One model request per step: the answer, the call, the call's result, the question after the reload.
    expect(model().chatRequests.map((r) => String(lastUser(r).content).split('\n')[0])).toEqual(['hello', 'run the shell', 'approved-in-the-page', 'and after the reload?']);
    expect(problems).toEqual([]);
  }, 90_000);

  // Issue 43, item 4: Edit and Regenerate as agent-chat-ui writes them (submit with the checkpoint
  // before the state where the message was first seen) branch the thread instead of appending.
  it('Regenerate answers the last message again; Edit replaces a message of the person and what followed', async () => {
    let n = 0;
    model().onRequest((req) => ({ content: `answer ${++n} to ${lastUser(req).content}` }));
    const home = mkdtempSync(join(tmpdir(), 'adk-usestream-branch-'));
    writeAgentsFile(home, shellApprovalAgents());
    const s = await startServeProcess(home, serveEnv(home, model().url), children, ['--agents', 'agents.yaml', '--cors', origin]);
    const page = await browser.newPage({ viewport: { width: 900, height: 900 } });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    await page.goto(`${origin}/?api=${encodeURIComponent(s.url)}&assistant=chat`);
    const say = async (text: string, reply: string) => {
      await page.getByLabel('message', { exact: true }).fill(text);
      await page.getByRole('button', { name: 'Send' }).click();
      await page.getByText(reply).waitFor();
      await page.getByTestId('status').getByText(/^idle/).waitFor();
    };
    await say('one', 'answer 1 to one');
    await say('two', 'answer 2 to two');

    await page.locator('.msg.ai').nth(1).getByRole('button', { name: 'Regenerate' }).click();
    await page.getByText('answer 3 to two').waitFor();
    await page.getByTestId('status').getByText(/^idle/).waitFor();
    expect(await shown(page)).toEqual(['one', 'answer 1 to one', 'two', 'answer 3 to two']);
    await shot(page, 'regenerate');

    await page.getByLabel('message', { exact: true }).fill('uno');
    await page.locator('.msg.human').nth(0).getByRole('button', { name: 'Edit' }).click();
    await page.getByText('answer 4 to uno').waitFor();
    await page.getByTestId('status').getByText(/^idle/).waitFor();
    expect(await shown(page)).toEqual(['uno', 'answer 4 to uno']);
    // The edit's request carried nothing of the old branch.
    expect(model().chatRequests.at(-1)!.body.messages.filter((m: any) => m.role !== 'system').map((m: any) => m.content)).toEqual(['uno']);
    expect(problems).toEqual([]);
  }, 90_000);
});
