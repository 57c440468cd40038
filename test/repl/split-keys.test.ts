import { describe, expect, it } from 'vitest';
import type { Key } from 'ink';
import { splitControlKeys } from '../../src/ui/input/split-keys.js';

const none = { ctrl: false, meta: false } as Key;
const summary = (input: string) => splitControlKeys(input, none).map(([i, k]) => `${k.ctrl ? 'ctrl+' : ''}${k.return ? 'enter' : k.delete ? 'del' : i}`);

describe('splitControlKeys', () => {
  it('splits control bytes that arrived together into separate keys', () => {
    expect(summary('\u0003\u0003')).toEqual(['ctrl+c', 'ctrl+c']);
    expect(summary('abc\u0015x')).toEqual(['abc', 'ctrl+u', 'x']);
    expect(summary('\u0004\r')).toEqual(['ctrl+d', 'enter']);
    expect(summary('ab\u007f')).toEqual(['ab', 'del']);
  });

  it('after a control key, the text and Enter that follow in the same chunk are still text and Enter (issue 15, defect 2)', () => {
    expect(summary('helo\u007flo world\r')).toEqual(['helo', 'del', 'lo world', 'enter']);
    expect(summary('\u0015hello there\r')).toEqual(['ctrl+u', 'hello there', 'enter']);
    expect(summary('abc\u0004')).toEqual(['abc', 'ctrl+d']);
    expect(splitControlKeys('see @sr\t', none).map(([i, k]) => (k.tab ? 'tab' : i))).toEqual(['see @sr', 'tab']);
  });

  it('splits typed text followed by Enter, so Enter still submits', () => {
    expect(summary('hello\r')).toEqual(['hello', 'enter']);
    expect(summary('two\rlines\r')).toEqual(['two\rlines\r']);
  });

  it('leaves text, pastes with line breaks and single keys as they came', () => {
    const key = { ctrl: true, meta: false } as Key;
    expect(splitControlKeys('c', key)).toEqual([['c', key]]);
    expect(splitControlKeys('a\nb\tc', none)).toEqual([['a\nb\tc', none]]);
  });
});
