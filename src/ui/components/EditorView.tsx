import { Box, Text } from 'ink';
import { useRef } from 'react';
import type { EditorState } from '../input/editor.js';
import { editorRows, windowStart } from '../input/editor-rows.js';

export interface EditorViewProps {
  state: EditorState;
  /** Shown before the first line; later lines are indented to match. */
  prompt?: string;
  promptColor?: string;
  placeholder?: string;
  /** Draw the cursor (an inverse cell). */
  focus?: boolean;
  /** Columns the editor may use (prompt included); without it lines wrap as the terminal does. */
  width?: number;
  /**
   * Rows the editor may take. A longer text shows a window around the cursor with `↑ N more` /
   * `↓ N more` marks: the live area must never outgrow the screen, or Ink clears the terminal.
   */
  maxRows?: number;
}

/** A text being edited, with its cursor: every row, or a window of `maxRows` rows around the cursor. */
export function EditorView({ state, prompt = '', promptColor, placeholder, focus = true, width, maxRows }: EditorViewProps) {
  const indent = ' '.repeat([...prompt].length);
  const top = useRef(Number.POSITIVE_INFINITY);
  if (!state.text && placeholder) {
    return (
      <Text>
        <Text color={promptColor}>{prompt}</Text>
        {focus ? <Text inverse>{placeholder[0]}</Text> : null}
        <Text dimColor>{focus ? placeholder.slice(1) : placeholder}</Text>
      </Text>
    );
  }
  const { rows, cursorRow } = editorRows(state.text, state.cursor, width ? Math.max(2, width - indent.length) : Number.MAX_SAFE_INTEGER);
  const limit = Math.max(1, maxRows ?? rows.length);
  // The `↑`/`↓` marks take a row each, only when there is something above or below.
  let size = Math.min(limit, rows.length);
  let from = windowStart(rows.length, cursorRow, size, top.current);
  for (let i = 0; i < 4; i++) {
    const marks = (from > 0 ? 1 : 0) + (from + size < rows.length ? 1 : 0);
    const fit = Math.max(1, Math.min(rows.length, limit - marks));
    if (fit >= size) break;
    size = fit;
    from = windowStart(rows.length, cursorRow, size, top.current);
  }
  top.current = from;
  const shown = rows.slice(from, from + size);
  const above = from;
  const below = rows.length - from - shown.length;
  return (
    <Box flexDirection="column">
      {above > 0 ? <Text dimColor>{`${indent}↑ ${above} more ${above === 1 ? 'row' : 'rows'}`}</Text> : null}
      {shown.map((row, i) => {
        const r = from + i;
        const lead = row.firstOfLine && row.start === 0 ? <Text color={promptColor}>{prompt}</Text> : indent;
        if (!focus || r !== cursorRow) return <Text key={r} wrap="truncate-end">{lead}{row.text || ' '}</Text>;
        const at = state.cursor - row.start;
        const under = [...row.text.slice(at)][0];
        return (
          <Text key={r} wrap="truncate-end">
            {lead}
            {row.text.slice(0, at)}
            <Text inverse>{under ?? ' '}</Text>
            {under ? row.text.slice(at + under.length) : ''}
          </Text>
        );
      })}
      {below > 0 ? <Text dimColor>{`${indent}↓ ${below} more ${below === 1 ? 'row' : 'rows'}`}</Text> : null}
    </Box>
  );
}
