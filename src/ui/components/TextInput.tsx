import { useKeys } from '../hooks/use-keys.js';
import { useTextField } from '../hooks/use-text-field.js';
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

/** A text field that listens to the keyboard itself: Enter submits, Ctrl-J or `\`+Enter adds a line, Esc cancels. */
export function TextInput({ initialValue, prompt = '› ', promptColor, placeholder, onSubmit, onCancel, onChange, isActive = true }: TextInputProps) {
  const field = useTextField({ initialValue, onSubmit, onCancel, onChange });
  useKeys(field.onKey, { isActive });
  return <EditorView state={field.state} prompt={prompt} promptColor={promptColor} placeholder={placeholder} focus={isActive} />;
}
