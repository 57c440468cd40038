import type { Key } from 'ink';
import { useCallback, useRef, useState } from 'react';
import { applyEditKey } from '../input/apply-key.js';
import { backspace, editorAt, insert, verticalMove, type EditorState } from '../input/editor.js';

export interface TextFieldOptions {
  initialValue?: string;
  /** Enter. */
  onSubmit: (text: string) => void;
  /** Esc. */
  onCancel?: () => void;
  onChange?: (text: string) => void;
}

export interface TextField {
  state: EditorState;
  /** Handles one key; the owner of the keyboard routes keys here while the field is in use. */
  onKey: (input: string, key: Key) => void;
  reset: (text?: string) => void;
}

/**
 * An editable text: Enter submits, `\`+Enter, Alt+Enter or Ctrl-J add a line, Esc cancels.
 * It does not listen to the keyboard itself, so a prompt with several modes keeps one listener.
 */
export function useTextField(o: TextFieldOptions): TextField {
  const [state, setState] = useState<EditorState>(() => editorAt(o.initialValue ?? ''));
  // Several keys of one stdin chunk arrive before a re-render: always edit the latest text.
  const current = useRef(state);
  const opts = useRef(o);
  opts.current = o;

  const update = useCallback((next: EditorState) => {
    const changed = next.text !== current.current.text;
    current.current = next;
    setState(next);
    if (changed) opts.current.onChange?.(next.text);
  }, []);

  const onKey = useCallback(
    (input: string, key: Key) => {
      const s = current.current;
      if (key.escape) return opts.current.onCancel?.();
      if (key.return) {
        if (s.text.slice(0, s.cursor).endsWith('\\')) return update(insert(backspace(s), '\n'));
        if (key.meta) return update(insert(s, '\n'));
        return opts.current.onSubmit(s.text);
      }
      if (input === '\n' && !key.ctrl) return update(insert(s, '\n'));
      // ↑/↓ move between the lines of a multi-line text (the JSON of edited arguments).
      if (key.upArrow || key.downArrow) return update(verticalMove(s, key.upArrow ? -1 : 1));
      const next = applyEditKey(s, input, key);
      if (next) update(next);
    },
    [update],
  );

  const reset = useCallback((text = '') => update(editorAt(text)), [update]);
  return { state, onKey, reset };
}
