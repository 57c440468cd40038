import { countTokens } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { countTokensSafely } from '../../src/core/models/token-estimate.js';

// A megabyte without a space (a minified file, a hostile page) made the o200k count take seconds
// (byte-pair merging is quadratic in one run's length) and held up the tool's result and Ctrl-C.
describe('token counts of hostile text', () => {
  it('equal the tokenizer on ordinary text, across window boundaries', async () => {
    const text = Array.from({ length: 20_000 }, (_, i) => `word${i} and, punctuation! ${i % 7 === 0 ? '\n' : ''}`).join('');
    expect(text.length).toBeGreaterThan(128 * 1024);
    const exact = countTokens(text);
    const safe = await countTokensSafely(countTokens, text);
    // A window boundary may cut a word (and a newline run): a couple of tokens per window.
    expect(Math.abs(safe - exact)).toBeLessThanOrEqual(2 * Math.ceil(text.length / (64 * 1024)));
  });

  it('count a megabyte without a space in slices, close to the whole', async () => {
    const run = 'abcdefghij'.repeat(2_000);
    const exact = countTokens(run);
    const safe = await countTokensSafely(countTokens, run);
    expect(safe).toBeGreaterThanOrEqual(exact);
    expect(safe).toBeLessThan(exact * 1.2);
    expect(await countTokensSafely(countTokens, '<'.repeat(1 << 20))).toBeGreaterThan(0);
  });
});
