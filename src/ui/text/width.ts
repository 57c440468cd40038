import stringWidth from 'string-width';
// eslint-disable-next-line no-control-regex
const ANSI = /\u001B(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001B]*(?:\u0007|\u001B\\)|[@-Z\\-_])/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

// The same measure Ink lays text out with (it depends on string-width too): Unicode's East Asian
// width and emoji presentation (✅ ❌ are two columns), grapheme clusters, ANSI codes ignored.
// Counting it any other way misaligns tables and wraps lines where Ink does not.
const widths = new Map<number, number>();

/** Columns one code point takes in a terminal. */
export function charWidth(cp: number): number {
  if (cp >= 0x20 && cp < 0x7f) return 1;
  let w = widths.get(cp);
  if (w === undefined) {
    w = stringWidth(String.fromCodePoint(cp));
    widths.set(cp, w);
  }
  return w;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Columns a single-line string takes in a terminal (ANSI codes ignored). */
export function displayWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  return stringWidth(text);
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Cuts plain text to `max` columns, ending with `…` when something was cut. */
export function truncate(text: string, max: number): string {
  if (max <= 0) return '';
  if (displayWidth(text) <= max) return text;
  let out = '';
  let w = 0;
  for (const { segment: ch } of graphemes.segment(text)) {
    const cw = displayWidth(ch);
    if (w + cw > max - 1) break;
    out += ch;
    w += cw;
  }
  return out + '…';
}

/** Rows a text takes when wrapped at `width` columns (an estimate for word wrapping). */
export function wrappedRows(text: string, width: number): number {
  const cols = Math.max(1, width);
  let rows = 0;
  for (const line of text.split('\n')) rows += Math.max(1, Math.ceil(displayWidth(line) / cols));
  return rows;
}
