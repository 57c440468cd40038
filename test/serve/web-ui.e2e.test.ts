import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { CHROMIUM, useChromium } from '../support/chromium.js';
import { startRedisServer } from '../support/redis-server.js';
import { serveEnv, startServeProcess, startWorkerProcess } from './serve-process.js';

// Issue 17: the web UI of `adk serve` in Debian's Chromium: send a prompt, watch it stream, approve
// a shell call, reload mid-run and see the run go on, resume an older session.
const model = useServer();
const chrome = useChromium();
const children = chrome.children;

/** The server's API address (token in the path) and the address a person opens, as `adk serve` prints it (`/#token=…`). */
async function serve(home: string): Promise<{ url: string; page: string }> {
  const s = await startServeProcess(home, serveEnv(home, model().url, { ADK_SHELL_SANDBOX: 'off' }), children);
  return { url: s.url, page: `${s.base}/#token=${s.token}` };
}

// In CI (.ci/run installs chromium) a missing browser fails the test instead of skipping it.
describe.skipIf(!CHROMIUM && !process.env.CI)('the web UI (Chromium)', () => {
  it('streams a turn, approves a shell call, survives a reload mid-run, resumes an older session', async () => {
    const LONG = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    model().onRequest((req) => {
      const msgs = req.body.messages;
      const last = msgs.at(-1);
      const firstUser = msgs.find((m: any) => m.role === 'user')?.content;
      if (firstUser === 'an older question') return { content: last.content === 'an older question' ? 'the older answer' : 'resumed and answered' };
      if (last.role === 'user' && last.content === 'say hi from the shell') return { content: 'Running it now.', toolCalls: [{ id: 'c_sh', name: 'shell', arguments: { command: 'echo hi-from-shell' } }] };
      if (last.role === 'tool') return { content: `Shell said ${last.content.split('\n')[0]}. ${LONG}`, chunkSize: 6, chunkDelayMs: 60 };
      return { content: 'ok' };
    });
    const home = mkdtempSync(join(tmpdir(), 'adk-web-'));
    const { url, page: opened } = await serve(home);
    // An older session, made over the API.
    const post = (path: string, body: unknown, accept = 'application/json') => fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', accept }, body: JSON.stringify(body) });
    const older = ((await (await post('/v1/sessions', { title: 'older one' })).json()) as { id: string }).id;
    expect(((await (await post(`/v1/sessions/${older}/messages`, { content: 'an older question' })).json()) as any).output).toBe('the older answer');

    const page = await chrome.browser().newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    await page.goto(opened);
    // The token left the address bar (the page keeps it for this tab).
    expect(page.url()).not.toContain('token');
    await page.getByLabel('message').fill('say hi from the shell');
    await page.getByLabel('message').press('Enter');
    await page.getByText('Running it now.').waitFor();
    const card = page.locator('.card.approval');
    await card.waitFor();
    expect(await card.textContent()).toContain('echo hi-from-shell');
    await card.getByRole('button', { name: 'Approve' }).click();
    // Streaming: part of the answer is there, not all of it; then the page is reloaded.
    await page.locator('.assistant.streaming').getByText(/word3/).waitFor();
    expect(await page.locator('.transcript').textContent()).not.toContain('word39');
    expect(await page.locator('.tool.done').textContent()).toContain('hi-from-shell');
    await page.reload();
    await page.getByText(/word39/).waitFor({ timeout: 15_000 });
    const text = (await page.locator('.transcript').textContent()) ?? '';
    expect(text).toContain(`Shell said hi-from-shell. ${LONG}`);
    expect(text.split('Shell said').length).toBe(2); // once, no duplicate after the reload
    expect(text).toContain('say hi from the shell');

    // The older session, resumed from the list.
    await page.locator(`[data-session="${older}"]`).click();
    await page.getByText('the older answer').waitFor();
    await page.getByLabel('message').fill('and now?');
    await page.getByLabel('message').press('Enter');
    await page.getByText('resumed and answered').waitFor();
    expect(problems).toEqual([]);
  }, 60_000);

  it('with a token and turns on workers: the page asks for the token, and "Always allow" lets the next shell call run unasked', async () => {
    model().onRequest((req) => {
      const msgs = req.body.messages;
      const last = msgs.at(-1);
      const tools = msgs.filter((m: any) => m.role === 'tool').length;
      if (last.role === 'user') return { content: 'First one.', toolCalls: [{ id: 'c1', name: 'shell', arguments: { command: 'echo one-ran' } }] };
      if (tools === 1) return { content: 'Second one.', toolCalls: [{ id: 'c2', name: 'shell', arguments: { command: 'echo two-ran' } }] };
      return { content: 'Both ran.' };
    });
    const redis = await startRedisServer();
    try {
      const home = mkdtempSync(join(tmpdir(), 'adk-web-token-'));
      const env = serveEnv(home, model().url, { ADK_SHELL_SANDBOX: 'off', ADK_SERVE_TOKEN: 'tok-web-0123456789abcdef', ADK_STORE: redis.url });
      await startWorkerProcess(home, env, children);
      const { base } = await startServeProcess(home, env, children);
      const page = await chrome.browser().newPage();
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(e.message));
      // Opened without the token in the address: the page asks for it.
      await page.goto(base);
      await page.getByLabel('access token').fill('tok-web-0123456789abcdef');
      await page.getByRole('button', { name: 'Use token' }).click();
      await page.getByLabel('message').fill('run two commands');
      await page.getByLabel('message').press('Enter');
      const card = page.locator('.card.approval');
      await card.waitFor();
      expect(await card.textContent()).toContain('echo one-ran');
      await card.getByRole('button', { name: 'Always allow shell' }).click();
      await page.getByText('Both ran.').waitFor({ timeout: 15_000 });
      const text = (await page.locator('.transcript').textContent()) ?? '';
      expect(text).toContain('one-ran');
      expect(text).toContain('two-ran');
      expect(await page.locator('.card.approval').count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await redis.stop();
    }
  }, 60_000);

  it('after a server restart, a turn waiting on an approval shows what it did so far, and the card', async () => {
    model().onRequest((req) => {
      const last = req.body.messages.at(-1);
      if (last.role === 'user') return { content: 'Before asking, I looked around.', toolCalls: [{ id: 'c_ls', name: 'shell', arguments: { command: 'echo after-restart' } }] };
      return { content: `Done: ${String(last.content).split('\n')[0]}` };
    });
    const home = mkdtempSync(join(tmpdir(), 'adk-web-restart-'));
    const env = serveEnv(home, model().url, { ADK_SHELL_SANDBOX: 'off' });
    const first = await startServeProcess(home, env, children);
    const post = (base: string, path: string, body: unknown) => fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) });
    const { id } = (await (await post(first.url, '/v1/sessions', {})).json()) as { id: string };
    expect(((await (await post(first.url, `/v1/sessions/${id}/messages`, { content: 'look around' })).json()) as any).status).toBe('interrupted');
    first.child.kill('SIGTERM');
    await new Promise((r) => first.child.once('exit', r));

    const second = await startServeProcess(home, env, children);
    const page = await chrome.browser().newPage();
    await page.goto(`${second.base}/#token=${second.token}&s=${id}`);
    await page.getByText('Before asking, I looked around.').waitFor();
    const card = page.locator('.card.approval');
    await card.waitFor();
    await card.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('Done: after-restart').waitFor({ timeout: 15_000 });
    const text = (await page.locator('.transcript').textContent()) ?? '';
    expect(text.split('Before asking').length).toBe(2);
  }, 60_000);

  // Issue 44: a reached budget is an interrupt; the page's budget card raises it and the run goes on,
  // or stops it. (adk serve --max-model-calls 1: each model call after the first needs a raise.)
  it('a reached budget shows its card: a bad figure is refused on the page, a raise goes on, stop ends the turn', async () => {
    model().onRequest((req) => {
      const last = req.body.messages.at(-1);
      if (last.role === 'tool') return { content: 'Listed after the raise.' };
      return { content: 'Looking.', toolCalls: [{ name: 'list_dir', arguments: { path: '.' } }] };
    });
    const home = mkdtempSync(join(tmpdir(), 'adk-web-budget-'));
    const s = await startServeProcess(home, serveEnv(home, model().url, { ADK_SHELL_SANDBOX: 'off' }), children, ['--max-model-calls', '1']);
    const page = await chrome.browser().newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    await page.goto(`${s.base}/#token=${s.token}`);
    await page.getByLabel('message').fill('list the folder');
    await page.getByLabel('message').press('Enter');
    const card = page.getByRole('form', { name: 'budget reached' });
    await card.waitFor();
    expect(await card.textContent()).toContain('max_model_calls (1 spent of 1)');
    // Not above the limit: said on the page, nothing sent.
    await card.getByLabel('new limit').fill('1');
    await card.getByRole('button', { name: 'Raise and go on' }).click();
    await card.getByRole('alert').getByText('give a whole number above 1').waitFor();
    expect(model().chatRequests).toHaveLength(1);
    await card.getByLabel('new limit').fill('2');
    await card.getByRole('button', { name: 'Raise and go on' }).click();
    await page.getByText('Listed after the raise.').waitFor();
    expect(model().chatRequests).toHaveLength(2);

    // The next turn reaches the raised limit of this turn again (per-turn caps): stop it here.
    await page.getByLabel('message').fill('once more');
    await page.getByLabel('message').press('Enter');
    const again = page.getByRole('form', { name: 'budget reached' });
    await again.waitFor();
    await again.getByRole('button', { name: 'Stop here' }).click();
    await again.waitFor({ state: 'detached' });
    expect(model().chatRequests).toHaveLength(3);
    expect(problems).toEqual([]);
  }, 60_000);
});
