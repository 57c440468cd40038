import { Box, Text } from 'ink';
import { editorRows } from '../input/editor-rows.js';
import { sanitizeText } from '../text/sanitize.js';
import { KeyHints, PromptFrame } from './PromptFrame.js';
import { useKeys } from '../hooks/use-keys.js';
import { useMode } from '../hooks/use-mode.js';
import { useTextField } from '../hooks/use-text-field.js';
import { useScrollWindow } from '../hooks/use-scroll-window.js';
import { EditorView } from './EditorView.js';

export type PlanDecision = { accept: true } | { accept: false; feedback: string };

export interface PlanReviewPromptProps {
  agent?: string;
  message?: string;
  plan: readonly string[];
  width: number;
  counter?: string;
  /** Rows the steps may take; a longer plan scrolls with ↑/↓. */
  maxRows?: number;
  onDecision: (decision: PlanDecision) => void;
  /** Plan mode's review: `c` accepts and clears the context first (the plan stays as the first message). */
  onAcceptClear?: () => void;
  /** Plan mode's review: Esc (or `k`) keeps planning. */
  onKeepPlanning?: () => void;
  /** The plan is one text (a plan mode answer), not a list of steps: its lines are shown as they are. */
  text?: boolean;
}

/** The plan as rows: `n. ` before each step's first row, its wrapped rest indented to match. */
export function planRows(plan: readonly string[], width: number, text = false): string[] {
  if (text) return plan.flatMap((line) => editorRows(sanitizeText(line), 0, Math.max(10, width - 4)).rows.map((r) => r.text));
  const numberWidth = String(plan.length).length;
  const indent = ' '.repeat(numberWidth + 2);
  return plan.flatMap((step, i) =>
    editorRows(sanitizeText(step).replace(/\s*\n\s*/g, ' '), 0, Math.max(10, width - 4 - indent.length)).rows.map((r, j) => (j === 0 ? `${String(i + 1).padStart(numberWidth)}. ` : indent) + r.text),
  );
}

/** A proposed plan: Enter or `y` accepts it; `f` asks for changes in words. */
export function PlanReviewPrompt({ agent, message, plan, width, counter, maxRows = 12, onDecision, onAcceptClear, onKeepPlanning, text }: PlanReviewPromptProps) {
  const [mode, setMode, currentMode] = useMode<'menu' | 'feedback'>('menu');
  const rows = planRows(plan, width, text);
  const page = Math.max(1, maxRows);
  const { top, scrollKey } = useScrollWindow(rows.length, page);
  const feedback = useTextField({
    onSubmit: (text) => {
      if (text.trim()) return onDecision({ accept: false, feedback: text.trim() });
      setMode('menu');
    },
    onCancel: () => setMode('menu'),
  });
  useKeys((input, key) => {
    if (currentMode() === 'feedback') return feedback.onKey(input, key);
    if (onKeepPlanning && (key.escape || input.toLowerCase() === 'k')) return onKeepPlanning();
    if (key.ctrl || key.meta) return;
    if (onAcceptClear && input.toLowerCase() === 'c') return onAcceptClear();
    if (scrollKey(key)) return;
    if (key.return || input.toLowerCase() === 'y') onDecision({ accept: true });
    else if (input.toLowerCase() === 'f') setMode('feedback');
  });
  return (
    <PromptFrame agent={agent} title="proposes a plan" color="magenta" width={width} counter={counter}>
      {message ? <Text>{message}</Text> : null}
      <Box flexDirection="column" marginY={1}>
        {rows.slice(top, top + page).map((row, i) => (
          <Text key={top + i} wrap="truncate-end">
            {row}
          </Text>
        ))}
        {rows.length > page ? <Text color="magenta">{`rows ${top + 1}–${Math.min(rows.length, top + page)} of ${rows.length} · ↑/↓ to read the rest`}</Text> : null}
      </Box>
      {mode === 'menu' ? (
        <KeyHints
          hints={[
            ['y/Enter', onAcceptClear ? 'accept and go on' : 'accept'],
            ...(onAcceptClear ? ([['c', 'accept and clear the context first']] as Array<[string, string]>) : []),
            ['f', 'give feedback'],
            ...(onKeepPlanning ? ([['Esc/k', 'keep planning']] as Array<[string, string]>) : []),
          ]}
        />
      ) : null}
      {mode === 'feedback' ? (
        <Box flexDirection="column">
          <Text dimColor>What should change? (Enter sends, Esc goes back)</Text>
          <EditorView state={feedback.state} prompt="feedback › " promptColor="magenta" width={width - 4} maxRows={3} />
        </Box>
      ) : null}
    </PromptFrame>
  );
}
