import { Text } from 'ink';
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
  return (
    <Text color="red">
      {'✗ '}
      {agent ? (
        <>
          <AgentName name={agent} bold={false} />
          {': '}
        </>
      ) : null}
      {text}
    </Text>
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
