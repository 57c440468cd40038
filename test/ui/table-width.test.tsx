import { cleanup, render } from 'ink-testing-library';
import stringWidth from 'string-width';
import { afterEach, describe, expect, it } from 'vitest';
import { Markdown } from '../../src/ui/components/Markdown.js';
import { displayWidth, truncate } from '../../src/ui/text/width.js';
import { plain } from './helpers.js';

// Issue 32, item 6: ✅/❌ take two columns in a terminal; counted as one, every cell holding one was a
// column wider than its neighbours, and a long last cell spilled outside the table.
afterEach(() => cleanup());

const md = (text: string, width: number) => plain(render(<Markdown text={text} width={width} />).lastFrame()!);
/** The terminal columns at which `│` and `┼` sit on a line. */
const bars = (line: string) => {
  const at: number[] = [];
  let col = 0;
  for (const ch of line) {
    if (ch === '│' || ch === '┼') at.push(col);
    col += stringWidth(ch);
  }
  return at;
};

describe('table widths with emoji (terminal columns, as string-width counts them)', () => {
  it('counts ✅ and ❌ as two columns, as Ink and the terminal do', () => {
    for (const s of ['✅', '❌', 'ok ✅ done', '⚠️ warn', '日本', 'a\u0301']) expect(displayWidth(s)).toBe(stringWidth(s));
    expect(displayWidth(truncate('✅✅✅✅✅', 5))).toBeLessThanOrEqual(5);
  });

  it('aligns the columns of a table with ✅ and ❌ cells', () => {
    const table = ['| feature | status | note |', '|---|:---:|---|', '| streaming | ✅ | fine |', '| resize | ❌ | broken |', '| tables | ✅ ❌ | mixed |', '| plain | yes | text |'].join('\n');
    const lines = md(table, 80).split('\n').filter((l) => l.includes('│') || l.includes('┼'));
    expect(lines.length).toBe(6);
    const first = bars(lines[0]!);
    for (const l of lines) expect(bars(l)).toEqual(first);
  });

  it('wraps a long last cell inside the table at 120 columns', () => {
    const long = 'a long explanation that goes on and on, with ✅ marks and ❌ marks in it, much longer than what is left of the line after the first columns of the table';
    const table = ['| check | result | why |', '|---|---|---|', `| one | ✅ | ${long} |`, `| two | ❌ | ${long} |`].join('\n');
    const out = md(table, 118);
    const lines = out.split('\n').filter((l) => l.trim());
    for (const l of lines) expect(stringWidth(l)).toBeLessThanOrEqual(118);
    // Every line of a row is a line of the table: its bars stay where the header's are.
    const first = bars(lines[0]!);
    for (const l of lines.slice(2)) expect(bars(l)).toEqual(first);
    expect(out).toContain('of the table');
  });
});
