import { Box, Text, useInput } from 'ink';
import { useState } from 'react';
import { KeyHints, PromptFrame } from './PromptFrame.js';
import { TextInput } from './TextInput.js';

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
  const [mode, setMode] = useState<'menu' | 'feedback'>('menu');
  const numberWidth = String(plan.length).length;
  useInput(
    (input, key) => {
      // Stays subscribed in every mode (toggling would drop raw mode for an instant); only the menu reacts.
      if (mode !== 'menu' || key.ctrl || key.meta) return;
      if (key.return || input.toLowerCase() === 'y') onDecision({ accept: true });
      else if (input.toLowerCase() === 'f') setMode('feedback');
    },
  );
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
          <TextInput
            prompt="feedback › "
            promptColor="magenta"
            onSubmit={(text) => (text.trim() ? onDecision({ accept: false, feedback: text.trim() }) : setMode('menu'))}
            onCancel={() => setMode('menu')}
          />
        </Box>
      ) : null}
    </PromptFrame>
  );
}
