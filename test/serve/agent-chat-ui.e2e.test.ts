import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shellApprovalAgents, useServer, writeAgentsFile } from '../cli/helpers.js';
import { richTurn } from './rich-turn.js';
import { serveEnv, startServeProcess } from './serve-process.js';

// Issue 34: LangChain's agent-chat-ui (Next.js) against `adk serve`. Not in CI: it needs a built
// checkout (AGENT_CHAT_UI_DIR; `npm install && next build` there, see docs/serve.md).
const UI = process.env.AGENT_CHAT_UI_DIR;
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const SHOTS = process.env.ADK_SCREENSHOTS ?? mkdtempSync(join(tmpdir(), 'adk-acui-shots-'));
const model = useServer();
const children: ChildProcess[] = [];
let browser: Browser;
let origin: string;

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

beforeAll(async () => {
  if (!UI || !CHROMIUM) return;
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  const next = spawn(process.execPath, [join(UI, 'node_modules/next/dist/bin/next'), 'start', '-p', String(port), '-H', '127.0.0.1'], { cwd: UI, env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' }, stdio: 'ignore' });
  children.push(next);
  for (let i = 0; i < 100; i++) {
    if (await fetch(origin).then((r) => r.ok, () => false)) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  mkdirSync(SHOTS, { recursive: true });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  for (const c of children) c.kill('SIGKILL');
});

const lastUser = (req: any) => [...req.body.messages].reverse().find((m: any) => m.role === 'user' || m.role === 'tool');
const shot = (page: Page, name: string) => page.screenshot({ path: join(SHOTS, `agent-chat-ui-${name}.png`), fullPage: true });

describe.skipIf(!UI || !CHROMIUM)("LangChain's agent-chat-ui against adk serve", () => {
  it('a streamed answer, an approval card answered with Approve, the thread again after a reload', async () => {
    model().onRequest((req) => {
      const last = lastUser(req);
      if (last.role === 'tool') return { content: `The shell said ${String(last.content).split('\n')[0]}.` };
      if (last.content === 'run the shell') return { toolCalls: [{ name: 'shell', arguments: { command: 'echo approved-in-agent-chat-ui' } }] };
      if (last.content === 'after the reload') return { content: 'Still the same thread.' };
      return { content: 'Hello from **adk**, through agent-chat-ui.\n\n| a | b |\n|---|---|\n| 1 | 2 |', chunkSize: 6, chunkDelayMs: 30 };
    });
    const home = mkdtempSync(join(tmpdir(), 'adk-acui-'));
    writeAgentsFile(home, shellApprovalAgents());
    const s = await startServeProcess(home, serveEnv(home, model().url, { ADK_SHELL_SANDBOX: 'off' }), children, ['--agents', 'agents.yaml', '--cors', origin]);
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    await page.goto(`${origin}/?apiUrl=${encodeURIComponent(s.url)}&assistantId=chat`);
    const box = page.getByPlaceholder('Type your message...');

    await box.fill('hello');
    await box.press('Enter');
    await page.getByText('through agent-chat-ui').waitFor({ timeout: 20_000 });
    await expect.poll(() => new URL(page.url()).searchParams.get('threadId')).toBeTruthy();
    const thread = new URL(page.url()).searchParams.get('threadId');
    await shot(page, 'stream');

    await box.fill('run the shell');
    await box.press('Enter');
    const approve = page.getByRole('button', { name: 'Approve' });
    await approve.waitFor({ timeout: 20_000 });
    expect(await page.locator('body').textContent()).toContain('echo approved-in-agent-chat-ui');
    await shot(page, 'approval');
    await approve.click();
    await page.getByText('The shell said approved-in-agent-chat-ui.').waitFor({ timeout: 20_000 });

    await page.reload();
    await page.getByText('The shell said approved-in-agent-chat-ui.').waitFor({ timeout: 20_000 });
    await box.fill('after the reload');
    await box.press('Enter');
    await page.getByText('Still the same thread.').waitFor({ timeout: 20_000 });
    expect(new URL(page.url()).searchParams.get('threadId')).toBe(thread);
    await shot(page, 'resumed');
    expect(model().chatRequests.map((r) => String(lastUser(r).content).split('\n')[0])).toEqual(['hello', 'run the shell', 'approved-in-agent-chat-ui', 'after the reload']);
  }, 120_000);

  it('the rich turn of the web page screenshots (todos, a listing, a table, code, an approval with a diff), light and dark', async () => {
    model().onRequest((req) => richTurn(req));
    const home = mkdtempSync(join(tmpdir(), 'adk-acui-rich-'));
    writeFileSync(join(home, 'report.md'), '# Report\n\n- notes.md: 3.9 KB\n');
    const s = await startServeProcess(home, serveEnv(home, model().url), children, ['--cors', origin]);
    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await browser.newPage({ viewport: { width: 1440, height: 1000 }, colorScheme });
      await page.goto(`${origin}/?apiUrl=${encodeURIComponent(s.url)}&assistantId=deep`);
      const box = page.getByPlaceholder('Type your message...');
      await box.fill('Compare the sizes of the notes and write a report');
      await box.press('Enter');
      await page.getByRole('button', { name: 'Approve' }).waitFor({ timeout: 30_000 });
      await page.getByText('notes.md').first().waitFor();
      await page.screenshot({ path: join(SHOTS, `agent-chat-ui-rich-${colorScheme}.png`), fullPage: true });
      await page.close();
    }
  }, 120_000);
});
