import { Box, Text } from 'ink';
import { useMemo, useState } from 'react';
import { useKeys } from '../../hooks/use-keys.js';
import type { TranscriptItem } from '../../state/transcript.js';
import { itemLines } from './transcript-lines.js';

export interface TranscriptViewProps {
  items: readonly TranscriptItem[];
  /** Rows the view may take: it is drawn in the live area, never as tall as the screen (no clear). */
  rows: number;
  width: number;
  onClose: () => void;
}

/**
 * Ctrl-O: the whole session in a scrollable view drawn in place of the input area (issue 32). ↑/↓
 * pick an item, Enter or Space expands it (thinking, long tool output), `/` searches (n, N: next,
 * previous), Esc or Ctrl-O goes back. The terminal is never cleared: leaving shrinks the live area.
 */
export function TranscriptView({ items, rows, width, onClose }: TranscriptViewProps) {
  const [sel, setSel] = useState(Math.max(0, items.length - 1));
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [search, setSearch] = useState<{ query: string; editing: boolean }>();
  const [note, setNote] = useState<string>();

  const blocks = useMemo(() => items.map((it) => ({ id: it.id, ...itemLines(it, expanded.has(it.id)) })), [items, expanded]);
  const body = Math.max(1, rows - 2);
  // The selected item's first line stays in view; the view ends at the last line when it can.
  const starts: number[] = [];
  let total = 0;
  for (const b of blocks) {
    starts.push(total);
    total += b.lines.length;
  }
  const selStart = starts[sel] ?? 0;
  const selEnd = selStart + (blocks[sel]?.lines.length ?? 1);
  const top = Math.max(0, Math.min(selStart, Math.max(selEnd - body, Math.min(selStart, total - body))));

  const toggle = (i: number, open?: boolean) => {
    const b = blocks[i];
    if (!b?.foldable) return;
    const next = new Set(expanded);
    if (open ?? !next.has(b.id)) next.add(b.id);
    else next.delete(b.id);
    setExpanded(next);
  };
  const find = (query: string, from: number, step: 1 | -1) => {
    const q = query.toLowerCase();
    for (let k = 1; k <= items.length; k++) {
      const i = (((from + step * k) % items.length) + items.length) % items.length;
      if (itemLines(items[i]!, true).lines.join('\n').toLowerCase().includes(q)) {
        setSel(i);
        toggle(i, true);
        setNote(undefined);
        return;
      }
    }
    setNote(`no match for “${query}”`);
  };

  useKeys((input, key) => {
    if (search?.editing) {
      if (key.escape) return setSearch(undefined);
      if (key.return) {
        setSearch({ ...search, editing: false });
        if (search.query) find(search.query, sel, -1);
        return;
      }
      if (key.backspace || key.delete) return setSearch({ ...search, query: search.query.slice(0, -1) });
      if (input && !key.ctrl && !key.meta) setSearch({ ...search, query: search.query + input });
      return;
    }
    // Ctrl-O (the key that opened it) closes it through the app's own key handler.
    if (key.escape) return onClose();
    if (key.upArrow || input === 'k') return setSel((s) => Math.max(0, s - 1));
    if (key.downArrow || input === 'j') return setSel((s) => Math.min(items.length - 1, s + 1));
    if (key.pageUp) return setSel((s) => Math.max(0, s - 10));
    if (key.pageDown) return setSel((s) => Math.min(items.length - 1, s + 10));
    if (input === 'g') return setSel(0);
    if (input === 'G') return setSel(items.length - 1);
    if (key.return || input === ' ') return toggle(sel);
    if (input === '/') return setSearch({ query: '', editing: true });
    if (input === 'n' && search?.query) return find(search.query, sel, -1);
    if (input === 'N' && search?.query) return find(search.query, sel, 1);
  });

  const shown: Array<{ text: string; selected: boolean }> = [];
  for (let i = 0; i < blocks.length && shown.length < body; i++) {
    const b = blocks[i]!;
    for (let j = 0; j < b.lines.length; j++) {
      const at = starts[i]! + j;
      if (at < top) continue;
      if (shown.length >= body) break;
      shown.push({ text: b.lines[j]!, selected: i === sel });
    }
  }
  while (shown.length < body) shown.push({ text: '', selected: false });
  const footer = search?.editing ? `/${search.query}` : note ?? `item ${items.length ? sel + 1 : 0} of ${items.length} · ↑/↓ move · Enter expand · / search${search?.query ? ' · n/N next' : ''} · Esc back`;
  return (
    <Box flexDirection="column" width={width}>
      <Text color="cyan" wrap="truncate-end">{`Transcript (${items.length} items)`}</Text>
      {shown.map((l, i) => (
        <Text key={i} wrap="truncate-end" inverse={l.selected && l.text !== ''} dimColor={!l.selected}>
          {l.text || ' '}
        </Text>
      ))}
      <Text dimColor wrap="truncate-end">
        {footer}
      </Text>
    </Box>
  );
}
