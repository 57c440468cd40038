import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { chatWorkspace, clearsIn, serverChatEnv, startChat, useTmux } from './tmux.js';

// Issue 32, item 6: in a real terminal ✅/❌ take two columns; the table counted one, so each emoji
// cell pushed its row's bars one column right, and a long last cell spilled outside the table.
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';

/** The screen columns of the table's bars on a captured line (a wide character is one cell wide in the capture text, two on screen). */
const bars = (line: string) => {
  const at: number[] = [];
  let col = 0;
  for (const ch of line) {
    if (ch === '│' || ch === '┼') at.push(col);
    col += stringWidth(ch);
  }
  return at;
};

describe('a table with ✅ and ❌ at 120×40 (tmux)', () => {
  it('its columns line up on screen and a long last cell wraps inside the table; no clear', async () => {
    const long = 'the explanation of this row is long, longer than what is left of a 120-column line after the first two columns, so it must wrap inside its own column';
    const table = ['| check | result | why |', '|---|:---:|---|', `| streaming | ✅ | ${long} |`, `| resize | ❌ | ${long} |`, '| tables | ✅ ❌ | short |', '| end | no | the last row |'].join('\n');
    server().onRequest(() => ({ content: `Here it is:\n\n${table}\n\nThat was the table.` }));
    const { dir, work } = chatWorkspace('adk-table-');
    const raw = join(dir, 'raw.out');
    startChat(tmux, 'table', { dir, cwd: work, raw, size: [120, 40], env: serverChatEnv(dir, server().url) });
    await tmux.waitForScreen('table', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('table', 'the table please');
    tmux.keys('table', 'Enter');
    const screen = await tmux.waitForScreen('table', (s) => s.includes('That was the table.') && s.includes(PROMPT), 'the answer');
    const lines = screen.split('\n');
    const from = lines.findIndex((l) => l.includes('check') && l.includes('│'));
    const to = lines.findIndex((l) => l.includes('the last row'));
    expect(from).toBeGreaterThan(-1);
    const rows = lines.slice(from, to + 1);
    // Wrapped, the two long cells take several lines each, every one of them inside the table.
    expect(rows.length).toBeGreaterThan(6);
    const header = bars(rows[0]!);
    expect(header.length).toBe(2);
    for (const row of rows) expect(bars(row), row).toEqual(header);
    expect(clearsIn(readFileSync(raw, 'latin1'))).toBe(0);
  }, 60_000);
});
