import { Box, Static } from 'ink';
import { memo } from 'react';
import type { TranscriptItem, ViewState } from '../state/transcript.js';
import { LiveTail } from './LiveTail.js';
import { TranscriptItemView } from './TranscriptItemView.js';

export interface TranscriptProps {
  state: Pick<ViewState, 'committed' | 'live' | 'epoch'>;
  width: number;
  /** Rows the live tail may take. */
  maxLiveRows: number;
}

/**
 * Finished items are written once into the terminal's own scrollback (<Static>); only the live
 * tail is redrawn. The screen is never cleared: `clear` remounts <Static> under a new key and
 * leaves what was printed where it is.
 */
export function Transcript({ state, width, maxLiveRows }: TranscriptProps) {
  const { committed, live } = state;
  return (
    <Box flexDirection="column">
      <Committed key={state.epoch} items={committed} width={width} />
      <LiveTail items={live} lastCommitted={committed[committed.length - 1]} width={width} maxRows={maxLiveRows} />
    </Box>
  );
}

/**
 * Memoized because Ink writes a frame at once, outside its frame limit, whenever <Static>
 * re-renders: it must only when items were added.
 */
const Committed = memo(function Committed({ items, width }: { items: TranscriptItem[]; width: number }) {
  return <Static items={items}>{(item, i) => <TranscriptItemView key={item.id} item={item} prev={items[i - 1]} width={width} />}</Static>;
});
