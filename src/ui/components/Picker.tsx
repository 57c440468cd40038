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
  onPick: (value: string | undefined) => void;
}

/** A list to choose from with ↑/↓ and Enter (Esc: none), in place of the input box. */
export function Picker({ title, items, width, maxRows = 10, onPick }: PickerProps) {
  const [at, setAt] = useState(0);
  const page = Math.max(1, Math.min(maxRows, items.length));
  const top = Math.min(Math.max(0, at - page + 1), Math.max(0, items.length - page), at);
  useKeys((input, key) => {
    if (key.escape) return onPick(undefined);
    if (key.return) return onPick(items[at]?.value);
    if (key.upArrow || (key.ctrl && input === 'p')) return setAt((i) => (i + items.length - 1) % items.length);
    if (key.downArrow || (key.ctrl && input === 'n')) return setAt((i) => (i + 1) % items.length);
    if (key.pageUp) return setAt((i) => Math.max(0, i - page));
    if (key.pageDown) return setAt((i) => Math.min(items.length - 1, i + page));
  });
  return (
    <PromptFrame title={title} color="cyan" width={width}>
      <Box flexDirection="column" marginY={1}>
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
      <KeyHints hints={[['↑/↓', 'move'], ['Enter', 'pick'], ['Esc', 'cancel']]} />
    </PromptFrame>
  );
}
