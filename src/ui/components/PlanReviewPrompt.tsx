import { Box, Text } from 'ink';
import { KeyHints, PromptFrame } from './PromptFrame.js';
import { useKeys } from '../hooks/use-keys.js';
import { useMode } from '../hooks/use-mode.js';
import { useTextField } from '../hooks/use-text-field.js';
import { EditorView } from './EditorView.js';

export type PlanDecision = { accept: true } | { accept: false; feedback: string };

export interface PlanReviewPromptProps {
  agent?: string;
  message?: string;
  plan: readonly string[];
  width: number;
  counter?: string;
  onDecision: (decision: PlanDecision) => void;
}

/** A proposed plan: Enter or `y` accepts it; `f` asks for changes in words. */
export function PlanReviewPrompt({ agent, message, plan, width, counter, onDecision }: PlanReviewPromptProps) {
  const [mode, setMode, currentMode] = useMode<'menu' | 'feedback'>('menu');
  const numberWidth = String(plan.length).length;
  const feedback = useTextField({
    onSubmit: (text) => {
      if (text.trim()) return onDecision({ accept: false, feedback: text.trim() });
      setMode('menu');
    },
    onCancel: () => setMode('menu'),
  });
  useKeys((input, key) => {
    if (currentMode() === 'feedback') return feedback.onKey(input, key);
    if (key.ctrl || key.meta) return;
    if (key.return || input.toLowerCase() === 'y') onDecision({ accept: true });
    else if (input.toLowerCase() === 'f') setMode('feedback');
  });
  return (
    <PromptFrame agent={agent} title="proposes a plan" color="magenta" width={width} counter={counter}>
      {message ? <Text>{message}</Text> : null}
      <Box flexDirection="column" marginY={1}>
        {plan.map((step, i) => (
          <Box key={i} flexDirection="row">
            <Box width={numberWidth + 2} flexShrink={0}>
              <Text dimColor>{`${String(i + 1).padStart(numberWidth)}.`}</Text>
            </Box>
            <Text>{step}</Text>
          </Box>
        ))}
      </Box>
      {mode === 'menu' ? <KeyHints hints={[['y/Enter', 'accept'], ['f', 'give feedback']]} /> : null}
      {mode === 'feedback' ? (
        <Box flexDirection="column">
          <Text dimColor>What should change? (Enter sends, Esc goes back)</Text>
          <EditorView state={feedback.state} prompt="feedback › " promptColor="magenta" />
        </Box>
      ) : null}
    </PromptFrame>
  );
}
