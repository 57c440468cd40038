import { Box, Text } from 'ink';
import { todoMark, type Todo } from '../../core/prebuilt/deep/todos.js';

/** Rows the panel takes at most: the screen belongs to the conversation. */
export const TODO_PANEL_MAX_ITEMS = 8;

/** Rows the panel takes for `count` todos: the title, the items shown and the `…` marks. */
export function todoPanelRows(count: number): number {
  return 1 + Math.min(count, TODO_PANEL_MAX_ITEMS) + (count > TODO_PANEL_MAX_ITEMS ? 2 : 0);
}

/**
 * A deep agent's todo list above the input while it works: ☐ pending, ◐ in progress (its active
 * form, bold), ☑ completed (dim). Long lists show the items around the one in progress.
 */
export function TodoPanel({ todos, width }: { todos: readonly Todo[]; width: number }) {
  const current = Math.max(0, todos.findIndex((t) => t.status === 'in_progress'));
  const start = Math.max(0, Math.min(current - 2, todos.length - TODO_PANEL_MAX_ITEMS));
  const shown = todos.slice(start, start + TODO_PANEL_MAX_ITEMS);
  const done = todos.filter((t) => t.status === 'completed').length;
  return (
    <Box flexDirection="column" width={width}>
      <Text dimColor>{`Todos ${done}/${todos.length}`}</Text>
      {start > 0 ? <Text dimColor>{`  … ${start} above`}</Text> : null}
      {shown.map((t, i) => (
        <Text key={start + i} wrap="truncate-end" bold={t.status === 'in_progress'} dimColor={t.status === 'completed'} color={t.status === 'in_progress' ? 'cyan' : undefined}>
          {`  ${todoMark(t.status)} ${(t.status === 'in_progress' ? (t.activeForm ?? t.content) : t.content).replace(/\s+/g, ' ')}`}
        </Text>
      ))}
      {start + shown.length < todos.length ? <Text dimColor>{`  … ${todos.length - start - shown.length} more`}</Text> : null}
    </Box>
  );
}
