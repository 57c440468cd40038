import { Box, Text } from 'ink';
import type { SlashCommandInfo } from '../input/slash-commands.js';

/** Slash commands matching the input, under it; the one Tab would pick is highlighted. */
export function Suggestions({ items, selected, max = 8 }: { items: readonly SlashCommandInfo[]; selected?: number; max?: number }) {
  if (!items.length) return null;
  const nameWidth = Math.max(...items.map((c) => c.name.length)) + 2;
  const shown = items.slice(0, max);
  return (
    <Box flexDirection="column" paddingLeft={2}>
      {shown.map((c, i) => (
        <Text key={c.name} color={i === selected ? 'cyan' : undefined} dimColor={i !== selected}>
          {c.name.padEnd(nameWidth)}
          {c.description ?? ''}
        </Text>
      ))}
      {items.length > shown.length ? <Text dimColor>{`… ${items.length - shown.length} more`}</Text> : null}
    </Box>
  );
}
