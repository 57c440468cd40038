import { Text } from 'ink';
import { agentColor } from '../theme/agent-color.js';

/** An agent's name in its own colour (the same colour wherever it appears). */
export function AgentName({ name, bold = true, dim = false }: { name: string; bold?: boolean; dim?: boolean }) {
  return (
    <Text color={agentColor(name)} bold={bold} dimColor={dim}>
      {name}
    </Text>
  );
}
