import { charWidth } from './width.js';

/** A line break: the space at `at` becomes a newline, or (`insert`) a newline goes before `at`. */
export interface LineBreak {
  at: number;
  insert: boolean;
}

/**
 * Where plain text breaks when word-wrapped at `width` columns: at the last space that fits, or
 * inside a word longer than a line. Existing newlines are kept. (Ink wraps text wider than its box
 * itself, but its wrapper is slow; text that already fits is taken as it is.)
 */
export function lineBreaks(text: string, width: number): LineBreak[] {
  const breaks: LineBreak[] = [];
  const max = Math.max(1, Math.floor(width));
  let col = 0;
  let space = -1; // the last space after a word on this line: where the line breaks when it is full
  let afterSpace = 0; // columns after that space
  let word = false; // this line has a word yet
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    const size = cp > 0xffff ? 2 : 1;
    if (cp === 10) {
      col = 0;
      space = -1;
      word = false;
    } else if (cp === 32) {
      if (col + 1 > max) {
        breaks.push({ at: i, insert: false });
        col = 0;
        space = -1;
        word = false;
      } else {
        col += 1;
        if (word) {
          space = i;
          afterSpace = 0;
        }
      }
    } else {
      const w = charWidth(cp);
      if (col + w > max && space >= 0) {
        breaks.push({ at: space, insert: false });
        col = afterSpace;
        space = -1;
      }
      if (col + w > max && col > 0) {
        breaks.push({ at: i, insert: true });
        col = 0;
        space = -1;
      }
      col += w;
      afterSpace += w;
      word = true;
    }
    i += size;
  }
  return breaks;
}

/**
 * Applies breaks found in the concatenation of `parts` to the parts themselves, one at a time and
 * in order (styled pieces of one paragraph): returns a function from each part to its wrapped form.
 */
export function breakParts(breaks: readonly LineBreak[]): (part: string) => string {
  let offset = 0;
  let next = 0;
  return (part) => {
    const end = offset + part.length;
    if (next >= breaks.length || breaks[next].at >= end) {
      offset = end;
      return part;
    }
    let out = '';
    let from = 0;
    while (next < breaks.length && breaks[next].at < end) {
      const b = breaks[next++];
      const local = b.at - offset;
      out += part.slice(from, local) + '\n';
      from = b.insert ? local : local + 1;
    }
    offset = end;
    return out + part.slice(from);
  };
}
