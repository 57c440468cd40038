import type { Tool } from '../tool.js';
import { askUserTool } from './ask-user.js';
import { currentTimeTool } from './current-time.js';
import { editFileTool } from './edit-file.js';
import { fetchUrlTool } from './fetch-url.js';
import { grepTool } from './grep.js';
import { listDirTool } from './list-dir.js';
import { readFileTool } from './read-file.js';
import { shellTool } from './shell.js';
import { writeFileTool } from './write-file.js';

export const BUILTIN_TOOL_NAMES = [
  'read_file',
  'write_file',
  'edit_file',
  'list_dir',
  'grep',
  'shell',
  'fetch_url',
  'ask_user',
  'current_time',
] as const;

export type BuiltinToolName = (typeof BUILTIN_TOOL_NAMES)[number];

/** Tools that need a person's approval unless agents.yaml says otherwise. */
export const DEFAULT_APPROVAL_TOOLS: readonly string[] = ['shell'];

export interface BuiltinToolOptions {
  /** The folder the file tools are confined to and `shell` runs in. */
  workspaceRoot: string;
  shellTimeoutMs?: number;
  shellMaxOutputChars?: number;
  fetchTimeoutMs?: number;
  fetchMaxBytes?: number;
  /** Environment variables shell commands may see beyond the base allow-list (PATH, HOME, LANG…). */
  shellEnv?: readonly string[];
  /** Private destinations fetch_url may reach anyway (host, host:port, CIDR). */
  fetchAllowHosts?: readonly string[];
}

export function isBuiltinToolName(name: string): name is BuiltinToolName {
  return (BUILTIN_TOOL_NAMES as readonly string[]).includes(name);
}

export function builtinTools(opts: BuiltinToolOptions): Record<BuiltinToolName, Tool> {
  const root = opts.workspaceRoot;
  return {
    read_file: readFileTool(root),
    write_file: writeFileTool(root),
    edit_file: editFileTool(root),
    list_dir: listDirTool(root),
    grep: grepTool(root),
    shell: shellTool({ workspaceRoot: root, timeoutMs: opts.shellTimeoutMs, maxOutputChars: opts.shellMaxOutputChars, env: opts.shellEnv }),
    fetch_url: fetchUrlTool({ timeoutMs: opts.fetchTimeoutMs, maxBytes: opts.fetchMaxBytes, allowHosts: opts.fetchAllowHosts }),
    ask_user: askUserTool,
    current_time: currentTimeTool,
  };
}

export { askUserTool, currentTimeTool, editFileTool, fetchUrlTool, grepTool, listDirTool, readFileTool, shellTool, writeFileTool };
