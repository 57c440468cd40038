import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { defaultAdkHome } from '../../core/store/store-url.js';

/**
 * The settings files Claude Code users know, in adk's folders: the person's own
 * (`ADK_HOME/settings.json`), the project's shared one (`.adk/settings.json`, committed) and the
 * project's local one (`.adk/settings.local.json`, git-ignored). Later scopes win where a value
 * is single (a mode); lists (rules, hooks) are joined, each entry remembering its file.
 */
export type SettingsScope = 'user' | 'project' | 'local';

export const SETTINGS_SCOPES: readonly SettingsScope[] = ['user', 'project', 'local'];

export interface SettingsFile {
  scope: SettingsScope;
  path: string;
  /** The parsed object; undefined when the file is missing or broken. */
  data: Record<string, unknown> | undefined;
  /** `path:line:col: what is wrong`, when the file exists but cannot be used. */
  error?: string | undefined;
  /** SHA-256 of the bytes read (trust of a project's shared file is bound to them); unset when missing. */
  sha256?: string | undefined;
}

export function settingsPath(scope: SettingsScope, workspace: string, env: NodeJS.ProcessEnv = process.env): string {
  if (scope === 'user') return join(defaultAdkHome(env), 'settings.json');
  return join(workspace, '.adk', scope === 'project' ? 'settings.json' : 'settings.local.json');
}

/** Reads one settings file; JSON errors are reported with their line and column. */
export function readSettingsFile(scope: SettingsScope, path: string): SettingsFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return { scope, path, data: undefined };
  }
  const sha256 = createHash('sha256').update(text).digest('hex');
  if (!text.trim()) return { scope, path, data: {}, sha256 };
  try {
    const data: unknown = JSON.parse(text);
    if (!data || typeof data !== 'object' || Array.isArray(data)) {
      return { scope, path, data: undefined, error: `${path}:1:1: settings must be a JSON object`, sha256 };
    }
    return { scope, path, data: data as Record<string, unknown>, sha256 };
  } catch (e) {
    return { scope, path, data: undefined, error: `${path}:${jsonErrorPosition(text)}: ${(e as Error).message}`, sha256 };
  }
}

/** The three files in order user → project → local. */
export function readSettingsFiles(workspace: string, env: NodeJS.ProcessEnv = process.env): SettingsFile[] {
  return SETTINGS_SCOPES.map((scope) => readSettingsFile(scope, settingsPath(scope, workspace, env)));
}

/**
 * Changes one settings file, keeping every key it does not touch; written atomically (a kill mid
 * write leaves the old file). A broken file is never overwritten: its error is thrown instead.
 */
export function updateSettingsFile(
  scope: SettingsScope,
  workspace: string,
  change: (data: Record<string, unknown>) => void,
  env: NodeJS.ProcessEnv = process.env,
): string {
  return changeSettingsFile(scope, workspace, change, env).path;
}

/**
 * updateSettingsFile from the file as `current` read it (read now when not given), and the hash of
 * the bytes written: whoever trusts the result trusts exactly those bytes, never a file read again
 * (a sandboxed command can swap the folder's file between two reads).
 */
export function changeSettingsFile(
  scope: SettingsScope,
  workspace: string,
  change: (data: Record<string, unknown>) => void,
  env: NodeJS.ProcessEnv = process.env,
  current: SettingsFile = readSettingsFile(scope, settingsPath(scope, workspace, env)),
): { path: string; sha256: string } {
  const path = settingsPath(scope, workspace, env);
  if (current.error) throw new Error(current.error);
  const data = structuredClone(current.data ?? {});
  change(data);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  const text = `${JSON.stringify(data, null, 2)}\n`;
  writeFileSync(tmp, text, { mode: 0o600 });
  renameSync(tmp, path);
  return { path, sha256: createHash('sha256').update(text).digest('hex') };
}

/** `line:col` of the value at `keyPath` in a settings file (for a problem with one entry), else 1:1. */
export function settingsValuePosition(path: string, keyPath: ReadonlyArray<string | number>): string {
  try {
    const lineCounter = new LineCounter();
    const doc = parseDocument(readFileSync(path, 'utf8'), { lineCounter, prettyErrors: false });
    const node = doc.getIn(keyPath, true) as { range?: [number, number, number] } | undefined;
    const offset = node?.range?.[0];
    if (offset === undefined) return '1:1';
    const p = lineCounter.linePos(offset);
    return `${Math.max(1, p.line)}:${Math.max(1, p.col)}`;
  } catch {
    return '1:1';
  }
}

/** line:col of a JSON syntax error, found by the yaml parser (JSON is YAML) which keeps positions. */
function jsonErrorPosition(text: string): string {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const offset = doc.errors[0]?.pos[0];
  if (offset === undefined) return '1:1';
  const p = lineCounter.linePos(offset);
  return `${Math.max(1, p.line)}:${Math.max(1, p.col)}`;
}
