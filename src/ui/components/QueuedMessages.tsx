import { Box, Text } from 'ink';
import { sanitizeText } from '../text/sanitize.js';

/** Queued messages shown at most; the rest are counted. */
const MAX_SHOWN = 3;

/** Rows the list takes for `count` queued messages. */
export function queuedRows(count: number): number {
  return count ? Math.min(count, MAX_SHOWN) + (count > MAX_SHOWN ? 1 : 0) : 0;
}

/** Messages entered while the run works, one line each: they are sent when the turn ends. */
export function QueuedMessages({ messages, width }: { messages: readonly string[]; width: number }) {
  const shown = messages.slice(-MAX_SHOWN);
  return (
    <Box flexDirection="column" width={width}>
      {messages.length > shown.length ? <Text dimColor>{`  … ${messages.length - shown.length} more queued`}</Text> : null}
      {shown.map((m, i) => (
        <Text key={i} dimColor wrap="truncate-end">
          {`⧗ queued${i === shown.length - 1 ? ' (Esc edits)' : ''}: ${sanitizeText(m).replace(/\s+/g, ' ')}`}
        </Text>
      ))}
    </Box>
  );
}
