import { charWidth } from '../text/width.js';

/** One screen row of the text being edited: a slice of one line, hard-wrapped. */
export interface EditorRow {
  /** Offset of the row's first character in the whole text. */
  start: number;
  text: string;
  /** The row starts a line (the prompt or its indent goes before it). */
  firstOfLine: boolean;
}

/**
 * The text as the rows it takes at `width` columns, each row at most `width - 1` columns so the
 * cursor cell after the last character always fits; and the row the cursor is on. Wrapping here
 * (not in Ink) is what lets the editor show only some of its rows.
 */
export function editorRows(text: string, cursor: number, width: number): { rows: EditorRow[]; cursorRow: number } {
  const max = Math.max(1, width - 1);
  const rows: EditorRow[] = [];
  let cursorRow = 0;
  let offset = 0;
  for (const line of text.split('\n')) {
    let start = offset;
    let col = 0;
    let row: EditorRow = { start, text: '', firstOfLine: true };
    for (let i = 0; i < line.length; ) {
      const cp = line.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      const w = charWidth(cp);
      if (col + w > max && row.text) {
        rows.push(row);
        start = offset + i;
        row = { start, text: '', firstOfLine: false };
        col = 0;
      }
      row.text += ch;
      col += w;
      i += ch.length;
    }
    rows.push(row);
    offset += line.length + 1;
  }
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    const next = rows[r + 1];
    // The cursor belongs to the last row it can sit on: the end of a wrapped row is the next row's start.
    const end = next && !next.firstOfLine ? next.start - 1 : row.start + row.text.length;
    if (cursor >= row.start && cursor <= end) cursorRow = r;
  }
  return { rows, cursorRow };
}

/** The first row of a window of `size` rows that shows `cursorRow`, kept as far down as the text allows. */
export function windowStart(total: number, cursorRow: number, size: number, previous = Number.POSITIVE_INFINITY): number {
  if (total <= size) return 0;
  const last = total - size;
  // Stay where the previous frame was while the cursor is inside it; else follow the cursor.
  const from = Math.min(previous, last);
  if (cursorRow < from) return cursorRow;
  if (cursorRow >= from + size) return cursorRow - size + 1;
  return from;
}
