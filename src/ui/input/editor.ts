/** A text being edited and the cursor in it (a UTF-16 index on a code point boundary). */
export interface EditorState {
  text: string;
  cursor: number;
}

export const emptyEditor: EditorState = { text: '', cursor: 0 };

export const editorAt = (text: string): EditorState => ({ text, cursor: text.length });

const isLowSurrogate = (c: number) => c >= 0xdc00 && c <= 0xdfff;

function prevIndex(text: string, i: number): number {
  if (i <= 0) return 0;
  return i >= 2 && isLowSurrogate(text.charCodeAt(i - 1)) ? i - 2 : i - 1;
}

function nextIndex(text: string, i: number): number {
  if (i >= text.length) return text.length;
  return isLowSurrogate(text.charCodeAt(i + 1)) ? i + 2 : i + 1;
}

export function insert(s: EditorState, str: string): EditorState {
  return { text: s.text.slice(0, s.cursor) + str + s.text.slice(s.cursor), cursor: s.cursor + str.length };
}

export function backspace(s: EditorState): EditorState {
  if (s.cursor === 0) return s;
  const i = prevIndex(s.text, s.cursor);
  return { text: s.text.slice(0, i) + s.text.slice(s.cursor), cursor: i };
}

/** Deletes `count` UTF-16 units before the cursor (an atomic token such as a paste placeholder). */
/** Delete (the forward one): removes the character after the cursor. */
export function deleteForward(s: EditorState): EditorState {
  if (s.cursor >= s.text.length) return s;
  return { text: s.text.slice(0, s.cursor) + s.text.slice(nextIndex(s.text, s.cursor)), cursor: s.cursor };
}

export function deleteBefore(s: EditorState, count: number): EditorState {
  const i = Math.max(0, s.cursor - count);
  return { text: s.text.slice(0, i) + s.text.slice(s.cursor), cursor: i };
}

export const left = (s: EditorState): EditorState => ({ ...s, cursor: prevIndex(s.text, s.cursor) });
export const right = (s: EditorState): EditorState => ({ ...s, cursor: nextIndex(s.text, s.cursor) });

function lineStart(s: EditorState): number {
  return s.text.lastIndexOf('\n', s.cursor - 1) + 1;
}

function lineEnd(s: EditorState): number {
  const i = s.text.indexOf('\n', s.cursor);
  return i === -1 ? s.text.length : i;
}

export const home = (s: EditorState): EditorState => ({ ...s, cursor: lineStart(s) });
export const end = (s: EditorState): EditorState => ({ ...s, cursor: lineEnd(s) });

export function deleteToLineStart(s: EditorState): EditorState {
  const i = lineStart(s);
  return { text: s.text.slice(0, i) + s.text.slice(s.cursor), cursor: i };
}

export function deleteToLineEnd(s: EditorState): EditorState {
  return { text: s.text.slice(0, s.cursor) + s.text.slice(lineEnd(s)), cursor: s.cursor };
}

export function deleteWordBefore(s: EditorState): EditorState {
  const before = s.text.slice(0, s.cursor);
  const i = before.replace(/\S+\s*$/, '').length;
  const start = i === before.length ? before.replace(/\s+$/, '').length : i;
  return { text: s.text.slice(0, start) + s.text.slice(s.cursor), cursor: start };
}

/** The start of the word before the cursor (skipping the spaces before it), as Alt-←/Ctrl-← move. */
function wordStartBefore(s: EditorState): number {
  const before = s.text.slice(0, s.cursor);
  const m = /[^\s]+\s*$/.exec(before);
  return m ? m.index : 0;
}

/** The end of the word after the cursor (skipping the spaces before it), as Alt-→/Ctrl-→ move. */
function wordEndAfter(s: EditorState): number {
  const m = /^\s*[^\s]+/.exec(s.text.slice(s.cursor));
  return m ? s.cursor + m[0].length : s.text.length;
}

export const wordLeft = (s: EditorState): EditorState => ({ ...s, cursor: wordStartBefore(s) });
export const wordRight = (s: EditorState): EditorState => ({ ...s, cursor: wordEndAfter(s) });

/** Alt-D: deletes from the cursor to the end of the next word. */
export function deleteWordAfter(s: EditorState): EditorState {
  return { text: s.text.slice(0, s.cursor) + s.text.slice(wordEndAfter(s)), cursor: s.cursor };
}

export const isOnFirstLine = (s: EditorState) => !s.text.slice(0, s.cursor).includes('\n');
export const isOnLastLine = (s: EditorState) => !s.text.slice(s.cursor).includes('\n');

/** Moves to the previous or next line, keeping the column where the line is long enough. */
export function verticalMove(s: EditorState, dir: -1 | 1): EditorState {
  if (dir === -1 ? isOnFirstLine(s) : isOnLastLine(s)) return s;
  const start = lineStart(s);
  const column = s.cursor - start;
  if (dir === -1) {
    const prevStart = s.text.lastIndexOf('\n', start - 2) + 1;
    return { ...s, cursor: Math.min(prevStart + column, start - 1) };
  }
  const nextStart = lineEnd(s) + 1;
  const nextEnd = s.text.indexOf('\n', nextStart);
  return { ...s, cursor: Math.min(nextStart + column, nextEnd === -1 ? s.text.length : nextEnd) };
}
