import { createHash, randomBytes } from 'node:crypto';
import { closeSync, constants, existsSync, lstatSync, mkdirSync, openSync, readFileSync, readlinkSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
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
  // A folder's file that is a link would borrow the trust of the file it leads to (another folder's).
  if (scope !== 'user' && lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink()) {
    return { scope, path, data: undefined, error: `${path}:1:1: a folder's settings file must be a file, not a symbolic link (it would borrow the trust of where it leads)` };
  }
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
  const text = `${JSON.stringify(data, null, 2)}\n`;
  if (scope === 'user') {
    // ADK_HOME: no sandboxed command can reach it; still, a name nobody can guess, created new.
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const tmp = `${path}.${randomBytes(8).toString('hex')}.tmp`;
    writeFileSync(tmp, text, { mode: 0o600, flag: 'wx' });
    renameSync(tmp, path);
  } else {
    // The folder's .adk is writable from the sandbox: a symlink planted at a temp name or at the file
    // would carry this write elsewhere (ADK_HOME's mcp.json, the trust file) and get it trusted. Written
    // through the verified folder's descriptor instead, as the file tools write.
    writeInFolderFile(realpathSync(workspace), relative(workspace, path), text);
  }
  return { path, sha256: createHash('sha256').update(text).digest('hex') };
}

/**
 * Writes `rel` (`.adk/<file>`) under the real workspace `root` so that no symlink can redirect it: the
 * folder is opened with O_NOFOLLOW and checked on its descriptor, a temp file of a random name is
 * created new (O_EXCL | O_NOFOLLOW) through it, and renamed over the name through it (a symlink at
 * the name is replaced, never written through).
 */
function writeInFolderFile(root: string, rel: string, text: string): void {
  const [folder, name, ...rest] = rel.split('/');
  if (!folder || !name || rest.length) throw new Error(`refusing to write ${rel}: not a file of a folder's .adk`);
  const dirPath = join(root, folder);
  try {
    mkdirSync(dirPath, { mode: 0o700 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  const fd = openSync(dirPath, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  try {
    const via = existsSync('/proc/self/fd') ? `/proc/self/fd/${fd}` : dirPath;
    if (via !== dirPath && readlinkSync(via) !== dirPath) throw new Error(`refusing to write ${rel}: ${folder} moved while adk wrote it`);
    const tmp = `${via}/.${name}.${randomBytes(8).toString('hex')}.tmp`;
    const out = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    try {
      writeFileSync(out, text);
    } finally {
      closeSync(out);
    }
    renameSync(tmp, `${via}/${name}`);
  } finally {
    closeSync(fd);
  }
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
