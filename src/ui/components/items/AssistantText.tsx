import { Box, Text } from 'ink';
import { agentColor } from '../../theme/agent-color.js';
import { AgentName } from '../AgentName.js';
import { Markdown } from '../Markdown.js';

export interface AssistantTextProps {
  agent: string;
  text: string;
  width: number;
  /** The first piece of a message names its agent; later pieces continue under it. */
  showHeader: boolean;
}

/** An agent's reply (or a piece of it), as markdown under `● agent`. */
export function AssistantText({ agent, text, width, showHeader }: AssistantTextProps) {
  return (
    <Box flexDirection="column">
      {showHeader ? (
        <Text>
          <Text color={agentColor(agent)}>● </Text>
          <AgentName name={agent} />
        </Text>
      ) : null}
      <Box paddingLeft={2}>
        <Markdown text={text} width={Math.max(10, width - 2)} />
      </Box>
    </Box>
  );
}
