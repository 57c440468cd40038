import { Box, measureElement, Text, type DOMElement } from 'ink';
import { memo, useLayoutEffect, useReducer, useRef } from 'react';
import type { LiveItem, TranscriptItem } from '../state/transcript.js';
import { layoutLive } from './live-layout.js';
import { LiveMessageView } from './LiveMessageView.js';
import { ToolRow } from './ToolRow.js';

export interface LiveTailProps {
  items: readonly LiveItem[];
  /** The transcript's last item, for spacing and for continuing its message without a new header. */
  lastCommitted?: TranscriptItem;
  width: number;
  /** Rows the tail may take: the terminal's rows minus the input area. */
  maxRows: number;
}

/**
 * The part of the screen that still changes. It never grows past `maxRows` (a taller dynamic area
 * makes Ink clear the whole terminal on every frame); when it would, its top lines are hidden
 * behind a `… N lines hidden` note. Its height is predicted from the last measured height plus the
 * estimated change, then measured again after each frame; it is drawn again at once only when the
 * prediction gave the wrong box (while it streams, the next frame corrects a count in the note).
 */
export const LiveTail = memo(function LiveTail({ items, lastCommitted, width, maxRows }: LiveTailProps) {
  const inner = useRef<DOMElement>(null);
  const measured = useRef({ height: 0, estimate: 0 });
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  const rowsAllowed = Math.max(0, maxRows);
  const layout = layoutLive(items, lastCommitted, width, Math.max(1, rowsAllowed));
  const estimate = layout.reduce((n, l) => n + l.estimate, 0);
  const dropped = layout.reduce((n, l) => n + l.dropped, 0);
  const predicted = Math.max(1, measured.current.height + estimate - measured.current.estimate);
  const box = boxFor(predicted, rowsAllowed, dropped);
  useLayoutEffect(() => {
    if (!inner.current) {
      measured.current = { height: 0, estimate: 0 };
      return;
    }
    const height = measureElement(inner.current).height;
    measured.current = { height, estimate };
    const right = boxFor(Math.max(1, height), rowsAllowed, dropped);
    if (right.clipped !== box.clipped || right.height !== box.height) redraw();
  });
  // A prompt may need the whole screen: then the tail shrinks to its note, or to nothing.
  if (!items.length || rowsAllowed === 0) return null;
  const { clipped, height } = box;
  const hidden = predicted - height + dropped;
  return (
    <Box flexDirection="column" width={width}>
      {clipped ? <Text dimColor>{`… ${hidden} lines hidden`}</Text> : null}
      <Box height={height} overflowY="hidden" flexDirection="column" justifyContent="flex-end">
        <Box ref={inner} flexDirection="column" flexShrink={0}>
          {layout.map((l) => (
            <Box key={l.item.id} marginTop={l.gap} flexDirection="column">
              {l.item.kind === 'tool' ? (
                <ToolRow call={l.item.call} width={width} />
              ) : (
                <LiveMessageView item={l.item} text={l.text} showHeader={l.showHeader} width={width} />
              )}
            </Box>
          ))}
        </Box>
      </Box>
    </Box>
  );
});

/** The rows the tail's box gets for content of `rows` rows, and whether a note says the rest is hidden. */
function boxFor(rows: number, rowsAllowed: number, dropped: number): { clipped: boolean; height: number } {
  const clipped = rows > rowsAllowed || dropped > 0;
  return { clipped, height: clipped ? Math.min(rows, rowsAllowed - 1) : rows };
}
