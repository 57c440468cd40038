import { readFile } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import type { ToolCallContent, ToolCallLocation, ToolKind } from '@agentclientprotocol/sdk';

/** How an editor should draw a tool call of adk's built-in tools (its icon and grouping). */
const KINDS: Record<string, ToolKind> = {
  read_file: 'read',
  list_dir: 'search',
  grep: 'search',
  write_file: 'edit',
  edit_file: 'edit',
  shell: 'execute',
  shell_output: 'execute',
  fetch_url: 'fetch',
  web_search: 'fetch',
  write_todos: 'think',
  review_plan: 'think',
  transfer_to_agent: 'switch_mode',
};

export const toolKind = (name: string): ToolKind => KINDS[name] ?? 'other';

type Args = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

/** A short human title: "Read src/a.ts", "Run `npm test`", else the tool's name. */
export function toolTitle(name: string, args: Args): string {
  const path = str(args.path);
  const oneLine = (s: string) => (s.length > 80 ? `${s.slice(0, 79)}…` : s).replace(/\s*\n\s*/g, ' ');
  switch (name) {
    case 'read_file':
      return path ? `Read ${path}` : 'Read a file';
    case 'write_file':
      return path ? `Write ${path}` : 'Write a file';
    case 'edit_file':
      return path ? `Edit ${path}` : 'Edit a file';
    case 'list_dir':
      return `List ${path ?? '.'}`;
    case 'grep':
      return str(args.pattern) ? `Search for ${oneLine(str(args.pattern)!)}` : 'Search';
    case 'shell':
      return str(args.command) ? `Run \`${oneLine(str(args.command)!)}\`` : 'Run a command';
    case 'fetch_url':
      return str(args.url) ? `Fetch ${oneLine(str(args.url)!)}` : 'Fetch a page';
    case 'transfer_to_agent':
      return str(args.agent_name) ? `Hand over to ${args.agent_name}` : 'Hand over';
    case 'write_todos':
      return 'Update the plan';
    default:
      return name;
  }
}

/** The file a call works on, absolute (editors follow it), when it lies inside the workspace. */
export function toolLocations(name: string, args: Args, workspace: string): ToolCallLocation[] {
  const path = str(args.path);
  if (!path || !['read_file', 'write_file', 'edit_file', 'list_dir', 'grep'].includes(name)) return [];
  const abs = resolve(workspace, path);
  const rel = relative(workspace, abs);
  if (rel.startsWith('..') || isAbsolute(rel)) return [];
  const line = typeof args.offset === 'number' ? args.offset : undefined;
  return [{ path: abs, ...(line ? { line } : {}) }];
}

/**
 * What a write_file or edit_file call would change, as ACP's diff (the editor shows it in its own
 * diff view): the file now and after the call. Undefined for other tools or when it cannot tell.
 */
export async function toolDiff(name: string, args: Args, workspace: string): Promise<ToolCallContent | undefined> {
  const [location] = toolLocations(name, args, workspace);
  if (!location) return undefined;
  const before = await readFile(location.path, 'utf8').catch(() => undefined);
  if (name === 'write_file' && typeof args.content === 'string') return { type: 'diff', path: location.path, oldText: before ?? null, newText: args.content };
  if (name === 'edit_file' && before !== undefined && typeof args.old === 'string' && typeof args.new === 'string') {
    const at = before.indexOf(args.old);
    if (at < 0 || !args.old) return undefined;
    return { type: 'diff', path: location.path, oldText: before, newText: before.slice(0, at) + args.new + before.slice(at + args.old.length) };
  }
  return undefined;
}

/** A tool's text as ACP content, cut for the editor's row (the model got the whole result). */
export function textContent(text: string, max = 20_000): ToolCallContent {
  const cut = text.length > max ? `${text.slice(0, max)}\n[… ${text.length - max} more characters]` : text;
  return { type: 'content', content: { type: 'text', text: cut } };
}

/** Arguments as an object, whatever the model wrote. */
export function parsedArgs(raw: unknown): Args {
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) return raw as Args;
  if (typeof raw !== 'string') return {};
  try {
    const v = JSON.parse(raw || '{}');
    return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}
