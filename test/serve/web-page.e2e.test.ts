import { mkdirSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { CHROMIUM, useChromium } from '../support/chromium.js';
import { serveEnv, startServeProcess } from './serve-process.js';

// Issue 34: the web page's rough edges, in Chromium at a phone's and a wide screen's size: the
// person's own messages, the team picker, autoscroll, an approval card with the diff, the layout.
const model = useServer();
const chrome = useChromium();
const children = chrome.children;

const LINES = Array.from({ length: 80 }, (_, i) => `line ${i}`).join('\n\n');
const NOTES = '# Notes\n\nThe first line.\nThe second line.\n';

/** The scripted model: short answers (late enough to see what shows before them), a long one, a write_file call. */
function scriptModel() {
  model().onRequest((req) => {
    const last = req.body.messages.at(-1);
    if (last.role === 'tool') return { content: `Wrote it: ${String(last.content).split('\n')[0]}` };
    const text = String(last.content);
    if (text === 'write the notes') return { content: 'Writing notes.md.', toolCalls: [{ id: 'c_write', name: 'write_file', arguments: { path: 'notes.md', content: NOTES } }] };
    if (text === 'a long answer') return { content: LINES, chunkSize: 12, chunkDelayMs: 25 };
    // Held back long enough that the person's message shows first even on a loaded machine.
    return { content: `answer to ${text}`, delayMs: 3000 };
  });
}

async function openPage(width: number, height: number): Promise<{ page: Page; url: string; problems: string[] }> {
  const home = mkdtempSync(join(tmpdir(), 'adk-web-page-'));
  const s = await startServeProcess(home, serveEnv(home, model().url), children);
  const page = await chrome.browser().newPage({ viewport: { width, height } });
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  await page.goto(`${s.base}/#token=${s.token}`);
  return { page, url: s.url, problems };
}

/** How far the conversation is from its bottom, in pixels. */
const fromBottom = (page: Page) => page.locator('.scroller').evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);

/** Nothing is wider than the screen, and the composer is on it. */
async function fitsTheScreen(page: Page, width: number, height: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  for (const el of [page.getByLabel('message'), page.getByRole('button', { name: /^(Send|Stop)$/ })]) {
    const box = (await el.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(width);
    expect(box.y + box.height).toBeLessThanOrEqual(height);
  }
}

describe.skipIf(!CHROMIUM && !process.env.CI).each([
  [390, 844],
  [1440, 900],
])('the web page at %i×%i (Chromium)', (width, height) => {
  let page: Page;
  let url: string;
  let problems: string[];
  beforeAll(async () => {
    ({ page, url, problems } = await openPage(width, height));
  });
  afterAll(async () => {
    await page.close();
  });
  beforeEach(() => scriptModel());
  afterEach(() => expect(problems).toEqual([]));
  const send = async (text: string) => {
    await page.getByLabel('message').fill(text);
    await page.getByLabel('message').press('Enter');
  };

  it('the conversation has the screen: sessions beside it when wide, in a drawer behind ☰ on a phone; nothing wider than the screen', async () => {
    await fitsTheScreen(page, width, height);
    const main = (await page.locator('main').boundingBox())!;
    const nav = page.getByRole('navigation', { name: 'sessions' });
    const navShown = async () => ((await nav.boundingBox())?.x ?? -1) >= 0;
    if (width < 760) {
      expect(main.width).toBe(width);
      expect(await navShown()).toBe(false);
      await page.getByRole('button', { name: 'sessions' }).click();
      await page.waitForFunction(() => document.querySelector('#sessions')!.getBoundingClientRect().x >= 0);
      await page.getByRole('button', { name: 'sessions' }).click({ force: true });
      await page.waitForFunction(() => document.querySelector('#sessions')!.getBoundingClientRect().right <= 0);
    } else {
      expect(await navShown()).toBe(true);
      expect(main.width).toBeGreaterThan(width * 0.75);
    }
  });

  it("shows each of the person's messages as soon as it is sent, before its answer, without a reload", async () => {
    for (const [n, text] of ['one', 'two', 'three'].entries()) {
      await send(text);
      await page.locator('.user').nth(n).filter({ hasText: text }).waitFor({ timeout: 2500 });
      expect(await page.getByText(`answer to ${text}`).count()).toBe(0);
      await page.getByText(`answer to ${text}`).waitFor();
    }
    expect(await page.locator('.user').allTextContents()).toEqual(['one', 'two', 'three']);
  });

  it('has a team picker: a session starts with the team picked', async () => {
    const picker = page.getByLabel('team');
    expect(await picker.locator('option').allTextContents()).toEqual(expect.arrayContaining(['assistant', 'deep (deep)', 'coder (supervisor)']));
    await picker.selectOption('deep');
    await send('which team?');
    await page.getByText('answer to which team?').waitFor();
    const id = new URLSearchParams(new URL(page.url()).hash.slice(1)).get('s')!;
    expect(((await (await fetch(`${url}/v1/sessions/${id}`)).json()) as { agent: string }).agent).toBe('deep');
    expect(await picker.inputValue()).toBe('deep');
  });

  it('follows the output as it streams; scrolled up, the reader stays put; the button follows again', async () => {
    await send('a long answer');
    await page.getByText('line 20', { exact: true }).waitFor();
    expect(await fromBottom(page)).toBeLessThan(48);
    await page.locator('.scroller').evaluate((el) => el.scrollTo({ top: 0 }));
    await page.getByText('line 40', { exact: true }).waitFor();
    expect(await page.locator('.scroller').evaluate((el) => el.scrollTop)).toBe(0);
    await page.getByRole('button', { name: 'scroll to the newest output' }).click();
    await page.getByText('line 79', { exact: true }).waitFor();
    await page.waitForFunction(() => !document.querySelector('.assistant.streaming'));
    expect(await fromBottom(page)).toBeLessThan(48);
  });

  it("a write_file approval card shows the server's diff, not raw JSON, within the screen", async () => {
    await send('write the notes');
    const card = page.locator('.card.approval');
    await card.waitFor();
    const added = await card.locator('.diff .line.add').allTextContents();
    expect(added.map((l) => l.trim())).toEqual(expect.arrayContaining(['+# Notes', '+The first line.', '+The second line.']));
    expect(await card.textContent()).not.toContain('{"path"');
    const box = (await card.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(width);
    await fitsTheScreen(page, width, height);
    await card.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('Wrote it:', { exact: false }).waitFor();
    expect(await page.locator('.tool.done .tool-name').allTextContents()).toContain('write_file');
  });
});
