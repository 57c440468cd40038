import { Box, Text } from 'ink';
import { useState } from 'react';
import { useKeys } from '../hooks/use-keys.js';
import { sanitizeText } from '../text/sanitize.js';
import { KeyHints, PromptFrame } from './PromptFrame.js';

export interface PickerItem {
  value: string;
  label: string;
  /** Shown dim after the label (age, status, a first prompt). */
  detail?: string | undefined;
}

export interface PickerProps {
  title: string;
  items: readonly PickerItem[];
  width: number;
  /** Rows of items shown at once; the list scrolls with the selection. */
  maxRows?: number;
  /** Typing filters the list (each word must appear in the label, the detail or the value). */
  filter?: boolean | undefined;
  onPick: (value: string | undefined) => void;
}

/** The items that contain every word of `query` (any case) in their label, detail or value. */
export function filterPickerItems(items: readonly PickerItem[], query: string): readonly PickerItem[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return items;
  return items.filter((item) => {
    const text = `${item.label} ${item.detail ?? ''} ${item.value}`.toLowerCase();
    return words.every((w) => text.includes(w));
  });
}

/** A list to choose from with ↑/↓ and Enter (Esc: none), in place of the input box. */
export function Picker({ title, items: all, width, maxRows = 10, filter, onPick }: PickerProps) {
  const [at, setAt] = useState(0);
  const [query, setQuery] = useState('');
  const items = filter ? filterPickerItems(all, query) : all;
  const page = Math.max(1, Math.min(maxRows, items.length));
  const top = Math.min(Math.max(0, at - page + 1), Math.max(0, items.length - page), at);
  useKeys((input, key) => {
    if (key.escape) return onPick(undefined);
    if (key.return) return items.length ? onPick(items[Math.min(at, items.length - 1)]?.value) : undefined;
    if (key.upArrow || (key.ctrl && input === 'p')) return setAt((i) => (i + items.length - 1) % Math.max(1, items.length));
    if (key.downArrow || (key.ctrl && input === 'n')) return setAt((i) => (i + 1) % Math.max(1, items.length));
    if (filter && (key.backspace || key.delete)) {
      setAt(0);
      return setQuery((q) => q.slice(0, -1));
    }
    if (filter && input && !key.ctrl && !key.meta && !key.tab && !/[\x00-\x1f\x7f]/.test(input)) {
      setAt(0);
      return setQuery((q) => q + input);
    }
    if (key.pageUp) return setAt((i) => Math.max(0, i - page));
    if (key.pageDown) return setAt((i) => Math.min(items.length - 1, i + page));
  });
  return (
    <PromptFrame title={title} color="cyan" width={width}>
      <Box flexDirection="column" marginY={1}>
        {filter ? (
          <Text wrap="truncate-end">
            <Text dimColor>{'Filter: '}</Text>
            {query ? sanitizeText(query) : <Text dimColor>type to filter</Text>}
          </Text>
        ) : null}
        {filter && !items.length ? <Text dimColor>{'  no match'}</Text> : null}
        {items.slice(top, top + page).map((item, i) => {
          const selected = top + i === at;
          return (
            <Text key={item.value} wrap="truncate-end" color={selected ? 'cyan' : undefined} bold={selected}>
              {selected ? '❯ ' : '  '}
              {sanitizeText(item.label)}
              {item.detail ? <Text dimColor>{`  ${sanitizeText(item.detail).replace(/\s+/g, ' ')}`}</Text> : null}
            </Text>
          );
        })}
        {items.length > page ? <Text dimColor>{`${at + 1} of ${items.length}`}</Text> : null}
      </Box>
      <KeyHints hints={filter ? [['type', 'filter'], ['↑/↓', 'move'], ['Enter', 'pick'], ['Esc', 'cancel']] : [['↑/↓', 'move'], ['Enter', 'pick'], ['Esc', 'cancel']]} />
    </PromptFrame>
  );
}
