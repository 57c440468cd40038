import { formatRule } from '../../core/agents/allow-rules.js';
import { suggestedRule } from '../../core/agents/suggest-rule.js';
import type { ChatUi } from '../../ui/index.js';
import { addPermissionRule, readPermissionSettings, removePermissionRule, trustSettingsFile, type SettingsRule } from '../settings/permission-rules.js';
import type { Team } from '../team.js';

/**
 * Choice 2 of an approval ("Yes, and don't ask again for …"): the call's rule is saved in the
 * folder's `.adk/settings.local.json` and applies at once, in this session and every later one.
 */
export function rememberRule(team: Team, tool: string, args: unknown, env: NodeJS.ProcessEnv = process.env): { text: string; tone: 'muted' | 'error' } {
  const rule = suggestedRule(tool, args, team.workspace);
  if (!rule) return { tone: 'error', text: `No rule can cover this ${tool} call; it was approved once.` };
  try {
    const file = addPermissionRule(team.workspace, rule, 'allow', 'local', env);
    const text = formatRule(rule);
    if (!team.allowRules.some((r) => formatRule(r) === text && r.source === file)) team.allowRules.push({ ...rule, source: file });
    return { tone: 'muted', text: `Saved ${text} in ${file}; /permissions lists and removes rules.` };
  } catch (e) {
    return { tone: 'error', text: `Could not save the rule (approved once): ${(e as Error).message}` };
  }
}

/** `/permissions`: the rules of every settings file, with their file; picking one removes it. */
export async function permissionsCommand(team: Team, ui: ChatUi, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const s = readPermissionSettings(team.workspace, env);
  const line = (r: SettingsRule) => `- ${r.kind} \`${r.text}\` (${r.path})`;
  const parts = [s.rules.length ? s.rules.map(line).join('\n') : 'No permission rules: every call that needs approval asks.'];
  if (s.untrusted.length) parts.push(`**Not applied** (a folder file changed outside adk, or came with the repository; trust it below once you have read it):\n${s.untrusted.map(line).join('\n')}`);
  // Rules from agents.yaml and `adk config set allow` apply too; they are changed where they are written.
  const others = team.allowRules.filter((r) => !r.source || r.source === 'adk config' || r.source === 'agents.yaml');
  if (others.length) parts.push(`**Also allowed** (change them in agents.yaml or with \`adk config\`):\n${others.map((r) => `- allow \`${formatRule(r)}\` (${r.source ?? 'agents.yaml'})`).join('\n')}`);
  if (s.problems.length) parts.push(`**Problems:**\n${s.problems.map((p) => `- ${p}`).join('\n')}`);
  ui.markdown(parts.join('\n\n'), 'permissions');
  const removable = [...s.rules, ...s.untrusted];
  if ((!removable.length && !s.untrustedFiles.length) || !ui.pick) return;
  const picked = await ui.pick('Remove a rule? (Esc keeps them all)', [
    ...removable.map((r, i) => ({ value: String(i), label: `${r.kind} ${r.text}`, detail: r.path })),
    // Trust is of the whole file: one that also holds hooks is trusted where its hooks are shown (adk chat asks at start).
    ...s.untrustedFiles.flatMap((f, i) => (f.data?.hooks ? [] : [{ value: `trust:${i}`, label: `trust the rules of ${f.path}`, detail: 'as listed above' }])),
  ]);
  if (picked?.startsWith('trust:')) {
    const file = s.untrustedFiles[Number(picked.slice(6))]!;
    trustSettingsFile(file, env);
    for (const r of s.untrusted) if (r.path === file.path && r.kind === 'allow') team.allowRules.push(r.rule);
    ui.info(`Trusted ${file.path} as it is now; its rules apply from now on.`, 'success');
    return;
  }
  const r = picked === undefined ? undefined : removable[Number(picked)];
  if (!r) return;
  try {
    const file = removePermissionRule(team.workspace, r, env);
    // In force from now on: the team's lists lose the rule that came from that file.
    const list = r.kind === 'allow' ? team.allowRules : team.denyRules;
    for (let i = list.length - 1; i >= 0; i--) if (list[i]!.source === file && formatRule(list[i]!) === formatRule(r.rule)) list.splice(i, 1);
    ui.info(`Removed ${r.kind} ${r.text} from ${file}.`, 'success');
  } catch (e) {
    ui.error(`Could not remove the rule: ${(e as Error).message}`);
  }
}

/** Said when the REPL opens: broken settings files, and a folder file's rules left out until trusted. */
export function permissionNotices(workspace: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const s = readPermissionSettings(workspace, env);
  // A file that is not JSON is reported where settings are loaded (path:line:col); here, rules that do not parse.
  const out = s.problems.filter((p) => !/^\S+:\d+:\d+: /.test(p)).map((p) => `Settings: ${p}`);
  for (const f of s.untrustedFiles) {
    const n = s.untrusted.filter((r) => r.path === f.path).length;
    out.push(`${f.path} ${n ? `allows ${n} kind${n > 1 ? 's' : ''} of call without asking` : 'sets a permission mode'}, but it is not trusted as it is now, so it is not applied. /permissions shows it and can trust it.`);
  }
  return out;
}
