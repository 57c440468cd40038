import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { grepTool } from '../../src/core/tools/builtin/grep.js';
import { htmlToText } from '../../src/core/tools/builtin/html-to-text.js';
import { tempDir } from '../cli/helpers.js';
import { run } from '../tools/helpers.js';

// Issue 12, item 1: regex and HTML work are linear in their input (each test's own timeout is the bound).
describe('text work that cannot hang', () => {
  it('grep with a catastrophic-backtracking pattern returns (RE2, linear time)', async () => {
    const ws = tempDir('adk-redos-');
    writeFileSync(join(ws, 'a.txt'), `${'a'.repeat(41)}b\n`.repeat(2000));
    const r = await run(grepTool(ws), { pattern: '^(a+)+$' });
    expect(r.content).toBe('No matches for /^(a+)+$/ in .');
    const back = await run(grepTool(ws), { pattern: '(a)\\1' });
    expect(back.isError).toBe(true);
    expect(back.content).toMatch(/RE2 syntax .*no backreferences/);
  }, 5_000);

  it('HTML to text with a real parser: 1 MB of hostile markup is linear, and a cancel is seen between chunks', async () => {
    for (const page of ['<'.repeat(1_000_000), '<a '.repeat(333_333), '<!--'.repeat(250_000), `<p>${'x '.repeat(500_000)}`]) {
      expect(typeof (await htmlToText(page))).toBe('string');
    }
    const ac = new AbortController();
    const pending = htmlToText('<p>'.repeat(1_000_000), ac.signal);
    ac.abort();
    await expect(pending).rejects.toThrow(/cancel/i);
  }, 5_000);
});
