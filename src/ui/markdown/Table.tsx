import { Box, Text } from 'ink';
import type { Tokens } from 'marked';
import { displayWidth, truncate } from '../text/width.js';
import { plainText } from './lex.js';

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

function pad(text: string, width: number, align: Align): string {
  const cell = truncate(text, width);
  const space = Math.max(0, width - displayWidth(cell));
  if (align === 'right') return ' '.repeat(space) + cell;
  if (align === 'center') return ' '.repeat(Math.floor(space / 2)) + cell + ' '.repeat(Math.ceil(space / 2));
  return cell + ' '.repeat(space);
}

/** A simple table: plain cell text, a bold header, cells cut with `…` when the terminal is narrow. */
export function Table({ token, width }: { token: Tokens.Table; width: number }) {
  const header = token.header.map((c) => plainText(c.tokens, c.text));
  const rows = token.rows.map((r) => r.map((c) => plainText(c.tokens, c.text)));
  const natural = header.map((h, i) => Math.max(displayWidth(h), ...rows.map((r) => displayWidth(r[i] ?? ''))));
  const widths = fitColumns(natural, width);
  const line = (cells: string[]) => cells.map((c, i) => pad(c, widths[i], token.align[i] ?? null)).join(SEP);
  return (
    <Box flexDirection="column">
      <Text bold>{line(header)}</Text>
      <Text dimColor>{widths.map((w) => '─'.repeat(w)).join('─┼─')}</Text>
      {rows.map((r, i) => (
        <Text key={i}>{line(r)}</Text>
      ))}
    </Box>
  );
}
