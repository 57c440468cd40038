import { describe, expect, it } from 'vitest';
import { editorRows, windowStart } from '../../src/ui/input/editor-rows.js';

describe('editor rows (issue 15: the input box never outgrows the screen)', () => {
  it('hard-wraps at width - 1 columns (room for the cursor), wide characters counted as two', () => {
    expect(editorRows('abcdefg', 0, 4).rows.map((r) => r.text)).toEqual(['abc', 'def', 'g']);
    expect(editorRows('日本語の', 0, 5).rows.map((r) => r.text)).toEqual(['日本', '語の']);
    expect(editorRows('ab\n\ncd', 0, 10).rows.map((r) => [r.text, r.firstOfLine])).toEqual([['ab', true], ['', true], ['cd', true]]);
  });

  it('puts the cursor on the row it is drawn on, including at the end of a full row and after a newline', () => {
    expect(editorRows('abcdef', 3, 4).cursorRow).toBe(1);
    expect(editorRows('abcdef', 6, 4).cursorRow).toBe(1);
    expect(editorRows('ab\ncd', 3, 10).cursorRow).toBe(1);
    expect(editorRows('ab\ncd', 2, 10).cursorRow).toBe(0);
  });

  it('keeps the window still while the cursor is in it, and follows it out', () => {
    expect(windowStart(50, 49, 10)).toBe(40);
    expect(windowStart(50, 45, 10, 40)).toBe(40);
    expect(windowStart(50, 12, 10, 40)).toBe(12);
    expect(windowStart(50, 30, 10, 12)).toBe(21);
    expect(windowStart(5, 4, 10)).toBe(0);
  });
});
