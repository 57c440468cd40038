import { parseAllowRule, type AllowRule } from '../../core/agents/allow-rules.js';
import { ADK_TOOL_OF_CLAUDE } from '../../core/tools/claude-tool-names.js';

/** Claude Code's tool names and the adk tool each stands for. */
export const CLAUDE_TOOLS: Readonly<Record<string, string>> = ADK_TOOL_OF_CLAUDE;

/** Claude Code's tools adk has no counterpart of: a rule about one is told as such, never kept as one that matches nothing. */
export const CLAUDE_ONLY: ReadonlySet<string> = new Set(['Glob', 'Task', 'TodoWrite', 'NotebookEdit', 'NotebookRead', 'BashOutput', 'KillShell', 'SlashCommand', 'ExitPlanMode']);

export type RuleText = { rules: AllowRule[] } | { claudeOnly: string } | { error: string };

/** The adk tools a Claude Code tool's rule covers: its Read rules cover every tool that reads a file, Edit every one that writes. */
const COVERS: Readonly<Record<string, readonly string[]>> = {
  Read: ['read_file', 'grep'],
  Edit: ['edit_file', 'write_file'],
  MultiEdit: ['edit_file', 'write_file'],
  Write: ['write_file', 'edit_file'],
};

/** A gitignore-style path pattern as adk's (`*` spans folders): a double star is `*`, and a leading double-star folder also matches at the top. */
function pathPatterns(p: string): string[] {
  const plain = p.replace(/^\.\//, '');
  const body = plain.replace(/\/\*\*\//g, '/').replace(/\*\*+/g, '*');
  return plain.startsWith('**/') ? [...new Set([body.replace(/^\*\//, ''), body])] : [body];
}

/**
 * A permission rule as settings files and command files write it: adk's own (`shell(npm test*)`,
 * `write_file(docs/*)`, `fetch_url(domain:x.com)`) or Claude Code's (`Bash(npm run test:*)`,
 * `Read(./.env)`, `Edit(src/**)`, `WebFetch(domain:x.com)`, `mcp__server__tool`), mapped to adk's
 * tools. Claude's `cmd:*` allows `cmd` and `cmd …` (a word boundary) and denies every line starting
 * `cmd`; `**` and a leading `./` of a path are its gitignore style; `Bash(*)` is the bare tool.
 */
export function parseRuleText(text: string, kind: 'allow' | 'deny' = 'allow'): RuleText {
  const entry = text.trim();
  const m = /^([A-Za-z][\w-]*)(?:\((.*)\))?$/s.exec(entry);
  if (!m) return { error: `'${text}' is not a rule: write a tool name, or tool(pattern) such as shell(git status*) or Bash(git status:*)` };
  const [, name, inner] = m;
  if (CLAUDE_ONLY.has(name!)) return { claudeOnly: name! };
  const claude = CLAUDE_TOOLS[name!] !== undefined;
  const tools = COVERS[name!] ?? [CLAUDE_TOOLS[name!] ?? name!];
  const pattern = inner?.trim();
  if (claude && pattern === '') return { error: `'${text}': an empty pattern; write ${name} for every call, or ${name}(pattern)` };
  const patterns: Array<string | undefined> = [];
  if (pattern === undefined || (claude && pattern === '*')) patterns.push(undefined);
  else if (!claude) patterns.push(pattern);
  else if (tools[0] === 'shell') {
    const prefix = /^(.*?)\s*:\*$/.exec(pattern)?.[1];
    if (prefix === undefined) patterns.push(pattern);
    else patterns.push(...(kind === 'deny' ? [`${prefix}*`] : [prefix, `${prefix} *`]));
  } else if (tools[0] === 'fetch_url') patterns.push(pattern);
  else patterns.push(...pathPatterns(pattern));
  const rules: AllowRule[] = [];
  for (const tool of tools) {
    for (const p of patterns) {
      const rule = parseAllowRule(p === undefined ? tool : `${tool}(${p})`);
      if (typeof rule === 'string') return { error: rule };
      rules.push(rule);
    }
  }
  return { rules };
}
