import chalk from 'chalk';
import { Box, Text } from 'ink';
import { cleanup, render } from 'ink-testing-library';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Markdown } from '../../src/ui/components/Markdown.js';
import { fitColumns } from '../../src/ui/markdown/Table.js';
import { highlightCode, highlighterLoaded, loadHighlighter, resolveLanguage } from '../../src/ui/markdown/highlight.js';
import { markdownRows } from '../../src/ui/markdown/rows.js';
import { plain } from './helpers.js';

let level: typeof chalk.level;
beforeAll(async () => {
  level = chalk.level;
  chalk.level = 1;
  await loadHighlighter();
});
afterAll(() => {
  chalk.level = level;
});
afterEach(() => cleanup());

const ANSI_COLOUR = /\u001B\[3[0-7]m/;
const md = (text: string, width = 60) => render(<Markdown text={text} width={width} />).lastFrame()!;

describe('Markdown', () => {
  it('renders a heading in bold without its # marks', () => {
    const frame = md('# Results\n\nSome text.');
    const lines = frame.split('\n');
    expect(plain(lines[0])).toBe('Results');
    expect(lines[0]).toContain('\u001B[1m');
    expect(plain(frame)).not.toContain('#');
    expect(plain(frame)).toContain('Some text.');
  });

  it('renders bold, italic, inline code and links', () => {
    const frame = md('A **bold** and *soft* `code` [docs](https://example.com) word.');
    expect(plain(frame)).toBe('A bold and soft code docs (https://example.com) word.');
    expect(frame).toContain('\u001B[1mbold');
    expect(frame).toContain('\u001B[3msoft');
    expect(frame).toContain('\u001B[4m');
  });

  it('renders bullet and numbered lists, nested', () => {
    const text = plain(md('- one\n- two\n  1. first\n  2. second\n- three'));
    expect(text.split('\n')).toEqual(['• one', '• two', '  1. first', '  2. second', '• three']);
  });

  it('keeps the number an ordered list starts at', () => {
    expect(plain(md('3. c\n4. d')).split('\n')).toEqual(['3. c', '4. d']);
  });

  it('renders a block quote with a bar', () => {
    expect(plain(md('> quoted\n> text'))).toBe('│ quoted\n│ text');
  });

  it('renders a simple table', () => {
    const lines = plain(md('| name | n |\n|------|--:|\n| a | 1 |\n| bb | 22 |')).split('\n');
    expect(lines).toEqual(['name │  n', '─────┼───', 'a    │  1', 'bb   │ 22']);
  });

  it('highlights a fenced code block: colour codes in the code region, the code text intact', () => {
    const frame = md('Before.\n\n```js\nconst answer = 42;\nfunction f() { return "x"; }\n```\n\nAfter.');
    const lines = frame.split('\n');
    const start = lines.findIndex((l) => plain(l).includes('const answer'));
    const code = lines.slice(start, start + 2);
    expect(plain(code.join('\n'))).toBe('  const answer = 42;\n  function f() { return "x"; }');
    expect(code[0]).toMatch(ANSI_COLOUR);
    expect(code[1]).toMatch(ANSI_COLOUR);
    // Prose around it is not coloured.
    expect(lines[0]).not.toMatch(ANSI_COLOUR);
    expect(plain(frame)).not.toContain('```');
  });

  it('shows code in an unknown language as plain text', () => {
    const frame = md('```nosuchlang\nlet x = 1\n```');
    expect(frame).toBe('  let x = 1');
  });

  it('wraps prose to the width it is given', () => {
    const frame = plain(md('word '.repeat(30).trim(), 20));
    for (const line of frame.split('\n')) expect(line.length).toBeLessThanOrEqual(20);
    expect(frame.split('\n').length).toBeGreaterThan(5);
  });

  it('wraps a styled paragraph the way Ink would, keeping the styles across lines', () => {
    const words = Array.from({ length: 40 }, (_, i) => (i % 7 === 3 ? `**bold${i}**` : i % 5 === 1 ? `\`code${i}\`` : `word${i}`));
    const frame = md(words.join(' '), 33);
    const ink = render(
      <Box width={33}>
        <Text>{words.map((w) => w.replace(/[*`]/g, '')).join(' ')}</Text>
      </Box>,
    ).lastFrame()!;
    expect(plain(frame)).toBe(ink);
    expect(frame).toContain('\u001B[1mbold3');
    expect(frame).toMatch(/\u001B\[33mcode1/);
  });

  it('renders an unfinished code fence (a live tail) as code', () => {
    const frame = md('```py\nprint("hi")');
    expect(plain(frame)).toBe('  print("hi")');
    expect(frame).toMatch(ANSI_COLOUR);
  });
});

describe('markdownRows', () => {
  const sample = [
    '## Offline demo',
    '',
    'You said: “hello”. I am the **demo model**: a script that shows what adk can do without an API key, and [more](https://example.com/docs).',
    'Try asking me to:',
    '- *list the files here* (calls `list_dir`)',
    '- run `ls -la` (calls `shell`, which asks for your approval first, every single time it runs)',
    '  1. nested first',
    '  2. nested second, long enough to wrap around at the narrow widths used in this test',
    '',
    '> quoted text that is also long enough to wrap when the terminal is narrow',
    '',
    '| name | n |',
    '|------|--:|',
    '| a | 1 |',
    '',
    '---',
    '',
    '- [ ] a task',
    '- [x] done',
    '',
    '1. loose',
    '',
    '2. list',
    '',
    '```ts',
    'const x = 1; // a comment long enough to wrap inside the code block at narrow widths',
    '```',
    '',
    'The end.',
  ].join('\n');

  it('predicts the rows Markdown takes, at any width', () => {
    for (const width of [24, 40, 57, 80, 117]) {
      const drawn = plain(md(sample, width)).split('\n').length;
      expect(markdownRows(sample, width), `width ${width}`).toBe(drawn);
    }
  });

  it('follows an unfinished code fence and a growing paragraph', () => {
    for (const text of ['Intro.\n\n```py\nprint("hi")\nprint("there")', 'word '.repeat(45).trim()]) {
      for (const width of [20, 33, 70]) expect(markdownRows(text, width)).toBe(plain(md(text, width)).split('\n').length);
    }
  });
});

describe('highlighting helpers', () => {
  it('loads cli-highlight on demand, not with the module (the REPL opens before it)', () => {
    expect(highlighterLoaded()).toBe(true);
  });

  it('resolves aliases and refuses unknown languages', () => {
    expect(resolveLanguage('ts')).toBe('typescript');
    expect(resolveLanguage('sh')).toBe('bash');
    expect(resolveLanguage('nosuchlang')).toBeUndefined();
    expect(resolveLanguage(undefined)).toBeUndefined();
    expect(highlightCode('x = 1', undefined)).toBe('x = 1');
  });

  it('fits table columns into the width, widest first', () => {
    expect(fitColumns([10, 10], 30)).toEqual([10, 10]);
    expect(fitColumns([30, 5], 20)).toEqual([12, 5]);
  });
});

describe('entities (issue 15)', () => {
  it('text decodes &amp; &lt; &gt; and numeric references; code spans keep them; a decoded escape byte is removed', () => {
    const out = plain(md('Tom &amp; Jerry &lt;3 &#x263A; `a &amp; b` x&#27;[31my'));
    expect(out).toContain('Tom & Jerry <3 ☺');
    expect(out).toContain('a &amp; b');
    expect(out).not.toContain('\u001b');
  });
});

describe('error lines (issue 15)', () => {
  it('a long error wraps under its text, not at column 0', async () => {
    const { ErrorNotice } = await import('../../src/ui/components/items/Notices.js');
    const frame = plain(render(<Box width={30}><ErrorNotice text="the model endpoint refused the request because the key is wrong" /></Box>).lastFrame());
    const lines = frame.split('\n');
    expect(lines.length).toBeGreaterThan(1);
    expect(lines[0]!.startsWith('✗ the model')).toBe(true);
    for (const l of lines.slice(1)) expect(l.startsWith('  ')).toBe(true);
  });
});

describe('tables on a narrow screen (issue 15)', () => {
  it('wrap long cells inside their columns: every word stays readable, nothing is cut with …', () => {
    const long = 'a rather long description that cannot fit in the column as it is';
    const out = plain(md(`| name | what |\n|---|---|\n| adk | ${long} |`, 40));
    expect(out).not.toContain('…');
    for (const word of long.split(' ')) expect(out).toContain(word);
    const rows = out.split('\n').filter((l) => l.includes('│'));
    expect(rows.length).toBeGreaterThan(2);
    for (const r of rows) expect(r.length).toBeLessThanOrEqual(40);
  });
});
