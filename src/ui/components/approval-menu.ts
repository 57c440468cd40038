import { formatRule } from '../../core/agents/allow-rules.js';
import { suggestedRule } from '../../core/agents/suggest-rule.js';
import { sanitizeText } from '../text/sanitize.js';

/** One numbered line of the approval menu. */
export interface MenuChoice {
  key: '1' | '2' | '3' | '4';
  id: 'yes' | 'remember' | 'no' | 'edit';
  label: string;
  /** A choice shown but not offered (no rule could cover this call). */
  enabled: boolean;
}

/**
 * The approval menu as Claude Code users know it: 1 yes, 2 yes and don't ask again for this command
 * prefix or file path in this folder, 3 no and tell the model what to do instead; 4 edits the
 * arguments. A call that may already have run offers no rule: it is answered knowingly, once.
 */
export function approvalMenu(tool: string, args: unknown, mayHaveRun: boolean, alwaysAsks = false): MenuChoice[] {
  // A tool that asks every time here (shell without its sandbox): a rule would never apply to it.
  const rule = mayHaveRun || alwaysAsks ? undefined : suggestedRule(tool, args);
  return [
    { key: '1', id: 'yes', label: mayHaveRun ? 'Yes, run it again' : 'Yes', enabled: true },
    rule
      ? { key: '2', id: 'remember', label: `Yes, and don't ask again for ${sanitizeText(formatRule(rule))} in this folder`, enabled: true }
      : { key: '2', id: 'remember', label: noRuleReason(tool, mayHaveRun, alwaysAsks), enabled: false },
    { key: '3', id: 'no', label: 'No, and tell the model what to do instead', enabled: true },
    { key: '4', id: 'edit', label: 'Edit the arguments', enabled: true },
  ];
}

/** Terminals shorter than this get the compact menu: the choices as key hints only (no list). */
export const FULL_MENU_MIN_ROWS = 26;

/** Rows the menu adds to an approval box on a terminal of `rows` rows: its four choices and a second row of key hints. */
export function approvalMenuRows(rows: number): number {
  return rows >= FULL_MENU_MIN_ROWS ? 5 : 0;
}

function noRuleReason(tool: string, mayHaveRun: boolean, alwaysAsks: boolean): string {
  if (mayHaveRun) return "(not offered for a call that may already have run)";
  if (alwaysAsks) return `(not offered: ${tool} asks every time here)`;
  if (tool === 'shell') return "(not offered: a rule never covers a command with &&, |, ;, $(…), globs or redirections)";
  return "(not offered: no rule could cover this call, e.g. a path outside the workspace)";
}
