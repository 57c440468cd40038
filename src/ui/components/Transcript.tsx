import { Box, Static } from 'ink';
import { memo, useEffect, useState } from 'react';
import { highlighterLoaded, loadHighlighter } from '../markdown/highlight.js';
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

/** Items <Static> gets per frame while a long transcript (a resumed session) is first written. */
const BATCH = 10;

/**
 * Memoized because Ink writes a frame at once, outside its frame limit, whenever <Static>
 * re-renders: it must only when items were added. A long transcript is handed to <Static> a batch
 * per frame, after a first frame that holds none: Ink lays out everything <Static> gets in one
 * frame as one grid of cells, so 100 turns of markdown at once took hundreds of MB and seconds
 * before the input box showed. What goes to the scrollback stays there as written, so an answer
 * with code waits for the highlighter (cli-highlight loads after the first frame), and what
 * follows it waits too, to keep the order.
 */
const Committed = memo(function Committed({ items, width }: { items: TranscriptItem[]; width: number }) {
  const [highlighter, setHighlighter] = useState(highlighterLoaded);
  const [cap, setCap] = useState(() => (items.length > BATCH ? 0 : Infinity));
  useEffect(() => {
    if (highlighter) return;
    let live = true;
    void loadHighlighter().then(() => live && setHighlighter(true));
    return () => {
      live = false;
    };
  }, [highlighter]);
  const behind = cap < items.length;
  useEffect(() => {
    if (!behind || !highlighter) return;
    const t = setTimeout(() => setCap((c) => (c + BATCH >= items.length ? Infinity : c + BATCH)), 0);
    return () => clearTimeout(t);
  }, [behind, highlighter, cap, items.length]);
  const writable = highlighter ? items.length : firstWithCode(items);
  const shown = Math.min(cap, writable) >= items.length ? items : items.slice(0, Math.min(cap, writable));
  return <Static items={shown}>{(item, i) => <TranscriptItemView key={item.id} item={item} prev={shown[i - 1]} width={width} />}</Static>;
});

/** The index of the first answer with a code block (the highlighter colours it); the length when none has. */
function firstWithCode(items: readonly TranscriptItem[]): number {
  const i = items.findIndex((item) => item.kind === 'assistant' && /(^|\n) {0,3}(```|~~~)/.test(item.text));
  return i === -1 ? items.length : i;
}
