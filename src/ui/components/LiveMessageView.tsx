import { Box, Text } from 'ink';
import { memo } from 'react';
import type { LiveMessage } from '../state/transcript.js';
import { agentColor } from '../theme/agent-color.js';
import { AgentName } from './AgentName.js';
import { Thought } from './items/Thought.js';
import { Markdown } from './Markdown.js';
import { Spinner } from './Spinner.js';

export interface LiveMessageViewProps {
  item: LiveMessage;
  /** The markdown to draw (the tail of `item.text`). */
  text: string;
  showHeader: boolean;
  width: number;
}

/** A message while it streams: its reasoning, its unfinished paragraph, the tools it is about to call. */
export const LiveMessageView = memo(function LiveMessageView({ item, text, showHeader, width }: LiveMessageViewProps) {
  const thinking = item.thought !== '' && !item.thoughtCommitted;
  return (
    <Box flexDirection="column">
      {thinking ? <Thought agent={item.agent} text={item.thought.trim()} mode="tail" /> : null}
      {showHeader ? (
        <Text>
          <Text color={agentColor(item.agent)}>● </Text>
          <AgentName name={item.agent} />
        </Text>
      ) : null}
      {text ? (
        <Box paddingLeft={2}>
          <Markdown text={text} width={Math.max(10, width - 2)} />
        </Box>
      ) : null}
      {!text && !thinking ? (
        <Text>
          <Spinner /> <AgentName name={item.agent} bold={false} />
        </Text>
      ) : null}
      {item.toolNames.length ? <Text dimColor>{`  → ${item.toolNames.join(', ')}…`}</Text> : null}
    </Box>
  );
});
