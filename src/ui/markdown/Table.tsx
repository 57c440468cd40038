import { Box, Text } from 'ink';
import type { Tokens } from 'marked';
import { displayWidth, truncate } from '../text/width.js';
import { plainText } from './lex.js';
import { breakParts, lineBreaks } from '../text/wrap.js';

type Align = 'center' | 'left' | 'right' | null;

const SEP = ' │ ';

/** Column widths that fit `width`: the widest columns give way first, down to 3 columns each. */
export function fitColumns(natural: number[], width: number): number[] {
  const widths = [...natural];
  const budget = width - SEP.length * Math.max(0, widths.length - 1);
  while (widths.reduce((a, b) => a + b, 0) > budget) {
    const i = widths.indexOf(Math.max(...widths));
    if (widths[i] <= 3) break;
    widths[i]--;
  }
  return widths;
}

/** A cell's text word-wrapped to its column (a word longer than the column is cut across lines). */
function wrapCell(text: string, width: number): string[] {
  const breaks = lineBreaks(text, width);
  return (breaks.length ? breakParts(breaks)(text) : text).split('\n');
}

function pad(text: string, width: number, align: Align): string {
  const cell = truncate(text, width);
  const space = Math.max(0, width - displayWidth(cell));
  if (align === 'right') return ' '.repeat(space) + cell;
  if (align === 'center') return ' '.repeat(Math.floor(space / 2)) + cell + ' '.repeat(Math.ceil(space / 2));
  return cell + ' '.repeat(space);
}

/** A simple table: plain cell text, a bold header; when the terminal is narrow, cells wrap inside their columns (nothing is cut away). */
export function Table({ token, width }: { token: Tokens.Table; width: number }) {
  const header = token.header.map((c) => plainText(c.tokens, c.text));
  const rows = token.rows.map((r) => r.map((c) => plainText(c.tokens, c.text)));
  const natural = header.map((h, i) => Math.max(displayWidth(h), ...rows.map((r) => displayWidth(r[i] ?? ''))));
  const widths = fitColumns(natural, width);
  // A row takes as many lines as its tallest cell.
  const lines = (cells: string[]) => {
    const wrapped = cells.map((c, i) => wrapCell(c, widths[i]!));
    const height = Math.max(1, ...wrapped.map((w) => w.length));
    return Array.from({ length: height }, (_, k) => wrapped.map((w, i) => pad(w[k] ?? '', widths[i]!, token.align[i] ?? null)).join(SEP));
  };
  return (
    <Box flexDirection="column">
      {lines(header).map((l, k) => (
        <Text key={`h${k}`} bold>
          {l}
        </Text>
      ))}
      <Text dimColor>{widths.map((w) => '─'.repeat(w)).join('─┼─')}</Text>
      {rows.flatMap((r, i) => lines(r).map((l, k) => <Text key={`${i}.${k}`}>{l}</Text>))}
    </Box>
  );
}
