import { parseAllowRule, type AllowRule } from '../../core/agents/allow-rules.js';

/** Claude Code's tool names and the adk tool each stands for. */
export const CLAUDE_TOOLS: Readonly<Record<string, string>> = {
  Bash: 'shell',
  Read: 'read_file',
  Write: 'write_file',
  Edit: 'edit_file',
  MultiEdit: 'edit_file',
  Grep: 'grep',
  LS: 'list_dir',
  WebFetch: 'fetch_url',
  WebSearch: 'web_search',
  AskUserQuestion: 'ask_user',
};

/** Claude Code's tools adk has no counterpart of: a rule about one is told as such, never kept as one that matches nothing. */
export const CLAUDE_ONLY: ReadonlySet<string> = new Set(['Glob', 'Task', 'TodoWrite', 'NotebookEdit', 'NotebookRead', 'BashOutput', 'KillShell', 'SlashCommand', 'ExitPlanMode']);

export type RuleText = { rule: AllowRule } | { claudeOnly: string } | { error: string };

/**
 * A permission rule as settings files and command files write it: adk's own (`shell(npm test*)`,
 * `write_file(docs/*)`, `fetch_url(domain:x.com)`) or Claude Code's (`Bash(npm run test:*)`,
 * `Read(./.env)`, `Edit(src/**)`, `WebFetch(domain:x.com)`, `mcp__server__tool`), mapped to adk's
 * tools: Claude's `prefix:*` is a prefix (adk's `prefix*`), `**` and a leading `./` of a path are its
 * gitignore style, `Bash(*)` is the bare tool.
 */
export function parseRuleText(text: string): RuleText {
  const entry = text.trim();
  const m = /^([A-Za-z][\w-]*)(?:\((.*)\))?$/s.exec(entry);
  if (!m) return { error: `'${text}' is not a rule: write a tool name, or tool(pattern) such as shell(git status*) or Bash(git status:*)` };
  const [, name, inner] = m;
  if (CLAUDE_ONLY.has(name!)) return { claudeOnly: name! };
  const tool = CLAUDE_TOOLS[name!] ?? name!;
  let pattern: string | undefined = inner?.trim();
  if (pattern !== undefined && CLAUDE_TOOLS[name!]) {
    pattern = tool === 'shell' ? pattern.replace(/:\*$/, '*') : tool === 'fetch_url' ? pattern : pattern.replace(/^\.\//, '').replace(/\*\*+/g, '*');
    if (pattern === '*' || pattern === '') pattern = undefined;
  }
  const rule = parseAllowRule(pattern === undefined ? tool : `${tool}(${pattern})`);
  return typeof rule === 'string' ? { error: rule } : { rule };
}
