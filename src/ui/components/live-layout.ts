import { markdownRows } from '../markdown/rows.js';
import { tailMarkdownSource } from '../markdown/tail-source.js';
import { COLLAPSED_RESULT_LINES } from '../state/reducer.js';
import type { LiveItem, LiveMessage, TranscriptItem } from '../state/transcript.js';
import { gapBefore } from './TranscriptItemView.js';

/** How one live item is drawn, decided before drawing so the tail's height can be predicted. */
export interface LiveLayout {
  item: LiveItem;
  gap: number;
  showHeader: boolean;
  /** The markdown to draw (a long tail keeps only its last lines). */
  text: string;
  /** Source lines left out of `text`. */
  dropped: number;
  /** The rows it takes, as far as can be told before Ink lays it out; measuring corrects it after each frame. */
  estimate: number;
}

const asKind = (x: LiveItem) => ({ kind: x.kind === 'message' ? 'assistant' : 'tool' });

export function layoutLive(items: readonly LiveItem[], lastCommitted: TranscriptItem | undefined, width: number, maxRows: number): LiveLayout[] {
  const messages = items.filter((x) => x.kind === 'message').length;
  return items.map((item, i) => {
    const prev = i === 0 ? lastCommitted : asKind(items[i - 1]);
    const gap = gapBefore(prev, asKind(item));
    if (item.kind === 'tool') {
      const lines = item.call.result ? item.call.result.split('\n').length : 0;
      return { item, gap, showHeader: false, text: '', dropped: 0, estimate: gap + 2 + Math.min(lines, COLLAPSED_RESULT_LINES) };
    }
    const continues = lastCommitted?.kind === 'assistant' && lastCommitted.messageId === item.id && i === 0;
    const showHeader = item.text !== '' && (messages > 1 || !continues);
    const { text, dropped } = tailMarkdownSource(item.text, maxRows);
    return { item, gap, showHeader, text, dropped, estimate: gap + estimateMessage(item, text, showHeader, width) };
  });
}

function estimateMessage(m: LiveMessage, text: string, showHeader: boolean, width: number): number {
  let rows = showHeader ? 1 : 0;
  if (m.thought && !m.thoughtCommitted) rows += 2 + Math.min(COLLAPSED_RESULT_LINES, m.thought.split('\n').length) + 1;
  // LiveMessageView draws the markdown indented by 2.
  if (text) rows += markdownRows(text, Math.max(10, width - 2));
  if (!text && !m.thought) rows += 1;
  if (m.toolNames.length) rows += 1;
  return rows;
}
