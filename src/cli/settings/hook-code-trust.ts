import { relative } from 'node:path';
import { describeCodeChange, manifestDigest, mergeManifest, shellCommandCode, type CodeManifest } from '../../core/config/index.js';
import { listHooks } from '../../core/middlewares/hooks/config.js';
import type { HookGuard } from '../../core/middlewares/hooks/runner.js';
import { realPathOrSelf } from '../paths.js';
import { recalledCode, rememberCode, type TrustStore } from '../trust.js';
import type { FolderHooksFile } from './settings-hooks.js';

/**
 * Trust in a folder's hooks covers the workspace code they run, not only the settings file's bytes:
 * `sh .adk/check.sh` runs on the host, unsandboxed, and a model may rewrite .adk/check.sh (write_file,
 * or a sandboxed command: the workspace is writable). So trusting a file also records the files its
 * hook commands name (scripts, node_modules/.bin/*, what their JavaScript imports; the MCP servers'
 * fingerprint, see commandRoots), and each hook run checks them again: a changed or new file keeps
 * the hook from running. The record is a second trust entry next to the file's own (revoked with it),
 * kept apart from the bytes' so that the file's permission rules, trusted by bytes, are not touched.
 */

/** The workspace code of a folder file's hooks: per command (what a run checks) and joined (what trust records). */
export interface FolderHooksCode {
  byCommand: Map<string, CodeManifest>;
  all: CodeManifest;
}

const EMPTY: CodeManifest = { files: {}, packages: {}, folders: [] };

export async function folderHooksCode(workspace: string, hooks: FolderHooksFile['hooks']): Promise<FolderHooksCode> {
  const byCommand = new Map<string, CodeManifest>();
  for (const h of listHooks(hooks)) if (!byCommand.has(h.command)) byCommand.set(h.command, await shellCommandCode(workspace, h.command));
  const all: CodeManifest = { files: {}, packages: {}, folders: [] };
  for (const m of byCommand.values()) mergeManifest(all, m);
  return { byCommand, all };
}

const isEmpty = (m: CodeManifest) => !Object.keys(m.files).length && !Object.keys(m.packages).length && !m.folders.length;

/** The trust entry of a settings file's hook code. */
const codeKey = (settingsPath: string) => `${realPathOrSelf(settingsPath)}#hooks-code`;

/** Whether the code `code` is what was trusted with the file (hooks that name no workspace file need nothing). */
export function hookCodeTrusted(trust: TrustStore, settingsPath: string, code: CodeManifest): boolean {
  return isEmpty(code) || trust.isTrusted(codeKey(settingsPath), manifestDigest(code));
}

/** The hook code as it was trusted; never recorded (or forgotten): none, so every file named now is new. */
export function trustedHookCode(trust: TrustStore, settingsPath: string, env: NodeJS.ProcessEnv = process.env): CodeManifest {
  const entry = trust.list().find((e) => e.file === codeKey(settingsPath));
  return (entry && recalledCode(entry.sha256, env)) ?? EMPTY;
}

/** Trusts a folder settings file's hooks as they are now: its bytes and the code they run. */
export function trustFolderHooks(trust: TrustStore, file: Pick<FolderHooksFile, 'path' | 'sha256' | 'code'>, env: NodeJS.ProcessEnv = process.env): void {
  trust.trust(file.path, file.sha256);
  const code = file.code ?? EMPTY;
  const digest = manifestDigest(code);
  trust.trust(codeKey(file.path), digest);
  if (!isEmpty(code)) rememberCode(digest, code, env);
}

/** What of `now` is new or changed against `trusted`, in words (a file no longer named runs no more: not counted). */
export function hookCodeChange(trusted: CodeManifest, now: CodeManifest): string | undefined {
  const pick = <T>(r: Record<string, T>, keys: Record<string, unknown>) => Object.fromEntries(Object.entries(r).filter(([k]) => k in keys));
  return describeCodeChange({ files: pick(trusted.files, now.files), packages: pick(trusted.packages, now.packages), folders: trusted.folders }, now);
}

/**
 * Before each run of a folder hook: its code again, against what was trusted. A change stops it,
 * with the reason the model (a blocked call's result) and the person (a notice) are given.
 */
export function folderHookGuard(workspace: string, trusted: ReadonlyMap<string, FolderHookTrust>, trust?: TrustStore): HookGuard {
  return async (hook) => {
    const t = trusted.get(hook.command);
    if (!t) return undefined;
    const change = hookCodeChange(t.code, await shellCommandCode(workspace, hook.command));
    if (!change) return undefined;
    // Trusted again meanwhile (`adk trust .adk/settings.json` from another terminal): the new code is the trusted code.
    const now = trust ? (await folderHooksCode(workspace, t.hooks)).all : undefined;
    if (trust && now && trust.isTrusted(t.file, t.sha256) && !isEmpty(now) && hookCodeTrusted(trust, t.file, now)) {
      t.code = now;
      return undefined;
    }
    return hookChangedReason(hook.command, relative(workspace, t.file) || t.file, change);
  };
}

/** What a folder hook's guard knows of the file it came from, as trusted. */
export interface FolderHookTrust {
  /** The settings file (absolute). */
  file: string;
  /** Its bytes and hooks as this session read them. */
  sha256: string;
  hooks: FolderHooksFile['hooks'];
  /** The code its hooks run, as trusted. */
  code: CodeManifest;
}

export function hookChangedReason(command: string, file: string, change: string): string {
  return `the hook \`${command}\` of ${file} was not run: its code changed since it was trusted (${change}); a tool or a command may have written it. Review it, then trust it again with: adk trust ${file}`;
}
