import { describe, expect, it } from 'vitest';
import { breakParts, lineBreaks } from '../../src/ui/text/wrap.js';
import { displayWidth } from '../../src/ui/text/width.js';

/** The text with its breaks applied, as lines. */
const wrap = (text: string, width: number) => breakParts(lineBreaks(text, width))(text).split('\n');

describe('lineBreaks', () => {
  it('breaks at the last space that fits, dropping that space', () => {
    expect(wrap('aaa bbb ccc ddd', 7)).toEqual(['aaa bbb', 'ccc ddd']);
    expect(wrap('aaa bbb ccc ddd', 8)).toEqual(['aaa bbb', 'ccc ddd']);
    expect(wrap('aaa bbb ccc ddd', 11)).toEqual(['aaa bbb ccc', 'ddd']);
  });

  it('leaves text that fits alone, and keeps its own newlines', () => {
    expect(lineBreaks('short line', 20)).toEqual([]);
    expect(wrap('one two\nthree four five', 10)).toEqual(['one two', 'three four', 'five']);
  });

  it('splits a word longer than a line', () => {
    expect(wrap('x'.repeat(25) + ' yy', 10)).toEqual(['xxxxxxxxxx', 'xxxxxxxxxx', 'xxxxx yy']);
    expect(wrap('ab ' + 'c'.repeat(12), 5)).toEqual(['ab', 'ccccc', 'ccccc', 'cc']);
  });

  it('counts wide characters as two columns', () => {
    const lines = wrap('数据 数据 数据 数据', 9);
    expect(lines).toEqual(['数据 数据', '数据 数据']);
    for (const l of lines) expect(displayWidth(l)).toBeLessThanOrEqual(9);
  });

  it('never makes a line wider than the width', () => {
    const text = Array.from({ length: 200 }, (_, i) => 'w'.repeat((i * 7) % 13 + 1)).join(' ');
    for (const width of [5, 17, 40, 117]) for (const l of wrap(text, width)) expect(l.length).toBeLessThanOrEqual(width);
  });
});

describe('breakParts', () => {
  it('applies breaks found in the whole text to its pieces, in order', () => {
    const parts = ['Keys: Enter ', 'sends', ', Tab completes', ' commands'];
    const at = breakParts(lineBreaks(parts.join(''), 12));
    const out = parts.map(at);
    expect(out.join('')).toBe(wrap(parts.join(''), 12).join('\n'));
    expect(out).toEqual(['Keys: Enter\n', 'sends', ', Tab\ncompletes', '\ncommands']);
  });
});
