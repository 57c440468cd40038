import { formatRule, type AllowRule } from '../../core/agents/allow-rules.js';
import { parseRuleText } from './rule-text.js';
import { TrustStore, trustFile } from '../trust.js';
import { changeSettingsFile, readSettingsFile, readSettingsFiles, settingsPath, settingsValuePosition, type SettingsFile, type SettingsScope } from './settings-files.js';

/**
 * Permission rules as Claude Code keeps them, in adk's rule syntax:
 * `{"permissions": {"allow": ["shell(npm test*)"], "deny": ["write_file(.env)"], "defaultMode": "plan"}}`
 * in the person's `ADK_HOME/settings.json`, the project's `.adk/settings.json` (shared, committed)
 * and `.adk/settings.local.json` (written by adk for the person: choice 2 of an approval).
 *
 * A folder's files can come with the repository (a clone could ship either, allowing `shell(curl*)`),
 * so their rules are a trust power: they apply only while the file is as the person trusted it, by
 * its hash (the TrustStore). adk records that trust itself when it writes a rule into a file that was
 * trusted (or held no powers) before; a file changed by anything else must be trusted again
 * (`/permissions` offers it, after listing its rules).
 */
export type RuleKind = 'allow' | 'deny';

export interface SettingsRule {
  kind: RuleKind;
  /** As written in the file (removal finds it by this text). */
  text: string;
  rule: AllowRule;
  scope: SettingsScope;
  path: string;
}

export interface PermissionSettings {
  /** The rules in force. */
  rules: SettingsRule[];
  /** A folder file's rules, left out because that file is not trusted as it is now. */
  untrusted: SettingsRule[];
  /** The folder files whose rules are left out (to trust them). */
  untrustedFiles: SettingsFile[];
  /** Broken files and rules that do not parse, one line each. */
  problems: string[];
  /** Deny rules that cannot be read (file:line:col: why): a team does not start with one (see rulesOf). */
  unreadableDeny: string[];
  /** `permissions.defaultMode`, the last file that sets it winning. */
  defaultMode?: string | undefined;
}

/**
 * The rules of one settings file (any scope), in adk's syntax or Claude Code's, with what is wrong in
 * it (file:line:col). A deny rule that cannot be read goes to `unreadableDeny`: the person meant to
 * take a power away, and dropping it with a warning would leave the power in place.
 */
function rulesOf(file: SettingsFile, problems: string[], unreadableDeny: string[]): SettingsRule[] {
  if (file.error) {
    // A file that was read but does not parse: its deny rules cannot be read either, the same as one
    // deny rule that cannot be. (A folder file refused unread, a link, was never the person's to follow.)
    if (file.sha256) unreadableDeny.push(`${file.error} (its permission rules cannot be read)`);
    else problems.push(file.error);
    return [];
  }
  const perms = permissionsObject(file.data);
  const out: SettingsRule[] = [];
  for (const kind of ['allow', 'deny'] as const) {
    const list = perms?.[kind];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      const problem = `${file.path}:${settingsValuePosition(file.path, ['permissions', kind])}: permissions.${kind} must be a list of rules`;
      (kind === 'deny' ? unreadableDeny : problems).push(problem);
      continue;
    }
    list.forEach((text, i) => {
      // Positions only for what is said (finding one parses the file again).
      const where = () => `${file.path}:${settingsValuePosition(file.path, ['permissions', kind, i])}`;
      const read = typeof text === 'string' ? parseRuleText(text, kind) : { error: `${JSON.stringify(text)} is not a rule` };
      if ('claudeOnly' in read) problems.push(`${where()}: ${kind} ${read.claudeOnly}: Claude Code's ${read.claudeOnly} tool has no counterpart in adk, so this rule changes nothing`);
      else if ('error' in read) (kind === 'deny' ? unreadableDeny : problems).push(`${where()}: ${read.error}`);
      else for (const rule of read.rules) out.push({ kind, text: text as string, rule: { ...rule, source: file.path }, scope: file.scope, path: file.path });
    });
  }
  return out;
}

function permissionsObject(data: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const p = data?.permissions;
  return p && typeof p === 'object' && !Array.isArray(p) ? (p as Record<string, unknown>) : undefined;
}

/** Whether the person trusted this folder settings file as it is now. */
export function folderSettingsTrusted(file: SettingsFile, trust: TrustStore = new TrustStore()): boolean {
  return !!file.sha256 && trust.isTrusted(file.path, file.sha256);
}

/** Every file's rules and mode; a folder file's only while trusted. */
export function readPermissionSettings(workspace: string, env: NodeJS.ProcessEnv = process.env, trust: TrustStore = new TrustStore(trustFile(env))): PermissionSettings {
  const problems: string[] = [];
  const unreadableDeny: string[] = [];
  const rules: SettingsRule[] = [];
  const untrusted: SettingsRule[] = [];
  const untrustedFiles: SettingsFile[] = [];
  let defaultMode: string | undefined;
  for (const file of readSettingsFiles(workspace, env)) {
    const own = rulesOf(file, problems, unreadableDeny);
    const mode = permissionsObject(file.data)?.defaultMode;
    // Deny rules only take powers away, so they need no trust; allow rules and a mode (bypass!) do.
    const powerful = own.some((r) => r.kind === 'allow') || typeof mode === 'string';
    const trusted = file.scope === 'user' || !powerful || folderSettingsTrusted(file, trust);
    if (!trusted) untrustedFiles.push(file);
    for (const r of own) (trusted || r.kind === 'deny' ? rules : untrusted).push(r);
    if (typeof mode === 'string' && trusted) defaultMode = mode;
  }
  return { rules, untrusted, untrustedFiles, problems, unreadableDeny, defaultMode };
}

/** Trusts a folder settings file as it is now (the person read its rules in `/permissions`). */
export function trustSettingsFile(file: SettingsFile, env: NodeJS.ProcessEnv = process.env): void {
  if (file.sha256) new TrustStore(trustFile(env)).trust(file.path, file.sha256);
}

/**
 * After adk wrote a folder file for the person, the new bytes are trusted, when the old ones were (or
 * held nothing a clone could abuse): adding a rule must not launder an untrusted file's hooks or rules.
 * The file is read once: the bytes judged are the bytes changed, and the hash trusted is that of the
 * bytes written (a swap between reads would otherwise be trusted).
 */
function keepTrust(scope: SettingsScope, workspace: string, env: NodeJS.ProcessEnv, change: (data: Record<string, unknown>) => void): string {
  const path = settingsPath(scope, workspace, env);
  const before = readSettingsFile(scope, path);
  if (scope === 'user') return changeSettingsFile(scope, workspace, change, env, before).path;
  const trust = new TrustStore(trustFile(env));
  const perms = permissionsObject(before.data);
  const harmless = !before.data || (!before.data.hooks && !(Array.isArray(perms?.allow) && perms.allow.length) && perms?.defaultMode === undefined);
  const wasTrusted = !before.error && (harmless || folderSettingsTrusted(before, trust));
  const written = changeSettingsFile(scope, workspace, change, env, before);
  if (wasTrusted) trust.trust(written.path, written.sha256);
  return written.path;
}

/** Adds a rule (choice 2 of an approval: the local file); returns the file written. */
export function addPermissionRule(workspace: string, rule: AllowRule, kind: RuleKind = 'allow', scope: SettingsScope = 'local', env: NodeJS.ProcessEnv = process.env): string {
  const text = formatRule(rule);
  return keepTrust(scope, workspace, env, (data) => {
    const perms = (permissionsObject(data) ?? {}) as Record<string, unknown>;
    const list = Array.isArray(perms[kind]) ? (perms[kind] as unknown[]) : [];
    if (!list.includes(text)) list.push(text);
    perms[kind] = list;
    data.permissions = perms;
  });
}

/** Removes one rule from the file it came from (`/permissions`). */
export function removePermissionRule(workspace: string, r: Pick<SettingsRule, 'kind' | 'text' | 'scope'>, env: NodeJS.ProcessEnv = process.env): string {
  return keepTrust(r.scope, workspace, env, (data) => {
    const perms = permissionsObject(data);
    const list = perms?.[r.kind];
    if (!perms || !Array.isArray(list)) return;
    perms[r.kind] = list.filter((t) => t !== r.text);
  });
}
