import type { SandboxMode } from '../sandbox/bwrap.js';
import type { Tool } from '../tool.js';
import { askUserTool } from './ask-user.js';
import { reviewPlanTool } from './review-plan.js';
import { currentTimeTool } from './current-time.js';
import { editFileTool } from './edit-file.js';
import { fetchUrlTool } from './fetch-url.js';
import { grepTool } from './grep.js';
import { listDirTool } from './list-dir.js';
import { readFileTool } from './read-file.js';
import { shellTool } from './shell.js';
import { ShellJobs } from './shell-jobs.js';
import { shellOutputTool } from './shell-output.js';
import { writeFileTool } from './write-file.js';
import { handoffToPlannerTool } from './handoff-to-planner.js';
import { webSearchTool } from './web-search.js';

/** Names of the built-in tools, as listed in an agent's `tools:`. */
export const BUILTIN_TOOL_NAMES = [
  'read_file',
  'write_file',
  'edit_file',
  'list_dir',
  'grep',
  'shell',
  'shell_output',
  'fetch_url',
  'web_search',
  'ask_user',
  'review_plan',
  'current_time',
  'handoff_to_planner',
] as const;

/** One of BUILTIN_TOOL_NAMES. */
export type BuiltinToolName = (typeof BUILTIN_TOOL_NAMES)[number];

/** Tools that need a person's approval unless agents.yaml says otherwise. */
export const DEFAULT_APPROVAL_TOOLS: readonly string[] = ['shell'];

/** Process-wide settings of the built-in tools (builtinTools); unset limits take each tool's default. */
export interface BuiltinToolOptions {
  /** The folder the file tools are confined to and `shell` runs in. */
  workspaceRoot: string;
  shellTimeoutMs?: number | undefined;
  shellMaxOutputChars?: number | undefined;
  fetchTimeoutMs?: number | undefined;
  fetchMaxBytes?: number | undefined;
  /** Environment variables shell commands may see beyond the base allow-list (PATH, HOME, LANG…). */
  shellEnv?: readonly string[] | undefined;
  /** Private destinations fetch_url may reach anyway (host, host:port, CIDR). */
  fetchAllowHosts?: readonly string[] | undefined;
  /** `auto` (default): shell commands run inside bwrap when it works here; `off`: never. */
  shellSandbox?: SandboxMode | undefined;
  /** Whether sandboxed shell commands may use the network (default: no). */
  shellNetwork?: boolean | undefined;
  /** Paths outside the workspace sandboxed shell commands may read (`read_paths`; `~` is the home folder). */
  shellReadPaths?: readonly string[] | undefined;
  /** Files and folders write_file and edit_file refuse (the CLI's: ADK_HOME, the folder's .adk settings files). */
  protectedPaths?: readonly string[] | undefined;
  /** Where shell commands moved to the background run on (shared by every agent; `close()` it on exit). */
  shellJobs?: ShellJobs | undefined;
  /** Where web_search finds its provider's settings (default: process.env). */
  env?: Readonly<Record<string, string | undefined>> | undefined;
}

/**
 * Options of a built-in tool for one agent (`- shell: { network: true }` in `tools:`). Each widens
 * what the tool may do beyond adk's defaults, so a file that sets any needs trust.
 */
export interface BuiltinToolConfig {
  /** shell: `off` runs commands outside the bwrap sandbox. */
  sandbox?: 'auto' | 'off' | undefined;
  /** shell: sandboxed commands may use the network. */
  network?: boolean | undefined;
  /** shell: further environment variables commands see. */
  env?: string[] | undefined;
  /** shell: paths outside the workspace sandboxed commands may read (`~/…` is under the home folder). */
  readPaths?: string[] | undefined;
  /** fetch_url: private destinations it may reach (host, host:port, CIDR). */
  allowHosts?: string[] | undefined;
}

/** True when `name` is one of BUILTIN_TOOL_NAMES. */
export function isBuiltinToolName(name: string): name is BuiltinToolName {
  return (BUILTIN_TOOL_NAMES as readonly string[]).includes(name);
}

/** Every built-in tool, by name, set up with `opts` (the file tools and `shell` confined to `workspaceRoot`). */
export function builtinTools(opts: BuiltinToolOptions): Record<BuiltinToolName, Tool> {
  const root = opts.workspaceRoot;
  const jobs = opts.shellJobs ?? new ShellJobs();
  return {
    read_file: readFileTool(root),
    write_file: writeFileTool(root, { protectedPaths: opts.protectedPaths }),
    edit_file: editFileTool(root, { protectedPaths: opts.protectedPaths }),
    list_dir: listDirTool(root),
    grep: grepTool(root),
    shell: shellTool({
      workspaceRoot: root,
      timeoutMs: opts.shellTimeoutMs,
      maxOutputChars: opts.shellMaxOutputChars,
      env: opts.shellEnv,
      sandbox: opts.shellSandbox,
      network: opts.shellNetwork,
      readPaths: opts.shellReadPaths,
      jobs,
    }),
    shell_output: shellOutputTool(jobs),
    fetch_url: fetchUrlTool({ timeoutMs: opts.fetchTimeoutMs, maxBytes: opts.fetchMaxBytes, allowHosts: opts.fetchAllowHosts }),
    ask_user: askUserTool,
    review_plan: reviewPlanTool,
    current_time: currentTimeTool,
    web_search: webSearchTool(opts.env ?? process.env),
    handoff_to_planner: handoffToPlannerTool,
  };
}

export { ShellJobs, shellOutputTool };
export { handoffToPlannerTool, webSearchTool };
export { askUserTool, reviewPlanTool, currentTimeTool, editFileTool, fetchUrlTool, grepTool, listDirTool, readFileTool, shellTool, writeFileTool };
