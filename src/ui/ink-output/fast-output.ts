// The CLI bundle's stand-in for Ink 6.8's `build/output.js` (scripts/bundle.mjs swaps it in; the
// imports below then resolve from Ink's own folder, to the versions Ink itself uses). Ink's Output
// builds a full width × height grid of new cell objects for every frame and compares the styles of
// every pair of neighbouring cells with Sets: writing a resumed session's 7,000 lines of scrollback
// took seconds, mostly in allocation and GC. This one gives byte for byte the same text
// (test/ui/fast-output.test.ts compares them) while it:
//  - allocates a row only when something is written on it, and only as far as the writes reach
//    (what Ink pads a row with are unstyled spaces, which its trimEnd removes again);
//  - shares its cells, styles and the codes between two styles (one object per character and style,
//    not one per character written), and a cache of tokenised lines between frames (a live frame's
//    lines barely change from one frame to the next);
//  - skips the style diff between neighbouring cells whose styles are the same.
import { ansiCodesToString, diffAnsiCodes, reduceAnsiCodesIncremental, tokenize, type StyledChar } from '@alcalzone/ansi-tokenize';
import sliceAnsi from 'slice-ansi';
import stringWidth from 'string-width';

type Transformer = (line: string, index: number) => string;
interface Clip {
  x1?: number | undefined;
  x2?: number | undefined;
  y1?: number | undefined;
  y2?: number | undefined;
}
type Operation = { type: 'write'; x: number; y: number; text: string; transformers: Transformer[] } | { type: 'clip'; clip: Clip } | { type: 'unclip' };

type Codes = StyledChar['styles'];
type Token = ReturnType<typeof tokenize>[number];

/** Past this many distinct styles (24-bit colours could make any number) the shared tables start again. */
const MAX_STYLES = 4096;
/** Past this many shared cells or cached codes between styles, the shared tables start again. */
const MAX_ENTRIES = 65_536;

// Styles, cells and the codes between two styles are shared, not made per character: a style is one
// array (compared by identity), a cell one frozen object per character and style. The library makes a
// new object and a copy of the style for every character, and three Sets for every change of style:
// most of what drawing a resumed session allocated. Nothing here is ever changed once made.
const styles = new Map<string, Codes>();
const cells = new Map<Codes, Map<string, StyledChar>>();
const opens = new Map<Codes, string>();
const closes = new Map<Codes, string>();
const steps = new Map<Codes, Map<Codes, string>>();
/** Cells and codes between styles made since the tables last started again. */
let entries = 0;
const EMPTY: Codes = Object.freeze([]) as unknown as Codes;

function forgetShared(): void {
  for (const m of [styles, cells, opens, closes, steps]) m.clear();
  styles.set('', EMPTY);
  entries = 0;
}
forgetShared();

/** The one array for a style with these codes. */
function sharedStyle(codes: Codes): Codes {
  let key = '';
  for (const c of codes) key += `${c.code}\0${c.endCode}\0`;
  const found = styles.get(key);
  if (found) return found;
  if (styles.size >= MAX_STYLES) forgetShared();
  styles.set(key, codes);
  return codes;
}

function cellOf(value: string, fullWidth: boolean, style: Codes): StyledChar {
  let byValue = cells.get(style);
  if (!byValue) cells.set(style, (byValue = new Map()));
  const key = fullWidth ? `\u0001${value}` : value;
  let cell = byValue.get(key);
  if (!cell) {
    if (entries >= MAX_ENTRIES) {
      forgetShared();
      return cellOf(value, fullWidth, sharedStyle(style));
    }
    entries++;
    byValue.set(key, (cell = Object.freeze({ type: 'char', value, fullWidth, styles: style }) as StyledChar));
  }
  return cell;
}

/** ansiCodesToString(style): what opens a row's first cell. */
function openOf(style: Codes): string {
  let s = opens.get(style);
  if (s === undefined) opens.set(style, (s = ansiCodesToString(style)));
  return s;
}

/** What closes a row's last cell. */
function closeOf(style: Codes): string {
  let s = closes.get(style);
  if (s === undefined) closes.set(style, (s = ansiCodesToString(diffAnsiCodes(style, []))));
  return s;
}

/** The codes between two neighbouring cells' styles. */
function stepOf(from: Codes, to: Codes): string {
  let byTo = steps.get(from);
  if (!byTo) steps.set(from, (byTo = new Map()));
  let s = byTo.get(to);
  if (s === undefined) {
    s = ansiCodesToString(diffAnsiCodes(from, to));
    // Pairs of styles could number the square of the styles (ANSI art in 4,000 colours): bounded too.
    if (++entries >= MAX_ENTRIES) forgetShared();
    else byTo.set(to, s);
  }
  return s;
}

const BLANK: StyledChar = cellOf(' ', false, EMPTY);

/** A bounded map: the oldest entries go first once it is full. */
class Lru<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly max: number) {}
  get(key: string): V | undefined {
    return this.map.get(key);
  }
  set(key: string, value: V): void {
    if (this.map.size >= this.max) this.map.delete(this.map.keys().next().value!);
    this.map.set(key, value);
  }
}

// Enough for a few live frames (a frame is at most a screen of lines): the scrollback's lines are each written once.
const styledLines = new Lru<StyledChar[]>(512);
const widths = new Lru<number>(2048);

/** styledCharsFromTokens(tokenize(line)), its cells and styles shared. */
function styledCharsOf(line: string, keep: boolean): StyledChar[] {
  let cached = styledLines.get(line);
  if (cached === undefined) {
    cached = [];
    let style = EMPTY;
    for (const token of asciiTokens(line) ?? tokenize(line)) {
      if (token.type === 'ansi') style = sharedStyle(reduceAnsiCodesIncremental(style, [token]));
      else cached.push(cellOf(token.value, token.fullWidth, style));
    }
    if (keep) styledLines.set(line, cached);
  }
  return cached;
}

/**
 * A grid taller than this is the scrollback's (<Static>) output, not a live frame (which is cut to
 * the screen): its lines are written once, and kept they would only churn the cache and the heap.
 */
const LIVE_FRAME_MAX_ROWS = 256;

const sgrTokens = new Lru<Token[]>(512);
const SGR = /\x1b\[[0-9;]*m/y;
/** The token of each ASCII character: the same object every time (tokens are only read). */
const ASCII_TOKENS: readonly Token[] = Array.from({ length: 0x80 }, (_, c) => Object.freeze({ type: 'char', value: String.fromCharCode(c), fullWidth: false }) as Token);

/**
 * tokenize() for a line of ASCII text and SGR codes, without its grapheme segmenter (most of its
 * time): in ASCII every character is a grapheme of its own and one column wide. Anything else
 * (other text, another escape) is left to tokenize().
 */
export function asciiTokens(line: string): Token[] | undefined {
  const tokens: Token[] = [];
  for (let i = 0; i < line.length; ) {
    const c = line.charCodeAt(i);
    if (c > 0x7f) return undefined;
    if (c !== 0x1b) {
      tokens.push(ASCII_TOKENS[c]!);
      i++;
      continue;
    }
    SGR.lastIndex = i;
    const code = SGR.exec(line)?.[0];
    if (!code) return undefined;
    let codes = sgrTokens.get(code);
    if (!codes) sgrTokens.set(code, (codes = tokenize(code)));
    tokens.push(...codes);
    i += code.length;
  }
  return tokens;
}

function widthOf(text: string): number {
  let cached = widths.get(text);
  if (cached === undefined) {
    cached = stringWidth(text);
    widths.set(text, cached);
  }
  return cached;
}

function widestLine(text: string): number {
  let width = 0;
  for (const line of text.split('\n')) width = Math.max(width, widthOf(line));
  return width;
}

const sameStyles = (a: Codes, b: Codes): boolean => {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]!.code !== b[i]!.code || a[i]!.endCode !== b[i]!.endCode) return false;
  return true;
};

/**
 * styledCharsToString over a row's cells (its holes, past the grid's width, skipped) without the
 * library's per-cell work where it writes nothing: between equal styles the difference is empty.
 */
function rowToString(row: readonly (StyledChar | undefined)[]): string {
  let out = '';
  let last: StyledChar | undefined;
  for (const cell of row) {
    if (cell === undefined) continue;
    if (last === undefined) out += openOf(cell.styles);
    else if (!sameStyles(last.styles, cell.styles)) out += stepOf(last.styles, cell.styles);
    out += cell.value;
    last = cell;
  }
  // What closes the last cell's styles, as the library ends every string.
  if (last !== undefined) out += closeOf(last.styles);
  return out;
}

export default class Output {
  width: number;
  height: number;
  operations: Operation[] = [];

  constructor(options: { width: number; height: number }) {
    this.width = options.width;
    this.height = options.height;
  }

  write(x: number, y: number, text: string, options: { transformers: Transformer[] }): void {
    if (!text) return;
    this.operations.push({ type: 'write', x, y, text, transformers: options.transformers });
  }

  clip(clip: Clip): void {
    this.operations.push({ type: 'clip', clip });
  }

  unclip(): void {
    this.operations.push({ type: 'unclip' });
  }

  get(): { output: string; height: number } {
    const rows: (StyledChar | undefined)[][] = [];
    const clips: Clip[] = [];
    const keep = this.height <= LIVE_FRAME_MAX_ROWS;
    for (const operation of this.operations) {
      if (operation.type === 'clip') clips.push(operation.clip);
      if (operation.type === 'unclip') clips.pop();
      if (operation.type !== 'write') continue;
      const { text, transformers } = operation;
      let { x, y } = operation;
      let lines = text.split('\n');
      const clip = clips.at(-1);
      if (clip) {
        const clipHorizontally = typeof clip.x1 === 'number' && typeof clip.x2 === 'number';
        const clipVertically = typeof clip.y1 === 'number' && typeof clip.y2 === 'number';
        if (clipHorizontally) {
          const width = widestLine(text);
          if (x + width < clip.x1! || x > clip.x2!) continue;
        }
        if (clipVertically && (y + lines.length < clip.y1! || y > clip.y2!)) continue;
        if (clipHorizontally) {
          lines = lines.map((line) => {
            const from = x < clip.x1! ? clip.x1! - x : 0;
            const width = widthOf(line);
            const to = x + width > clip.x2! ? clip.x2! - x : width;
            return sliceAnsi(line, from, to);
          });
          if (x < clip.x1!) x = clip.x1!;
        }
        if (clipVertically) {
          const from = y < clip.y1! ? clip.y1! - y : 0;
          const to = y + lines.length > clip.y2! ? clip.y2! - y : lines.length;
          lines = lines.slice(from, to);
          if (y < clip.y1!) y = clip.y1!;
        }
      }
      let offsetY = 0;
      for (let index = 0; index < lines.length; index++) {
        let line = lines[index]!;
        const rowIndex = y + offsetY;
        // Ink's grid has `height` rows: a write below them is dropped.
        if (rowIndex < 0 || rowIndex >= this.height) continue;
        const row = (rows[rowIndex] ??= []);
        for (const transformer of transformers) line = transformer(line, index);
        let offsetX = x;
        for (const character of styledCharsOf(line, keep)) {
          this.reach(row, offsetX);
          row[offsetX] = character;
          const characterWidth = Math.max(1, widthOf(character.value));
          for (let i = 1; i < characterWidth; i++) {
            this.reach(row, offsetX + i);
            row[offsetX + i] = cellOf('', false, character.styles);
          }
          offsetX += characterWidth;
        }
        offsetY++;
      }
    }
    const out: string[] = [];
    for (let y = 0; y < this.height; y++) {
      const row = rows[y];
      out.push(row ? rowToString(row).trimEnd() : '');
    }
    return { output: out.join('\n'), height: this.height };
  }

  /** Fills a row up to `x` as Ink's pre-filled grid would be: blanks inside the width, holes beyond it. */
  private reach(row: (StyledChar | undefined)[], x: number): void {
    for (let i = row.length; i < x; i++) row[i] = i < this.width ? BLANK : undefined;
  }
}
