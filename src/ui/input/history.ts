/** Where ↑/↓ is in the input history: -1 is the line being written (kept as `draft`). */
export interface HistoryCursor {
  index: number;
  draft: string;
}

export const atDraft: HistoryCursor = { index: -1, draft: '' };

/** One step back (older) or forward (newer) in `history` (oldest first). Undefined: nowhere to go. */
export function stepHistory(history: readonly string[], at: HistoryCursor, current: string, dir: 'older' | 'newer'): { at: HistoryCursor; text: string } | undefined {
  if (dir === 'older') {
    const index = at.index === -1 ? history.length - 1 : at.index - 1;
    if (index < 0 || !history.length) return undefined;
    const draft = at.index === -1 ? current : at.draft;
    return { at: { index, draft }, text: history[index] };
  }
  if (at.index === -1) return undefined;
  const index = at.index + 1;
  if (index >= history.length) return { at: { index: -1, draft: '' }, text: at.draft };
  return { at: { index, draft: at.draft }, text: history[index] };
}
