import { parseAllowRule, ruleAllows, type AllowRule } from '../../core/agents/allow-rules.js';
import type { ApprovalPolicy } from '../../core/agents/run-context.js';

/**
 * A command file's `allowed-tools` as adk rules. Claude Code's tool names are mapped to adk's
 * (`Bash(git status:*)` → `shell(git status*)`, `Read` → `read_file`, …); adk's own rule syntax
 * (`shell(npm test*)`, `write_file(docs/*)`) is taken as it is. What maps to nothing is returned in
 * `ignored`, to be told: a grant the person cannot see applied must not look applied.
 */
export function allowedToolRules(entries: readonly string[]): { rules: AllowRule[]; ignored: string[] } {
  const rules: AllowRule[] = [];
  const ignored: string[] = [];
  for (const entry of entries) {
    const rule = mapEntry(entry.trim());
    if (rule) rules.push(rule);
    else if (entry.trim()) ignored.push(entry.trim());
  }
  return { rules, ignored };
}

/** Claude Code's tool names and the adk tool each stands for. */
const CLAUDE_TOOLS: Record<string, string> = {
  Bash: 'shell',
  Read: 'read_file',
  Write: 'write_file',
  Edit: 'edit_file',
  MultiEdit: 'edit_file',
  Grep: 'grep',
  LS: 'list_dir',
  WebFetch: 'fetch_url',
  WebSearch: 'web_search',
};

/** Claude Code's tools adk has no counterpart of: told as left out, not kept as rules that match nothing. */
const CLAUDE_ONLY = new Set(['Glob', 'Task', 'TodoWrite', 'NotebookEdit', 'NotebookRead', 'BashOutput', 'KillShell', 'SlashCommand', 'ExitPlanMode']);

function mapEntry(entry: string): AllowRule | undefined {
  const m = /^([A-Za-z][\w-]*)(?:\((.*)\))?$/s.exec(entry);
  if (!m || CLAUDE_ONLY.has(m[1]!)) return undefined;
  const [, name, inner] = m;
  const tool = CLAUDE_TOOLS[name!] ?? name!;
  let pattern: string | undefined = inner?.trim();
  if (pattern !== undefined) {
    // Claude Code's `prefix:*` is a prefix match, adk's `prefix*`; `**` and a leading `./` of a path pattern are its gitignore style.
    pattern = tool === 'shell' ? pattern.replace(/:\*$/, '*') : pattern.replace(/^\.\//, '').replace(/\*\*+/g, '*');
    // `Bash(*)` and `Read(*)` allow everything, as the bare name does.
    if (pattern === '*' || pattern === '') pattern = undefined;
  }
  const rule = parseAllowRule(pattern === undefined ? tool : `${tool}(${pattern})`);
  return typeof rule === 'string' ? undefined : { ...rule, source: 'allowed-tools' };
}

/**
 * The session's policy with a command's grants on top, for that command's turn: a call its rules
 * match runs without asking, unless the policy refuses it first (a deny rule, plan mode: the
 * approval middleware asks `refuses` before `allows`). Nothing else changes.
 */
export function withCommandGrants(policy: ApprovalPolicy | undefined, rules: readonly AllowRule[], workspace: string): ApprovalPolicy | undefined {
  if (!rules.length) return policy;
  return {
    allows: (call) => !!policy?.allows(call) || rules.some((r) => ruleAllows(r, call.tool, call.arguments, workspace)),
    ...(policy?.refuses ? { refuses: policy.refuses.bind(policy) } : {}),
  };
}
