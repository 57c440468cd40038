import { ruleAllows, type AllowRule } from '../../core/agents/allow-rules.js';
import { parseRuleText } from '../settings/rule-text.js';
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
    const mapped = mapEntry(entry.trim());
    if (mapped) rules.push(...mapped);
    else if (entry.trim()) ignored.push(entry.trim());
  }
  return { rules, ignored };
}

function mapEntry(entry: string): AllowRule[] | undefined {
  const r = parseRuleText(entry, 'allow');
  return 'rules' in r ? r.rules.map((rule) => ({ ...rule, source: 'allowed-tools' })) : undefined;
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
