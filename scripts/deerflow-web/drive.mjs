// Drives DeerFlow 1.x's own page (next dev on :3000, pointed at adk serve by backend.mts) through one
// thread in Chromium: question → plan card → Edit plan → second plan → Start research → report, and
// saves screenshots. Not part of `npm test`: it needs DeerFlow's web/ built (see docs/serve.md).
//   OUT=docs/img CHROMIUM=/usr/bin/chromium node scripts/deerflow-web/drive.mjs
import { chromium } from 'playwright-core';

const OUT = process.env.OUT ?? '.';
const PAGE = process.env.DEERFLOW_URL ?? 'http://localhost:3000/chat';
const t0 = Date.now();
const log = (m) => console.log(`${((Date.now() - t0) / 1000).toFixed(1)}s ${m}`);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
const errors = [];
page.on('console', (m) => m.type() === 'error' && errors.push(`${m.text()} @ ${m.location().url}`));
page.on('pageerror', (e) => errors.push(String(e)));
try {
  await page.goto(PAGE, { waitUntil: 'networkidle', timeout: 180_000 });
  const editor = page.locator('.ProseMirror').first();
  await editor.waitFor({ timeout: 120_000 });
  await editor.click();
  await page.keyboard.type('Why is the sky blue?');
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Start research' }).waitFor({ timeout: 60_000 });
  await page.getByText('Compute totals').first().waitFor();
  log('the plan card, with Edit plan / Start research');
  await page.waitForTimeout(800);
  await page.screenshot({ path: `${OUT}/deerflow-plan.png` });

  await page.getByRole('button', { name: 'Edit plan' }).click();
  await editor.click();
  await page.keyboard.type('Add a step comparing the sources.');
  await page.keyboard.press('Enter');
  await page.getByText('Compare sources').first().waitFor({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Start research' }).last().waitFor({ timeout: 60_000 });
  log('the edited plan, a card of its own with its own buttons');
  await page.waitForTimeout(800);
  await page.screenshot({ path: `${OUT}/deerflow-edited-plan.png` });

  await page.getByRole('button', { name: 'Start research' }).last().click();
  await page.getByText('Key Citations').first().waitFor({ timeout: 120_000 });
  log('the report');
  await page.waitForTimeout(1500);
  await page.screenshot({ path: `${OUT}/deerflow-report.png` });
  await page.getByText('Activities').first().click();
  await page.waitForTimeout(1000);
  await page.screenshot({ path: `${OUT}/deerflow-activities.png` });
  log(`console errors: ${errors.length}`);
  for (const e of errors) console.log(`  ${e.slice(0, 300)}`);
} finally {
  await browser.close();
}
