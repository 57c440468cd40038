import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shellApprovalAgents, useServer, writeAgentsFile } from '../cli/helpers.js';
import { serveEnv, startServeProcess } from './serve-process.js';

// Issue 34: DeerFlow 2's own front end (bytedance/deer-flow main, frontend/) against `adk serve`.
// Not in CI: it needs a built checkout (DEERFLOW2_DIR; `pnpm install && next build` there, see
// docs/serve.md). Its Next.js server proxies /api/* to the gateway address fixed at build time
// (http://127.0.0.1:8001 unless DEER_FLOW_INTERNAL_GATEWAY_BASE_URL was set), so adk serves there.
const UI = process.env.DEERFLOW2_DIR;
const GATEWAY_PORT = process.env.DEERFLOW2_GATEWAY_PORT ?? '8001';
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const SHOTS = process.env.ADK_SCREENSHOTS ?? mkdtempSync(join(tmpdir(), 'adk-deerflow2-shots-'));
const PORT = 3000 + Math.floor(Math.random() * 500);
const origin = `http://localhost:${PORT}`;
const model = useServer();
const children: ChildProcess[] = [];
let browser: Browser;

beforeAll(async () => {
  if (!UI || !CHROMIUM) return;
  const next = spawn(process.execPath, [join(UI, 'node_modules/next/dist/bin/next'), 'start', '-p', String(PORT)], { cwd: UI, env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', SKIP_ENV_VALIDATION: '1' }, stdio: 'ignore' });
  children.push(next);
  for (let i = 0; i < 150; i++) {
    if (await fetch(`${origin}/login`).then((r) => r.status < 500, () => false)) break;
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
const shot = (page: Page, name: string) => page.screenshot({ path: join(SHOTS, `deerflow2-${name}.png`) });

describe.skipIf(!UI || !CHROMIUM)("DeerFlow 2's front end against adk serve", () => {
  it('signs in with the token; a streamed answer, an approval card answered with Approve, the thread after a reload', async () => {
    model().onRequest((req) => {
      const last = lastUser(req);
      if (last.role === 'tool') return { content: `The shell said:\n\n\`\`\`\n${String(last.content).trim()}\n\`\`\`` };
      if (last.content === 'list the files') return { content: 'Let me look.', toolCalls: [{ name: 'shell', arguments: { command: 'ls' } }] };
      return { content: 'Hello from **adk**, inside DeerFlow.\n\n| step | status |\n|---|---|\n| plan | done |\n| report | done |', chunkSize: 6, chunkDelayMs: 30 };
    });
    const home = mkdtempSync(join(tmpdir(), 'adk-deerflow2-'));
    writeAgentsFile(home, shellApprovalAgents());
    writeFileSync(join(home, 'notes.md'), '# notes\n');
    const s = await startServeProcess(home, serveEnv(home, model().url), children, ['--agents', 'agents.yaml', '--deerflow2', '--port', GATEWAY_PORT]);
    const probe = await fetch(`${origin}/api/v1/auth/setup-status`);
    expect([probe.status, await probe.text()]).toEqual([200, '{"needs_setup":false}']);
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const failures: string[] = [];
    page.on('pageerror', (e) => failures.push(String(e)));

    // DeerFlow's own sign-in page: the password is adk serve's token.
    await page.goto(`${origin}/workspace`, { waitUntil: 'networkidle' });
    expect(page.url()).toContain('/login');
    await page.locator('input[type=email]').fill('me@example.com');
    await page.locator('input[type=password]').fill('not-the-token');
    await page.locator('button[type=submit]').click();
    await page.getByText(/Wrong password/).waitFor().catch(async (e) => {
      throw new Error(`${(e as Error).message}\n${await page.locator('body').innerText()}`);
    });
    await page.locator('input[type=password]').fill(s.token);
    await page.locator('button[type=submit]').click();
    await page.waitForURL(/\/workspace/);

    const box = page.locator('textarea[name=message]');
    await box.fill('hello');
    await box.press('Enter');
    await page.getByText('inside DeerFlow').waitFor({ timeout: 30_000 });
    await page.getByRole('cell', { name: 'report' }).waitFor();
    await shot(page, 'answer');

    await box.fill('list the files');
    await box.press('Enter');
    await page.getByRole('button', { name: 'Approve' }).waitFor({ timeout: 30_000 });
    await shot(page, 'approval');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('notes.md').first().waitFor({ timeout: 30_000 });
    await shot(page, 'approved');

    await page.reload({ waitUntil: 'networkidle' });
    await page.getByText('inside DeerFlow').waitFor({ timeout: 30_000 });
    await page.getByText('notes.md').first().waitFor();
    await shot(page, 'reloaded');
    expect(failures).toEqual([]);
    // The shell ran once, approved.
    expect(model().chatRequests.filter((r: any) => r.body.messages.some((m: any) => m.role === 'tool')).length).toBe(1);
  }, 120_000);
});
