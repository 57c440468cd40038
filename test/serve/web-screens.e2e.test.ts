import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { richTurn } from './rich-turn.js';
import { serveEnv, startServeProcess } from './serve-process.js';

// Issue 34: a rich turn on the page (reasoning, todos, tool rows, a table, highlighted code, an
// approval with a diff) in the light and the dark theme, and the keyboard. The screenshots go to
// ADK_SCREENSHOTS_DIR (docs/img for the docs), else a temporary folder.
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const SHOTS = process.env.ADK_SCREENSHOTS_DIR ?? mkdtempSync(join(tmpdir(), 'adk-web-shots-'));
const model = useServer();
let browser: Browser;
const children: ChildProcess[] = [];
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: CHROMIUM!, headless: true, args: ['--no-sandbox'] });
});
afterAll(async () => {
  await browser?.close();
  for (const c of children) c.kill('SIGKILL');
});

/** The deep team's turn: reasoning and todos, a directory listing, then the answer and a report to write. */
function scriptModel() {
  model().onRequest((req) => {
    const last = req.body.messages.at(-1);
    if (last.role === 'user' && last.content === 'count slowly') return { content: Array.from({ length: 60 }, (_, i) => `${i}`).join(' '), chunkSize: 2, chunkDelayMs: 80 };
    return richTurn(req);
  });
}

const bodyBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

describe.skipIf(!CHROMIUM && !process.env.CI)('the web page: a rich turn, both themes, the keyboard (Chromium)', () => {
  it('renders reasoning, todos, tool rows, a table, highlighted code with a copy button and an approval with a diff, light and dark', async () => {
    scriptModel();
    const home = mkdtempSync(join(tmpdir(), 'adk-web-rich-'));
    writeFileSync(join(home, 'report.md'), '# Report\n\n- notes.md: 3.9 KB\n');
    const s = await startServeProcess(home, serveEnv(home, model().url), children);
    const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, colorScheme: 'light' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: s.base });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`${s.base}/#token=${s.token}`);
    await page.getByLabel('team').selectOption('deep');
    await page.getByLabel('message').fill('Compare the sizes of the notes and write a report');
    await page.getByLabel('message').press('Enter');

    const card = page.locator('.card.approval');
    await card.waitFor();
    // The table, aligned; the code, highlighted; the todos; the tool rows with their status and time.
    await page.locator('.table-wrap th.align-right', { hasText: 'lines' }).waitFor();
    expect(await page.locator('.code-block .hljs-keyword').count()).toBeGreaterThan(2);
    expect(await page.locator('.todos li').allTextContents()).toEqual(['☑List the files (completed)', '◐Comparing their sizes (in progress)', '☐Write the report (pending)']);
    expect(await page.locator('.tool.done .tool-name').allTextContents()).toEqual(['write_todos', 'list_dir']);
    expect(await page.locator('.tool.done .duration').first().textContent()).toMatch(/^\d+ ms$|^\d+\.\d s$/);
    expect(await page.locator('.tool-arg').allTextContents()).toEqual(['todos: 3 items', 'path: .', 'path: report.md']);
    // The reasoning is folded away, one click from view.
    const reasoning = page.locator('details.reasoning');
    expect(await reasoning.getAttribute('open')).toBeNull();
    await reasoning.locator('summary').click();
    await page.getByText('The person wants sizes compared').waitFor();
    // The diff: the line replaced, the lines added.
    expect((await card.locator('.diff .line.del').allTextContents()).map((l) => l.trim())).toContain('-- notes.md: 3.9 KB');
    expect((await card.locator('.diff .line.add').allTextContents()).map((l) => l.trim())).toEqual(expect.arrayContaining(['+- notes.md: 4.1 KB', '+- todo.md: 0.6 KB']));
    // Copy puts the code on the clipboard.
    await page.locator('.code-block .copy').click();
    await page.locator('.code-block .copy', { hasText: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('export function report(files: File[]): string {');
    await page.locator('.tool', { hasText: 'list_dir' }).locator('summary').click();

    mkdirSync(SHOTS, { recursive: true });
    expect(await bodyBackground(page)).toBe('rgb(255, 255, 255)');
    // Tall enough for the whole turn, the card and the todos in one picture.
    await page.setViewportSize({ width: 1440, height: 1560 });
    await page.locator('.scroller').evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await page.getByRole('button', { name: 'scroll to the newest output' }).waitFor({ state: 'detached' });
    await page.screenshot({ path: join(SHOTS, 'web-light.png') });
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await bodyBackground(page)).toBe('rgb(22, 24, 28)');
    await page.screenshot({ path: join(SHOTS, 'web-dark.png') });
    await page.setViewportSize({ width: 390, height: 844 });
    // The sessions slide away into their drawer first.
    await page.waitForFunction(() => document.querySelector('#sessions')!.getBoundingClientRect().right <= 0);
    expect(await page.evaluate(() => [document.documentElement.scrollWidth, window.scrollX])).toEqual([390, 0]);
    await page.screenshot({ path: join(SHOTS, 'web-phone-dark.png') });
    for (const name of ['web-light.png', 'web-dark.png', 'web-phone-dark.png']) expect(statSync(join(SHOTS, name)).size).toBeGreaterThan(20_000);

    await card.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('The report is written.').waitFor();
    expect(await page.locator('.tool.done .tool-name').allTextContents()).toEqual(['write_todos', 'list_dir', 'write_file']);
    expect(problems).toEqual([]);
  }, 60_000);

  it('Enter sends, Shift-Enter starts a new line, Esc stops the turn (and Continue resumes it); the bar shows the live transfer path', async () => {
    scriptModel();
    const home = mkdtempSync(join(tmpdir(), 'adk-web-keys-'));
    const s = await startServeProcess(home, serveEnv(home, model().url), children);
    const page = await browser.newPage();
    await page.goto(`${s.base}/#token=${s.token}`);
    const box = page.getByLabel('message');
    await box.fill('count');
    await box.press('Shift+Enter');
    await box.pressSequentially('slowly');
    expect(await box.inputValue()).toBe('count\nslowly');
    expect(await page.locator('.user').count()).toBe(0);
    // The model is scripted on the last message: one line, so send the one it knows.
    await box.fill('count slowly');
    await box.press('Enter');
    await page.locator('.assistant.streaming').waitFor();
    // While it runs, the bar shows where the turn is: the live transfer path.
    expect(await page.getByRole('navigation', { name: 'transfer path' }).locator('li[aria-current]').textContent()).toBe('assistant');
    await page.keyboard.press('Escape');
    await page.locator('.note', { hasText: 'cancelled' }).waitFor();
    expect(await page.locator('.assistant').first().textContent()).not.toContain('59');
    expect(await page.getByRole('button', { name: 'Send' }).count()).toBe(1);
    // Stopped at a safe point, the turn can be continued from the page.
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.locator('.assistant', { hasText: '59' }).waitFor({ timeout: 15_000 });
    expect(await page.getByRole('button', { name: 'Continue' }).count()).toBe(0);
  }, 60_000);
});
