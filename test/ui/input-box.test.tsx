import { cleanup, render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InputBox } from '../../src/ui/components/InputBox.js';
import { DEFAULT_SLASH_COMMANDS } from '../../src/ui/input/slash-commands.js';
import { KEY, plain, tick, type } from './helpers.js';

afterEach(() => cleanup());

async function box(props: Partial<Parameters<typeof InputBox>[0]> = {}) {
  const onSubmit = vi.fn<(t: string) => void>();
  const r = render(<InputBox onSubmit={onSubmit} commands={DEFAULT_SLASH_COMMANDS} {...props} />);
  await tick();
  // Ink trims trailing spaces, so the cursor cell at the end of a line does not show in plain text.
  return { r, onSubmit, frame: () => plain(r.lastFrame()).split('\n').map((l) => l.trimEnd()).join('\n') };
}

describe('InputBox', () => {
  it('submits on Enter and clears itself', async () => {
    const { r, onSubmit, frame } = await box();
    await type(r.stdin, 'hello', KEY.enter);
    expect(onSubmit).toHaveBeenCalledExactlyOnceWith('hello');
    expect(frame()).toBe('›');
  });

  it('Shift-Enter where the terminal reports it (kitty CSI 13;2u) adds a line instead of sending (issue 15)', async () => {
    const { r, onSubmit, frame } = await box();
    await type(r.stdin, 'one', '\u001b[13;2u', 'two');
    expect(onSubmit).not.toHaveBeenCalled();
    expect(frame()).toBe('› one\n  two');
  });

  it('ignores an empty Enter', async () => {
    const { r, onSubmit } = await box();
    await type(r.stdin, '  ', KEY.enter);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('edits with the arrow keys and backspace', async () => {
    const { r, onSubmit } = await box();
    await type(r.stdin, 'helo', KEY.left, 'l', KEY.backspace, 'l', KEY.enter);
    expect(onSubmit).toHaveBeenCalledExactlyOnceWith('hello');
  });

  it('walks the history with ↑ and ↓ and keeps the draft', async () => {
    const { r, onSubmit, frame } = await box({ history: ['first', 'second'] });
    await type(r.stdin, 'draft', KEY.up);
    expect(frame()).toBe('› second');
    await type(r.stdin, KEY.up);
    expect(frame()).toBe('› first');
    await type(r.stdin, KEY.up);
    expect(frame()).toBe('› first');
    await type(r.stdin, KEY.down, KEY.down);
    expect(frame()).toBe('› draft');
    await type(r.stdin, KEY.up, KEY.enter);
    expect(onSubmit).toHaveBeenCalledExactlyOnceWith('second');
  });

  it('adds a line with \\ + Enter and with Ctrl-J', async () => {
    const { r, onSubmit, frame } = await box();
    await type(r.stdin, 'one', '\\', KEY.enter, 'two', KEY.ctrlJ, 'three');
    expect(frame().split('\n')).toEqual(['› one', '  two', '  three']);
    await type(r.stdin, KEY.enter);
    expect(onSubmit).toHaveBeenCalledExactlyOnceWith('one\ntwo\nthree');
  });

  it('moves between lines with ↑ inside a multi-line text instead of browsing history', async () => {
    const { r, onSubmit } = await box({ history: ['old'] });
    await type(r.stdin, 'ab', KEY.ctrlJ, 'cd', KEY.up, 'X', KEY.enter);
    expect(onSubmit).toHaveBeenCalledExactlyOnceWith('abX\ncd');
  });

  it('folds a large bracketed paste into a placeholder but submits the full text', async () => {
    const { r, onSubmit, frame } = await box();
    const pasted = Array.from({ length: 12 }, (_, i) => `row ${i}`).join('\n');
    await type(r.stdin, 'see: ', KEY.pasteStart, pasted, KEY.pasteEnd);
    expect(frame()).toBe('› see: [Pasted text #1 +12 lines]');
    await type(r.stdin, KEY.enter);
    expect(onSubmit).toHaveBeenCalledExactlyOnceWith(`see: ${pasted}`, 'see: [Pasted text #1 +12 lines]');
  });

  it('keeps a paste whose parts arrive in several chunks, with its line breaks', async () => {
    const { r, onSubmit } = await box();
    await type(r.stdin, KEY.pasteStart + 'a\r\nb', '\rc', KEY.pasteEnd, KEY.enter);
    expect(onSubmit).toHaveBeenCalledExactlyOnceWith('a\nb\nc');
  });

  it('inserts a small paste as text, and does not submit on its line breaks', async () => {
    const { r, onSubmit, frame } = await box();
    await type(r.stdin, `${KEY.pasteStart}x\ny${KEY.pasteEnd}`);
    expect(onSubmit).not.toHaveBeenCalled();
    expect(frame().split('\n')).toEqual(['› x', '  y']);
  });

  it('removes a paste placeholder with one Backspace', async () => {
    const { r, onSubmit } = await box();
    const pasted = Array.from({ length: 10 }, (_, i) => `${i}`).join('\n');
    await type(r.stdin, 'a ', KEY.pasteStart, pasted, KEY.pasteEnd, KEY.backspace, 'b', KEY.enter);
    expect(onSubmit).toHaveBeenCalledExactlyOnceWith('a b');
  });

  it('suggests slash commands as you type and completes a single match with Tab', async () => {
    const { r, onSubmit, frame } = await box();
    await type(r.stdin, '/');
    expect(frame()).toContain('/help');
    // The count grows with every command added (issue 32 added several): only that the rest is counted.
    expect(frame()).toMatch(/… \d+ more/);
    await type(r.stdin, 'mo');
    expect(frame().split('\n').slice(1).map((l) => l.trim().split(/\s+/)[0])).toEqual(['/model']);
    await type(r.stdin, KEY.tab);
    expect(frame().split('\n')[0]).toBe('› /model');
    await type(r.stdin, 'gpt-4o', KEY.enter);
    expect(onSubmit).toHaveBeenCalledExactlyOnceWith('/model gpt-4o');
  });

  it('extends to the common prefix, then cycles through the matches with Tab', async () => {
    const commands = [{ name: '/sessions' }, { name: '/session-list' }];
    const { r, frame } = await box({ commands });
    await type(r.stdin, '/se', KEY.tab);
    expect(frame().split('\n')[0]).toBe('› /session');
    await type(r.stdin, KEY.tab);
    expect(frame().split('\n')[0]).toBe('› /sessions');
    await type(r.stdin, KEY.tab);
    expect(frame().split('\n')[0]).toBe('› /session-list');
    await type(r.stdin, KEY.tab);
    expect(frame().split('\n')[0]).toBe('› /sessions');
  });

  it('while busy, Enter queues the text (issue 15) and clears the box', async () => {
    const onQueue = vi.fn<(t: string) => void>();
    const { r, onSubmit, frame } = await box({ busy: true, onQueue });
    await type(r.stdin, 'later', KEY.enter);
    expect(onSubmit).not.toHaveBeenCalled();
    expect(onQueue).toHaveBeenCalledExactlyOnceWith('later');
    expect(frame()).toBe('›');
  });

  it('without a queue, does not submit while busy, but keeps the text', async () => {
    const { r, onSubmit, frame } = await box({ busy: true });
    await type(r.stdin, 'later', KEY.enter);
    expect(onSubmit).not.toHaveBeenCalled();
    expect(frame()).toBe('› later');
  });
});
