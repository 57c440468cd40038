import { fenceSpans } from '../state/safe-split.js';

/**
 * The last `maxLines` lines of a markdown text, so a long live tail is not laid out in full on
 * every frame. A cut inside a code fence repeats the fence's opening line so it still renders as code.
 */
export function tailMarkdownSource(text: string, maxLines: number): { text: string; dropped: number } {
  const lines = text.split('\n');
  if (lines.length <= maxLines) return { text, dropped: 0 };
  const dropped = lines.length - maxLines;
  const cutOffset = lines.slice(0, dropped).join('\n').length + 1;
  const kept = lines.slice(dropped).join('\n');
  const open = fenceSpans(text).find((f) => f.start < cutOffset && (f.end === -1 || f.end > cutOffset));
  if (!open) return { text: kept, dropped };
  const nl = text.indexOf('\n', open.start);
  const opener = text.slice(open.start, nl === -1 ? undefined : nl);
  return { text: `${opener}\n${kept}`, dropped };
}
