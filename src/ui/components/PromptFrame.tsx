import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import { AgentName } from './AgentName.js';

export interface PromptFrameProps {
  agent?: string;
  title: string;
  color: string;
  width: number;
  /** `1/3` when several interrupts wait at once. */
  counter?: string;
  children: ReactNode;
}

/** The box every inline prompt sits in: who asks, what kind of question, then the question. */
export function PromptFrame({ agent, title, color, width, counter, children }: PromptFrameProps) {
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={color} paddingX={1} width={width}>
      <Text>
        {agent ? <AgentName name={agent} /> : null}
        {agent ? ' ' : ''}
        <Text color={color} bold>
          {title}
        </Text>
        {counter ? <Text dimColor>{`  ${counter}`}</Text> : null}
      </Text>
      {children}
    </Box>
  );
}

/** `[y] approve` style key hints; they wrap as whole hints on narrow terminals. */
export function KeyHints({ hints }: { hints: Array<[string, string]> }) {
  return (
    <Box flexDirection="row" flexWrap="wrap" columnGap={2}>
      {hints.map(([key, label]) => (
        <Text key={key}>
          <Text bold color="cyan">{`[${key}]`}</Text> {label}
        </Text>
      ))}
    </Box>
  );
}
