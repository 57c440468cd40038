import type { Key } from 'ink';

/** Ctrl+letter bytes and DEL; not Tab, LF, CR or ESC (Ink already splits escape sequences). */
const CONTROL = /[\x01-\x08\x0b\x0c\x0e-\x1a\x7f]/;

const NO_KEY: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
};

/** One piece of a chunk as Ink would have reported it had it arrived alone. */
function keyOf(piece: string): [string, Key] {
  if (piece.length > 1) return [piece, NO_KEY];
  if (piece === '\r') return ['', { ...NO_KEY, return: true }];
  if (piece === '\t') return ['', { ...NO_KEY, tab: true }];
  if (piece === '\b') return ['', { ...NO_KEY, backspace: true }];
  if (piece === '\x7f') return ['', { ...NO_KEY, delete: true }];
  const code = piece.charCodeAt(0);
  if (CONTROL.test(piece)) return [String.fromCharCode(code + 96), { ...NO_KEY, ctrl: true }];
  return [piece, { ...NO_KEY, shift: /[A-Z]/.test(piece) }];
}

/**
 * Ink hands over a chunk of stdin as one input unless it holds escape sequences, so keys pressed
 * quickly on a busy machine (Ctrl-C Ctrl-C, text then Ctrl-C) arrive as one string of raw control
 * bytes. This splits such a chunk into the keys it holds; text runs stay whole (a paste).
 */
export function splitControlKeys(input: string, key: Key): Array<[string, Key]> {
  if (key.ctrl || key.meta) return [[input, key]];
  if (input.length < 2 || !CONTROL.test(input)) return textThenEnter(input) ?? [[input, key]];
  const keys: Array<[string, Key]> = [];
  let text = '';
  for (const ch of input) {
    if (!CONTROL.test(ch)) {
      text += ch;
      continue;
    }
    if (text) keys.push(keyOf(text));
    text = '';
    keys.push(keyOf(ch));
  }
  if (text) keys.push(...(textThenEnter(text) ?? [keyOf(text)]));
  return keys;
}

/** Typed text and Enter (or Tab) in one chunk: the key still submits (or completes); a multi-line chunk stays a paste. */
function textThenEnter(text: string): Array<[string, Key]> | undefined {
  return /^[^\r\n\t\x00-\x1f\x7f]+[\r\t]$/.test(text) ? [keyOf(text.slice(0, -1)), keyOf(text.slice(-1))] : undefined;
}
