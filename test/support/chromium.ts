import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

/** Debian's Chromium, where the CI installs it. */
export const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));

/**
 * One headless Chromium for a test file (launched before it, closed after it), and the child
 * processes the file starts (killed after it).
 */
export function useChromium(): { browser(): Browser; children: ChildProcess[] } {
  let browser: Browser | undefined;
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM!, headless: true, args: ['--no-sandbox'] });
  });
  afterAll(async () => {
    await browser?.close();
    for (const c of children) c.kill('SIGKILL');
  });
  return { browser: () => browser!, children };
}
