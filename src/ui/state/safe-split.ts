/**
 * Where streamed markdown can be cut so that the part before the cut renders the same on its own:
 * after the last paragraph break (`\n\n`) outside a fenced code block, or right before a fence that
 * is still open. Returns 0 when nothing can be committed yet.
 */
export function findLastSafeSplitPoint(text: string): number {
  const fences = fenceSpans(text);
  const open = fences.find((f) => f.end === -1);
  // A fence always starts a line and ends the paragraph before it, so its start is a safe cut.
  if (open) return open.start;
  return lastBreakBefore(text, text.length, fences);
}

interface FenceSpan {
  /** Index of the opening fence line. */
  start: number;
  /** Index just after the closing fence line, or -1 while the fence is open. */
  end: number;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Fenced code blocks, found line by line (a closing fence uses the same character, at least as long). */
export function fenceSpans(text: string): FenceSpan[] {
  const spans: FenceSpan[] = [];
  let current: { start: number; marker: string } | undefined;
  let pos = 0;
  while (pos <= text.length) {
    const nl = text.indexOf('\n', pos);
    const lineEnd = nl === -1 ? text.length : nl;
    const line = text.slice(pos, lineEnd);
    const m = FENCE.exec(line);
    if (m) {
      if (!current) current = { start: pos, marker: m[1] };
      else if (m[1][0] === current.marker[0] && m[1].length >= current.marker.length && line.trim() === m[1]) {
        spans.push({ start: current.start, end: nl === -1 ? text.length : nl + 1 });
        current = undefined;
      }
    }
    if (nl === -1) break;
    pos = nl + 1;
  }
  if (current) spans.push({ start: current.start, end: -1 });
  return spans;
}

function inside(index: number, fences: FenceSpan[]): boolean {
  return fences.some((f) => index > f.start && (f.end === -1 || index < f.end));
}

/** The end of the last blank-line break at or before `limit` that is not inside a code fence. */
function lastBreakBefore(text: string, limit: number, fences: FenceSpan[]): number {
  let from = limit;
  while (from >= 2) {
    const i = text.lastIndexOf('\n\n', from - 2);
    if (i === -1) return 0;
    const cut = i + 2;
    if (!inside(cut, fences)) return cut;
    from = i + 1;
  }
  return 0;
}
