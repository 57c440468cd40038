import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { expectExit, tempDir } from '../cli/helpers.js';
import { CHROMIUM, useChromium } from '../support/chromium.js';

// Issue 45: the HTML report is one file, no server: opened in Debian's Chromium through Playwright.
// ADK_SCREENSHOTS=docs/img keeps the screenshot.
const chrome = useChromium();
const SAMPLE = resolve('evals/sample');
const SHOTS = process.env.ADK_SCREENSHOTS ?? tempDir('adk-eval-shots-');

describe.skipIf(!CHROMIUM && !process.env.CI)('adk eval report.html in Chromium', () => {
  it('shows the summary, the task grid and the cost/pass chart, with no console error', async () => {
    const out = tempDir('adk-eval-html-');
    await expectExit(['eval', 'run', join(SAMPLE, 'parse-log'), join(SAMPLE, 'cli-flag'), join(SAMPLE, 'write-function'), '--agent', 'oracle', '--trials', '2', '--out', out], 0, { timeoutMs: 120_000 });
    const page = await chrome.browser().newPage({ viewport: { width: 1000, height: 800 } });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    await page.goto(pathToFileURL(join(out, 'report.html')).href);
    await expect(page.getByRole('heading', { name: 'adk eval' }).count()).resolves.toBe(1);
    const summary = await page.locator('table').first().innerText();
    expect(summary).toMatch(/oracle\s+6\/6\s+100%\s+100%/);
    expect(await page.locator('td a.passed, td span.passed').count()).toBe(6);
    expect(await page.getByRole('img', { name: /mean cost against pass@1/ }).count()).toBe(1);
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, 'eval-report.png'), fullPage: true });
    expect(problems).toEqual([]);
  }, 150_000);
});
