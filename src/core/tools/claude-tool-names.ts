/**
 * Claude Code's names of adk's built-in tools, so what a Claude Code user wrote (permission rules,
 * hook matchers) names the same tools here: `Bash` is `shell`, `Edit` and `MultiEdit` are
 * `edit_file`, …
 */
export const CLAUDE_TOOL_NAMES: Readonly<Record<string, readonly string[]>> = {
  shell: ['Bash'],
  read_file: ['Read'],
  write_file: ['Write'],
  edit_file: ['Edit', 'MultiEdit'],
  grep: ['Grep'],
  list_dir: ['LS'],
  fetch_url: ['WebFetch'],
  web_search: ['WebSearch'],
  ask_user: ['AskUserQuestion'],
};

/** Claude Code's names of an adk tool (none for a tool Claude Code has no counterpart of). */
export function claudeNamesOf(tool: string): readonly string[] {
  return Object.prototype.hasOwnProperty.call(CLAUDE_TOOL_NAMES, tool) ? CLAUDE_TOOL_NAMES[tool]! : [];
}

/** The adk tool a Claude Code tool name stands for. */
export const ADK_TOOL_OF_CLAUDE: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(CLAUDE_TOOL_NAMES).flatMap(([adk, names]) => names.map((n) => [n, adk])));

/**
 * A tool call's arguments with Claude Code's field names added beside adk's (`file_path` for `path`,
 * `old_string`/`new_string` for `old`/`new`), for hook scripts written for Claude Code.
 */
export function withClaudeFields(tool: string, args: unknown): unknown {
  if (!args || typeof args !== 'object' || Array.isArray(args) || !claudeNamesOf(tool).length) return args;
  const a = args as Record<string, unknown>;
  const out: Record<string, unknown> = { ...a };
  if (typeof a.path === 'string' && out.file_path === undefined && tool !== 'grep' && tool !== 'list_dir') out.file_path = a.path;
  if (tool === 'edit_file') {
    if (typeof a.old === 'string' && out.old_string === undefined) out.old_string = a.old;
    if (typeof a.new === 'string' && out.new_string === undefined) out.new_string = a.new;
  }
  return out;
}

/** A hook's `updatedInput` in adk's field names: Claude Code's (`file_path`, `old_string`, `new_string`) mapped back. */
export function fromClaudeFields(tool: string, input: Record<string, unknown>): Record<string, unknown> {
  if (!claudeNamesOf(tool).length) return input;
  const out: Record<string, unknown> = { ...input };
  const take = (claude: string, adk: string) => {
    if (!(claude in out)) return;
    if (out[adk] === undefined) out[adk] = out[claude];
    delete out[claude];
  };
  if (tool !== 'grep' && tool !== 'list_dir') take('file_path', 'path');
  if (tool === 'edit_file') {
    take('old_string', 'old');
    take('new_string', 'new');
  }
  return out;
}
