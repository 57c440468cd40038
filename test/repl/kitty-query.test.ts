import { describe, expect, it } from 'vitest';
import { KittyAnswers } from '../../src/cli/chat/kitty-query.js';

// adk asks the terminal itself (the kitty query, then Primary Device Attributes) and reads the
// answers out of what the person types meanwhile; no timer decides when the terminal answers.
describe('KittyAnswers', () => {
  const take = (a: KittyAnswers, ...parts: string[]) => parts.map((p) => a.take(Buffer.from(p, 'latin1')).toString('latin1')).join('');

  it('finds the kitty answer, split across reads, and keeps the keys typed around it', async () => {
    const a = new KittyAnswers(60_000);
    expect(take(a, 'he', 'llo\u001B[', '?1', 'u wor', 'ld')).toBe('hello world');
    await expect(a.supported()).resolves.toBe(true);
  });

  it('takes the device attributes answer alone as "no"', async () => {
    const a = new KittyAnswers(60_000);
    expect(take(a, 'x\u001B[?62;22c', 'y')).toBe('xy');
    await expect(a.supported()).resolves.toBe(false);
  });

  it('gives back a held escape that was no answer, and passes keys untouched once settled', async () => {
    const a = new KittyAnswers(60_000);
    expect(take(a, 'a\u001B[')).toBe('a');
    expect(a.leftover().toString('latin1')).toBe('\u001B[');
    expect(take(a, '\u001B[?0u\u001B[?62c', '\u001B[A')).toBe('\u001B[A');
    await expect(a.supported()).resolves.toBe(true);
  });

  it('says "no" when the terminal stays quiet', async () => {
    await expect(new KittyAnswers(20).supported()).resolves.toBe(false);
  });

  it('keeps UTF-8 typed at startup byte for byte', () => {
    const a = new KittyAnswers(60_000);
    expect(a.take(Buffer.from('héllo ✓')).toString()).toBe('héllo ✓');
  });
});
