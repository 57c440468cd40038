import { describe, expect, it } from 'vitest';
import * as ed from '../../src/ui/input/editor.js';
import { atDraft, stepHistory } from '../../src/ui/input/history.js';
import { PasteStore } from '../../src/ui/input/paste.js';
import { commonPrefix, parseSlashCommand, slashSuggestions } from '../../src/ui/input/slash-commands.js';

describe('editor', () => {
  it('inserts and deletes around the cursor, whole code points at a time', () => {
    let s = ed.insert(ed.emptyEditor, 'a😀b');
    s = ed.left(s);
    s = ed.backspace(s);
    expect(s).toEqual({ text: 'ab', cursor: 1 });
  });

  it('moves by lines keeping the column, and knows the first and last line', () => {
    const s = ed.editorAt('abc\nde\nfghij');
    expect(ed.isOnLastLine(s)).toBe(true);
    const up = ed.verticalMove(s, -1);
    expect(up.cursor).toBe('abc\nde'.length);
    const top = ed.verticalMove(up, -1);
    expect(top.cursor).toBe(2);
    expect(ed.isOnFirstLine(top)).toBe(true);
    expect(ed.verticalMove(top, 1).cursor).toBe('abc\nde'.length);
  });

  it('deletes words and line parts', () => {
    const s = ed.editorAt('git commit -m  ');
    expect(ed.deleteWordBefore(s).text).toBe('git commit ');
    expect(ed.deleteToLineStart(ed.editorAt('a\nbcd')).text).toBe('a\n');
    expect(ed.deleteToLineEnd({ text: 'abc\nd', cursor: 1 }).text).toBe('a\nd');
    expect(ed.home({ text: 'ab\ncd', cursor: 5 }).cursor).toBe(3);
    expect(ed.end({ text: 'ab\ncd', cursor: 0 }).cursor).toBe(2);
  });
});

describe('history', () => {
  const h = ['one', 'two'];
  it('goes back from the draft and returns to it', () => {
    const a = stepHistory(h, atDraft, 'draft', 'older')!;
    expect(a.text).toBe('two');
    const b = stepHistory(h, a.at, a.text, 'older')!;
    expect(b.text).toBe('one');
    expect(stepHistory(h, b.at, b.text, 'older')).toBeUndefined();
    const c = stepHistory(h, b.at, b.text, 'newer')!;
    expect(c.text).toBe('two');
    const d = stepHistory(h, c.at, c.text, 'newer')!;
    expect(d).toEqual({ at: atDraft, text: 'draft' });
    expect(stepHistory(h, d.at, d.text, 'newer')).toBeUndefined();
  });

  it('has nowhere to go in an empty history', () => {
    expect(stepHistory([], atDraft, 'x', 'older')).toBeUndefined();
  });
});

describe('PasteStore', () => {
  it('makes unique placeholders and expands them back', () => {
    const store = new PasteStore();
    const a = store.add('1\n2\n3');
    const b = store.add('x\ny\nz');
    expect(a).toBe('[Pasted text #1 +3 lines]');
    expect(b).toBe('[Pasted text #2 +3 lines]');
    // A final line break ends the last line (issue 32: 300 copied lines were labelled 301).
    expect(store.add('1\n2\n3\n')).toBe('[Pasted text #3 +3 lines]');
    expect(store.expand(`${a} and ${b}`)).toBe('1\n2\n3 and x\ny\nz');
    expect(store.tokenAtEnd(`see ${b}`)).toBe(b);
    expect(store.tokenAtEnd('see')).toBeUndefined();
  });
});

describe('slash commands', () => {
  const commands = [{ name: '/help' }, { name: '/history' }, { name: '/exit' }];
  it('suggests by prefix while a single word is typed', () => {
    expect(slashSuggestions('/h', commands).map((c) => c.name)).toEqual(['/help', '/history']);
    expect(slashSuggestions('/help', commands)).toEqual([]);
    expect(slashSuggestions('/h x', commands)).toEqual([]);
    expect(slashSuggestions('h', commands)).toEqual([]);
    expect(commonPrefix(['/help', '/history'])).toBe('/h');
  });

  it('offers argument choices once a space follows their command (the /model picker)', () => {
    const withChoices = [...commands, { name: '/model' }, { name: '/model qwen3:8b' }, { name: '/model qwen3:32b' }, { name: '/model llama3.3' }];
    expect(slashSuggestions('/mo', withChoices).map((c) => c.name)).toEqual(['/model']);
    expect(slashSuggestions('/model ', withChoices).map((c) => c.name)).toEqual(['/model qwen3:8b', '/model qwen3:32b', '/model llama3.3']);
    expect(slashSuggestions('/model qw', withChoices).map((c) => c.name)).toEqual(['/model qwen3:8b', '/model qwen3:32b']);
    expect(slashSuggestions('/model qwen3:8b', withChoices)).toEqual([]);
    expect(slashSuggestions('/help ', withChoices)).toEqual([]);
  });

  it('parses a command and its arguments, and leaves paths alone', () => {
    expect(parseSlashCommand('/resume  abc ')).toEqual({ name: '/resume', args: 'abc' });
    expect(parseSlashCommand('/exit')).toEqual({ name: '/exit', args: '' });
    expect(parseSlashCommand('/etc/hosts is broken')).toBeUndefined();
    expect(parseSlashCommand('hello /help')).toBeUndefined();
  });
});
