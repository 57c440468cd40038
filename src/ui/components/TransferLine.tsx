import { Text } from 'ink';
import { AgentName } from './AgentName.js';

/** `↳ lead → researcher`: one agent handing the conversation to another. */
export function TransferLine({ from, to }: { from: string; to: string }) {
  return (
    <Text>
      <Text dimColor>↳ </Text>
      <AgentName name={from} bold={false} />
      <Text dimColor> → </Text>
      <AgentName name={to} />
    </Text>
  );
}
