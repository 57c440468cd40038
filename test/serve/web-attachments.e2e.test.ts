import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { CHROMIUM, useChromium } from '../support/chromium.js';
import { PDF_PATH, PNG_PATH } from '../parts/wire.js';
import { serveEnv, startServeProcess } from './serve-process.js';

// Issue 35 item 7: the web page takes images and PDFs (drop, paste, the attach button), shows them as
// chips before and after sending, posts them as `parts`, and refuses what the API would refuse.
const model = useServer();
const chrome = useChromium();
const children = chrome.children;

const png64 = readFileSync(PNG_PATH).toString('base64');
const pdf64 = readFileSync(PDF_PATH).toString('base64');
const PNG_URL = `data:image/png;base64,${png64}`;
const PDF_URL = `data:application/pdf;base64,${pdf64}`;

async function openPage(width: number, height: number, colorScheme: 'light' | 'dark') {
  const home = mkdtempSync(join(tmpdir(), 'adk-web-attach-'));
  const s = await startServeProcess(home, serveEnv(home, model().url), children);
  const page = await chrome.browser().newPage({ viewport: { width, height }, colorScheme });
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  // Every message the page posts, as sent (to see what was and was not in it).
  const posted: Array<{ content: string; parts?: Array<{ type: string; name?: string; mimeType?: string; data: string }> }> = [];
  page.on('request', (r) => r.method() === 'POST' && /\/messages$/.test(r.url()) && posted.push(JSON.parse(r.postData()!)));
  await page.goto(`${s.base}/#token=${s.token}`);
  await page.getByLabel('message').waitFor();
  return { page, problems, posted };
}

/**
 * Dispatches the events a person's drag of files onto the page makes, each file built in the page:
 * `b64` its bytes, or `size` bytes of zeros after `head` (a large file without passing it over).
 */
async function drop(page: Page, files: Array<{ name: string; type: string; b64?: string; head?: string; size?: number }>, target = 'main') {
  await page.evaluate(
    ({ files, target }) => {
      const dt = new DataTransfer();
      for (const f of files) {
        let bytes: Uint8Array;
        if (f.b64 !== undefined) bytes = Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0));
        else {
          bytes = new Uint8Array(f.size!);
          bytes.set(Uint8Array.from(atob(f.head!), (c) => c.charCodeAt(0)));
        }
        dt.items.add(new File([bytes as Uint8Array<ArrayBuffer>], f.name, { type: f.type }));
      }
      const el = document.querySelector(target)!;
      for (const type of ['dragenter', 'dragover', 'drop']) el.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    },
    { files, target },
  );
}

/** A paste of one file into the message box (a screenshot from the clipboard). */
async function paste(page: Page, name: string, type: string, b64: string) {
  await page.getByLabel('message').evaluate(
    (el, { name, type, b64 }) => {
      const dt = new DataTransfer();
      dt.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], name, { type }));
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    },
    { name, type, b64 },
  );
}

const composerChips = (page: Page) => page.locator('.composer').getByRole('list', { name: 'attachments' }).getByRole('listitem');

describe.skipIf(!CHROMIUM && !process.env.CI)('the web page takes images and PDFs (Chromium)', () => {
  let page: Page;
  let problems: string[];
  let posted: Awaited<ReturnType<typeof openPage>>['posted'];
  afterEach(async () => {
    expect(problems).toEqual([]);
    await page.close();
  });
  beforeEach(() => model().onRequest(() => ({ content: 'A red square and invoice 42.' })));

  it('on a phone: a dropped PNG, a pasted one (removed again) and a PDF from the attach button show as chips, reach the model, and stay on the sent message', async () => {
    ({ page, problems, posted } = await openPage(390, 844, 'light'));
    await page.getByLabel('message').fill('What is in these?');
    await drop(page, [{ name: 'red.png', type: 'image/png', b64: png64 }]);
    await paste(page, 'image.png', 'image/png', png64);
    await page.getByLabel('attach images or PDFs').setInputFiles(PDF_PATH);

    await expect.poll(() => composerChips(page).allTextContents()).toEqual([expect.stringMatching(/red\.png.*image.*1 KB/), expect.stringMatching(/image\.png.*image.*1 KB/), expect.stringMatching(/invoice\.pdf.*PDF.*1 KB/)]);
    // The image chips show their thumbnails; the PDF's, an icon.
    expect(await composerChips(page).locator('img').evaluateAll((imgs: HTMLImageElement[]) => imgs.map((i) => i.complete && i.naturalWidth > 0))).toEqual([true, true]);
    await page.getByRole('button', { name: 'remove image.png' }).click();
    expect(await composerChips(page).count()).toBe(2);
    // The chips fit a phone's screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(model().chatRequests).toHaveLength(0);

    await page.getByLabel('message').press('Enter');
    await page.getByText('A red square and invoice 42.').waitFor();
    expect(model().chatRequests.at(-1)!.body.messages.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'What is in these?' },
        { type: 'image_url', image_url: { url: PNG_URL } },
        { type: 'file', file: { filename: 'invoice.pdf', file_data: PDF_URL } },
      ],
    });
    expect(posted.at(-1)!.parts!.map((p) => [p.type, p.name, p.data])).toEqual([
      ['image', 'red.png', png64],
      ['file', 'invoice.pdf', pdf64],
    ]);

    // Sent: the composer is empty; the message shows its chips and the image's thumbnail.
    expect(await composerChips(page).count()).toBe(0);
    const sent = page.locator('.user').filter({ hasText: 'What is in these?' });
    expect(await sent.getByRole('listitem').allTextContents()).toEqual([expect.stringMatching(/red\.png.*image/), expect.stringMatching(/invoice\.pdf.*PDF/)]);
    const thumb = sent.getByRole('img', { name: 'red.png' });
    await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

    // Read back from the saved session (the API lists parts without their bytes): the chips stay.
    await page.reload();
    await page.getByText('A red square and invoice 42.').waitFor();
    expect(await page.locator('.user').filter({ hasText: 'What is in these?' }).getByRole('listitem').allTextContents()).toEqual([expect.stringMatching(/red\.png.*image/), expect.stringMatching(/invoice\.pdf.*PDF/)]);
  });

  it('wide, dark: a 21 MB PNG, a 33 MB PDF and a text file are refused inline and never sent', async () => {
    ({ page, problems, posted } = await openPage(1440, 900, 'dark'));
    const PNG_HEAD = png64.slice(0, 12);
    await drop(page, [
      { name: 'big.png', type: 'image/png', head: PNG_HEAD, size: 21 * 1024 * 1024 },
      { name: 'huge.pdf', type: 'application/pdf', head: btoa('%PDF-1.7'), size: 33 * 1024 * 1024 },
      { name: 'notes.txt', type: 'text/plain', b64: btoa('hello') },
    ]);
    const refused = page.locator('.composer').getByRole('alert');
    await expect.poll(() => refused.textContent()).toContain('big.png: 21 MB is over the 20 MB limit for an image');
    const text = (await refused.textContent())!;
    expect(text).toContain('huge.pdf: 33 MB is over the 32 MB limit for a PDF');
    expect(text).toContain('notes.txt: not a PNG, JPEG, WebP, GIF or PDF file');
    // In the dark theme's danger colour.
    expect(await refused.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(255, 107, 107)');
    expect(await composerChips(page).count()).toBe(0);
    // Nothing to send yet: no attachment, no text.
    expect(await page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(true);

    await page.getByLabel('message').fill('just the text');
    await page.getByLabel('message').press('Enter');
    await page.getByText('A red square and invoice 42.').waitFor();
    expect(posted).toEqual([{ content: 'just the text' }]);
    expect(model().chatRequests).toHaveLength(1);
    expect(model().chatRequests[0]!.body.messages.at(-1)).toEqual({ role: 'user', content: 'just the text' });
    expect(await refused.count()).toBe(0);
  });
});
