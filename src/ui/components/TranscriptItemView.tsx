import { Box } from 'ink';
import { memo } from 'react';
import type { TranscriptItem } from '../state/transcript.js';
import { AssistantText } from './items/AssistantText.js';
import { ErrorNotice, InfoNotice, RetryNotice } from './items/Notices.js';
import { Thought } from './items/Thought.js';
import { UserTurn } from './items/UserTurn.js';
import { ToolRow } from './ToolRow.js';
import { TransferLine } from './TransferLine.js';

/** Blank rows above an item: tool rows of one batch stay together, everything else breathes. */
export function gapBefore(prev: { kind: string } | undefined, item: { kind: string }): number {
  if (!prev) return 0;
  if (item.kind === 'tool' && prev.kind === 'tool') return 0;
  return 1;
}

export interface TranscriptItemViewProps {
  item: TranscriptItem;
  prev?: TranscriptItem;
  width: number;
}

/** One finished transcript item. Memoized: finished items never change. */
export const TranscriptItemView = memo(function TranscriptItemView({ item, prev, width }: TranscriptItemViewProps) {
  return (
    <Box flexDirection="column" marginTop={gapBefore(prev, item)} width={width}>
      {body(item, width)}
    </Box>
  );
});

function body(item: TranscriptItem, width: number) {
  switch (item.kind) {
    case 'user':
      return <UserTurn text={item.text} />;
    case 'assistant':
      return <AssistantText agent={item.agent} text={item.text} width={width} showHeader={item.showHeader} />;
    case 'thought':
      return <Thought agent={item.agent} text={item.text} ms={item.ms} mode={item.expanded ? 'expanded' : 'collapsed'} />;
    case 'tool':
      return <ToolRow call={item.call} width={width} expanded={item.expanded} />;
    case 'transfer':
      return <TransferLine from={item.from} to={item.to} />;
    case 'retry':
      return <RetryNotice agent={item.agent} attempt={item.attempt} delayMs={item.delayMs} error={item.error} />;
    case 'error':
      return <ErrorNotice agent={item.agent} text={item.text} />;
    case 'info':
      return <InfoNotice text={item.text} tone={item.tone} />;
  }
}
