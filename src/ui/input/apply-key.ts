import * as ed from './editor.js';
import type { AdkKey } from './key.js';

/** Line endings from a terminal or a paste, as the editor keeps them. */
export const normalizeNewlines = (text: string) => text.replace(/\r\n?/g, '\n');

/**
 * The editing keys every text field shares: printable text, cursor moves and deletions.
 * Returns undefined for keys the field decides itself (Enter, Tab, Esc, ↑/↓, Ctrl combinations).
 */
export function applyEditKey(s: ed.EditorState, input: string, key: AdkKey): ed.EditorState | undefined {
  // Word motion: Ctrl-/Alt-arrows, and Alt-B / Alt-F as readline has them (Ink marks Alt as meta).
  if (key.leftArrow) return key.ctrl || key.meta ? ed.wordLeft(s) : ed.left(s);
  if (key.rightArrow) return key.ctrl || key.meta ? ed.wordRight(s) : ed.right(s);
  if (key.meta && input === 'b') return ed.wordLeft(s);
  if (key.meta && input === 'f') return ed.wordRight(s);
  if (key.meta && input === 'd') return ed.deleteWordAfter(s);
  if (key.meta && (key.backspace || key.delete)) return ed.deleteWordBefore(s);
  if (key.home || (key.ctrl && input === 'a')) return ed.home(s);
  if (key.end || (key.ctrl && input === 'e')) return ed.end(s);
  if (key.forwardDelete) return ed.deleteForward(s);
  // Most terminals send DEL (0x7f) for Backspace, which Ink reports as `delete`.
  if (key.backspace || key.delete) return ed.backspace(s);
  if (key.ctrl && input === 'u') return ed.deleteToLineStart(s);
  if (key.ctrl && input === 'k') return ed.deleteToLineEnd(s);
  if (key.ctrl && input === 'w') return ed.deleteWordBefore(s);
  if (key.ctrl || key.meta || key.return || key.tab || key.escape || key.upArrow || key.downArrow) return undefined;
  if (key.pageUp || key.pageDown || !input || input === '\n') return undefined;
  return ed.insert(s, normalizeNewlines(input));
}
