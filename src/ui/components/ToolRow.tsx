import { sanitizeText } from '../text/sanitize.js';
import { Box, Text } from 'ink';
import { COLLAPSED_RESULT_LINES } from '../state/reducer.js';
import type { ToolCallView } from '../state/transcript.js';
import { displayWidth, truncate } from '../text/width.js';
import { TOOL_GLYPH, TOOL_GLYPH_COLOR } from '../theme/glyphs.js';
import { Spinner } from './Spinner.js';
import { editDiffRows } from '../text/edit-diff.js';
import { TODO_STATUSES, todoMark, type Todo } from '../../core/prebuilt/deep/todos.js';

export interface ToolRowProps {
  call: ToolCallView;
  width: number;
  /** Show the whole result instead of its first lines. */
  expanded?: boolean;
}

/** Tool arguments on one line: `command: "ls -la", path: "."`. */
/** The arguments on one line. Parsing JSON can bring back control characters its text escaped: sanitised again. */
export function formatArgs(args: string, tool?: string): string {
  return sanitizeText(friendlyArgs(tool, args) ?? argsLine(args));
}

/** Calls a person reads better in their own words: a task's sub-agent and job, a todo list's progress. */
function friendlyArgs(tool: string | undefined, args: string): string | undefined {
  const a = parseObject(args);
  if (!a) return undefined;
  if (tool === 'task' && typeof a.subagent === 'string' && typeof a.description === 'string') return `${a.subagent}: ${a.description.replace(/\s+/g, ' ')}`;
  // Edits show their diff under the row; the row names the file.
  if (tool === 'edit_file' && typeof a.path === 'string' && typeof a.old === 'string') return a.path;
  if (tool === 'write_file' && typeof a.path === 'string' && typeof a.content === 'string') return `${a.path} (${a.content.split('\n').length} lines)`;
  const todos = tool === 'write_todos' ? todoList(a) : undefined;
  if (todos) return `${todos.filter((t) => t.status === 'completed').length}/${todos.length} done`;
  return undefined;
}

/** A write_todos call's list as rows (☑ done, ◐ doing, ☐ to do), shown in place of its result. */
export function todoRows(tool: string, args: string): string | undefined {
  const todos = tool === 'write_todos' ? todoList(parseObject(args)) : undefined;
  // Parsed JSON can bring back control characters its text escaped: sanitised like the arguments.
  return todos && sanitizeText(todos.map((t) => `${todoMark(t.status)} ${t.status === 'in_progress' ? (t.activeForm ?? t.content) : t.content}`).join('\n'));
}

function parseObject(args: string): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(args || '{}') as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function todoList(a: Record<string, unknown> | undefined): Todo[] | undefined {
  const list = a?.todos;
  if (!Array.isArray(list) || !list.every((t) => t && typeof t.content === 'string' && TODO_STATUSES.includes(t.status))) return undefined;
  return list as Todo[];
}

function argsLine(args: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(args || '{}');
  } catch {
    return args.replace(/\s+/g, ' ').trim();
  }
  if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
    // Strings as they read (line breaks as ⏎, not `\n` escapes); other values as JSON.
    return Object.entries(parsed)
      .map(([k, v]) => `${k}: ${typeof v === 'string' ? `"${v.replace(/\r?\n/g, ' ⏎ ')}"` : JSON.stringify(v)}`)
      .join(', ');
  }
  return JSON.stringify(parsed);
}

/** Changed lines an edit shows before /expand. */
const EDIT_DIFF_LINES = 8;

const RESULT_INDENT = '  ⎿ ';
const CONTINUATION = '    ';

/** One tool call: status glyph, name, arguments on one line, and the result (collapsed by default). */
export function ToolRow({ call, width, expanded = false }: ToolRowProps) {
  const glyph = call.status === 'running' ? <Spinner /> : <Text color={TOOL_GLYPH_COLOR[call.status]}>{TOOL_GLYPH[call.status]}</Text>;
  // The first row never wraps: the name, then the arguments in whatever room the note leaves.
  const note = call.status === 'pending' ? ' · waiting for you' : '';
  const name = truncate(call.name, width - 2 - note.length);
  const argsRoom = width - 2 - displayWidth(name) - 1 - note.length;
  const args = argsRoom >= 4 ? truncate(`${call.edited ? '(edited) ' : ''}${formatArgs(call.args, call.name)}`, argsRoom) : '';
  const todos = call.status === 'done' ? todoRows(call.name, call.args) : undefined;
  const result = (todos ?? call.result ?? '').replace(/\s+$/, '');
  const lines = result ? result.split('\n') : [];
  const shown = expanded ? lines : lines.slice(0, COLLAPSED_RESULT_LINES);
  const hidden = lines.length - shown.length;
  const color = call.status === 'error' ? 'red' : call.status === 'rejected' ? 'yellow' : undefined;
  const lineRoom = width - RESULT_INDENT.length;
  // An edit shows what it changed (from its arguments), above its result.
  const diff = call.status === 'done' ? editDiffRows(call.name, call.args) : undefined;
  const diffShown = diff ? (expanded ? diff : diff.slice(0, EDIT_DIFF_LINES)) : [];
  return (
    <Box flexDirection="column">
      <Text>
        {glyph} <Text bold>{name}</Text>
        {args ? <Text dimColor>{` ${args}`}</Text> : null}
        {note ? <Text color="yellow">{note}</Text> : null}
      </Text>
      {diffShown.map((row, i) => (
        <Text key={`d${i}`} color={row.sign === '+' ? 'green' : 'red'}>
          {CONTINUATION}
          {truncate(`${row.sign} ${sanitizeText(row.text)}`, lineRoom)}
        </Text>
      ))}
      {diff && diff.length > diffShown.length ? <Text dimColor>{`${CONTINUATION}… +${diff.length - diffShown.length} changed lines (/expand)`}</Text> : null}
      {shown.map((line, i) => (
        <Text key={i} color={color} dimColor={!color}>
          {i === 0 ? RESULT_INDENT : CONTINUATION}
          {expanded ? line : truncate(line, lineRoom)}
        </Text>
      ))}
      {call.status === 'running' && call.progress
        ? sanitizeText(call.progress)
            .split('\n')
            .map((line, i) => (
              <Text key={`p${i}`} dimColor>
                {i === 0 ? RESULT_INDENT : CONTINUATION}
                {truncate(line, lineRoom)}
              </Text>
            ))
        : null}
      {call.status === 'done' && !lines.length ? <Text dimColor>{`${RESULT_INDENT}(no output)`}</Text> : null}
      {hidden > 0 ? <Text dimColor>{`${CONTINUATION}… +${hidden} lines (/expand)`}</Text> : null}
    </Box>
  );
}
