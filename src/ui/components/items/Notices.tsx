import { Box, Text } from 'ink';
import { AgentName } from '../AgentName.js';

export function RetryNotice({ agent, attempt, delayMs, error }: { agent: string; attempt: number; delayMs: number; error: string }) {
  return (
    <Text color="yellow">
      {'↻ '}
      {agent ? (
        <>
          <AgentName name={agent} bold={false} />
          {': '}
        </>
      ) : null}
      {`retrying in ${(delayMs / 1000).toFixed(1)}s (attempt ${attempt} failed): ${error}`}
    </Text>
  );
}

export function ErrorNotice({ agent, text }: { agent?: string; text: string }) {
  // The mark in a column of its own: a long error wraps under its text, not at column 0.
  return (
    <Box flexDirection="row">
      <Text color="red">{'✗ '}</Text>
      <Box flexShrink={1}>
        <Text color="red">
          {agent ? (
            <>
              <AgentName name={agent} bold={false} />
              {': '}
            </>
          ) : null}
          {text}
        </Text>
      </Box>
    </Box>
  );
}

const TONE_COLOR = { info: undefined, warning: 'yellow', success: 'green', muted: undefined } as const;

export function InfoNotice({ text, tone = 'info' }: { text: string; tone?: 'info' | 'warning' | 'success' | 'muted' }) {
  return (
    <Text color={TONE_COLOR[tone]} dimColor={tone === 'muted'}>
      {text}
    </Text>
  );
}
