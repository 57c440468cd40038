import { describe, expect, it } from 'vitest';
import { tailMarkdownSource } from '../../src/ui/markdown/tail-source.js';
import { findLastSafeSplitPoint } from '../../src/ui/state/safe-split.js';

describe('findLastSafeSplitPoint', () => {
  it('cuts after the last paragraph break', () => {
    const text = 'one\n\ntwo\n\nthr';
    expect(findLastSafeSplitPoint(text)).toBe('one\n\ntwo\n\n'.length);
  });

  it('returns 0 when no paragraph is complete', () => {
    expect(findLastSafeSplitPoint('')).toBe(0);
    expect(findLastSafeSplitPoint('just one line\nand another')).toBe(0);
  });

  it('never cuts at a blank line inside a closed code fence', () => {
    const text = 'intro\n\n```py\na = 1\n\nb = 2\n```\nafter';
    // The only break outside the fence is the one after "intro".
    expect(findLastSafeSplitPoint(text)).toBe('intro\n\n'.length);
  });

  it('cuts after a closed fence once a blank line follows it', () => {
    const text = '```\nx\n\ny\n```\n\nnext';
    expect(findLastSafeSplitPoint(text)).toBe('```\nx\n\ny\n```\n\n'.length);
  });

  it('cuts right before a fence that is still open', () => {
    const text = 'para one\n\npara two\n```js\nconst a = 1;\n\nconst b';
    expect(findLastSafeSplitPoint(text)).toBe('para one\n\npara two\n'.length);
  });

  it('does not cut when the open fence starts the text', () => {
    expect(findLastSafeSplitPoint('```js\nconst a = 1;\n\nconst b = 2;')).toBe(0);
  });

  it('treats tildes and longer fences as fences, closed only by a matching one', () => {
    const text = '~~~~\na\n```\n\nb\n~~~~\n\nc';
    expect(findLastSafeSplitPoint(text)).toBe('~~~~\na\n```\n\nb\n~~~~\n\n'.length);
    expect(findLastSafeSplitPoint('x\n\n````\na\n```\n\nb')).toBe('x\n\n'.length);
  });

  it('everything before the cut renders the same alone: committed + rest reproduces the text', () => {
    const text = 'a\n\n```\ncode\n```\n\nb\n\nc';
    const cut = findLastSafeSplitPoint(text);
    expect(text.slice(0, cut) + text.slice(cut)).toBe(text);
    expect(text.slice(cut)).toBe('c');
  });
});

describe('tailMarkdownSource', () => {
  it('keeps the last lines and counts what it dropped', () => {
    const text = Array.from({ length: 10 }, (_, i) => `line ${i}`).join('\n');
    const t = tailMarkdownSource(text, 3);
    expect(t).toEqual({ text: 'line 7\nline 8\nline 9', dropped: 7 });
  });

  it('repeats the opening fence when the cut falls inside a code block', () => {
    const text = ['```ts', 'a', 'b', 'c', 'd'].join('\n');
    const t = tailMarkdownSource(text, 2);
    expect(t.text).toBe('```ts\nc\nd');
    expect(t.dropped).toBe(3);
  });

  it('leaves short texts alone', () => {
    expect(tailMarkdownSource('a\nb', 5)).toEqual({ text: 'a\nb', dropped: 0 });
  });
});
