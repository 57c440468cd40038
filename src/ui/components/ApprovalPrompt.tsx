import { Box, Text } from 'ink';
import { useState } from 'react';
import { KeyHints, PromptFrame } from './PromptFrame.js';
import { useKeys } from '../hooks/use-keys.js';
import { useMode } from '../hooks/use-mode.js';
import { useTextField } from '../hooks/use-text-field.js';
import { EditorView } from './EditorView.js';

export type ApprovalChoice =
  | { approved: true }
  /** Approve, and approve this tool without asking for the rest of the session. */
  | { approved: true; always: true }
  | { approved: true; arguments: unknown }
  | { approved: false; reason?: string };

export interface ApprovalPromptProps {
  agent?: string;
  tool: string;
  arguments: unknown;
  message?: string;
  width: number;
  counter?: string;
  /** Argument lines shown before the rest is folded. */
  maxArgLines?: number;
  onDecision: (choice: ApprovalChoice) => void;
}

export function prettyArgs(args: unknown): string {
  if (typeof args === 'string') {
    try {
      return JSON.stringify(JSON.parse(args), null, 2);
    } catch {
      return args;
    }
  }
  return JSON.stringify(args ?? {}, null, 2) ?? String(args);
}

/**
 * A tool call waiting for approval: `y` once, `a` for the rest of the session, `n` reject (then an
 * optional reason), `e` edit the arguments as JSON.
 */
export function ApprovalPrompt({ agent, tool, arguments: args, message, width, counter, maxArgLines = 12, onDecision }: ApprovalPromptProps) {
  const [mode, setMode, currentMode] = useMode<'menu' | 'reason' | 'edit'>('menu');
  const [error, setError] = useState<string>();
  const pretty = prettyArgs(args);
  const lines = pretty.split('\n');
  const shown = lines.slice(0, maxArgLines);

  const reason = useTextField({
    onSubmit: (text) => onDecision(text.trim() ? { approved: false, reason: text.trim() } : { approved: false }),
    onCancel: () => setMode('menu'),
  });
  const edit = useTextField({
    initialValue: pretty,
    onChange: () => setError(undefined),
    onSubmit: (text) => {
      try {
        onDecision({ approved: true, arguments: JSON.parse(text) });
      } catch (e) {
        setError(`invalid JSON: ${(e as Error).message}`);
      }
    },
    onCancel: () => {
      setError(undefined);
      setMode('menu');
    },
  });

  // One listener for every mode: the menu's hotkeys, or the field being typed in.
  useKeys((input, key) => {
    if (currentMode() === 'reason') return reason.onKey(input, key);
    if (currentMode() === 'edit') return edit.onKey(input, key);
    if (key.ctrl || key.meta) return;
    const k = input.toLowerCase();
    if (k === 'y') onDecision({ approved: true });
    else if (k === 'a') onDecision({ approved: true, always: true });
    else if (k === 'n') setMode('reason');
    else if (k === 'e') setMode('edit');
  });

  return (
    <PromptFrame agent={agent} title={`wants to run ${tool}`} color="yellow" width={width} counter={counter}>
      {message && message !== `Allow ${tool}?` ? <Text>{message}</Text> : null}
      {mode !== 'edit' ? (
        <Box flexDirection="column" marginY={1}>
          <Text dimColor>{shown.join('\n')}</Text>
          {lines.length > shown.length ? <Text dimColor>{`… +${lines.length - shown.length} lines`}</Text> : null}
        </Box>
      ) : null}
      {mode === 'menu' ? (
        <KeyHints hints={[['y', 'approve once'], ['a', `always allow ${tool}`], ['n', 'reject'], ['e', 'edit args']]} />
      ) : null}
      {mode === 'reason' ? (
        <Box flexDirection="column">
          <Text dimColor>Why not? (optional; Enter rejects, Esc goes back)</Text>
          <EditorView state={reason.state} prompt="reason › " promptColor="yellow" />
        </Box>
      ) : null}
      {mode === 'edit' ? (
        <Box flexDirection="column" marginTop={1}>
          <Text dimColor>Edit the arguments (JSON). Enter approves, Ctrl-J adds a line, Esc goes back.</Text>
          <EditorView state={edit.state} />
          {error ? <Text color="red">{error}</Text> : null}
        </Box>
      ) : null}
    </PromptFrame>
  );
}
