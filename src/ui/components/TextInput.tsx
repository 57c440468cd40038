import { useInput } from 'ink';
import { useRef, useState } from 'react';
import { applyEditKey } from '../input/apply-key.js';
import { editorAt, insert, type EditorState } from '../input/editor.js';
import { EditorView } from './EditorView.js';

export interface TextInputProps {
  initialValue?: string;
  prompt?: string;
  promptColor?: string;
  placeholder?: string;
  /** Enter. */
  onSubmit: (text: string) => void;
  /** Esc. */
  onCancel?: () => void;
  onChange?: (text: string) => void;
  isActive?: boolean;
}

/** A small editable field for prompts: Enter submits, Ctrl-J or `\`+Enter adds a line, Esc cancels. */
export function TextInput({ initialValue = '', prompt = '› ', promptColor, placeholder, onSubmit, onCancel, onChange, isActive = true }: TextInputProps) {
  const [state, setState] = useState<EditorState>(() => editorAt(initialValue));
  // Several keys can arrive in one stdin chunk, before a re-render: read the latest state here.
  const current = useRef(state);
  const update = (next: EditorState) => {
    const changed = next.text !== current.current.text;
    current.current = next;
    setState(next);
    if (changed) onChange?.(next.text);
  };
  useInput(
    (input, key) => {
      const state = current.current;
      if (key.escape) return onCancel?.();
      if (key.return) {
        if (state.text.slice(0, state.cursor).endsWith('\\')) {
          return update(insert({ text: state.text.slice(0, state.cursor - 1) + state.text.slice(state.cursor), cursor: state.cursor - 1 }, '\n'));
        }
        if (key.meta) return update(insert(state, '\n'));
        return onSubmit(state.text);
      }
      if (input === '\n' && !key.ctrl) return update(insert(state, '\n'));
      const next = applyEditKey(state, input, key);
      if (next) update(next);
    },
    { isActive },
  );
  return <EditorView state={state} prompt={prompt} promptColor={promptColor} placeholder={placeholder} focus={isActive} />;
}
