import { relative } from 'node:path';
import { parseHooks, mergeHooks, hasHooks, listHooks, type HooksConfig } from '../../core/middlewares/hooks/config.js';
import { hookPowerText } from '../../core/config/powers.js';
import { describeCode, type TrustStore } from '../trust.js';
import type { CodeManifest } from '../../core/config/index.js';
import { readSettingsFiles, settingsValuePosition } from './settings-files.js';

/** One folder settings file that holds hooks: trust is bound to its bytes (as for permission rules). */
export interface FolderHooksFile {
  path: string;
  sha256: string;
  hooks: HooksConfig;
  /** The workspace code its hooks run, as it is now (filled in by teamHooks; trust records it too). */
  code?: CodeManifest | undefined;
  /** Its bytes are trusted, but its hooks' code changed since (what changed, in words). */
  codeChange?: string | undefined;
}

/**
 * The hooks of the settings files: the person's own (`ADK_HOME/settings.json`, always run) and the
 * folder's (`.adk/settings.json` and `.adk/settings.local.json`). A folder's hooks come with the
 * repository (a clone can hold either file), so they are a trust power: they run only once the
 * person trusted that file as it is now.
 */
export interface SettingsHooks {
  user: HooksConfig;
  folderFiles: FolderHooksFile[];
  /** `file:line:col: what is wrong`, for each entry left out. */
  problems: string[];
}

export function readSettingsHooks(workspace: string, env: NodeJS.ProcessEnv = process.env): SettingsHooks {
  const problems: string[] = [];
  const user: HooksConfig[] = [];
  const folderFiles: FolderHooksFile[] = [];
  for (const f of readSettingsFiles(workspace, env)) {
    if (f.error) {
      problems.push(f.error);
      continue;
    }
    if (!f.data || f.data.hooks === undefined) continue;
    const shown = f.scope === 'user' ? f.path : relative(workspace, f.path);
    const parsed = parseHooks(f.data.hooks, shown);
    for (const p of parsed.problems) problems.push(`${f.path}:${settingsValuePosition(f.path, ['hooks', ...p.path])}: ${p.message}`);
    if (f.scope === 'user') user.push(parsed.hooks);
    else if (hasHooks(parsed.hooks)) folderFiles.push({ path: f.path, sha256: f.sha256 ?? '', hooks: parsed.hooks });
  }
  return { user: mergeHooks(...user), folderFiles, problems };
}

/** The folder's files whose hooks the person has not trusted as they are now. */
export function untrustedHookFiles(files: readonly FolderHooksFile[], trust: TrustStore): FolderHooksFile[] {
  return files.filter((f) => !f.sha256 || !trust.isTrusted(f.path, f.sha256));
}

/** The hooks as the trust prompt lists them. */
export function hookPowers(files: readonly FolderHooksFile[]): Array<{ kind: 'hooks'; text: string }> {
  return files.flatMap((f) => [
    ...listHooks(f.hooks).map((h) => ({ kind: 'hooks' as const, text: `${hookPowerText(h)} (${h.source ?? f.path})` })),
    // Trust covers the code the hooks run (hook-code-trust): what it is, and what changed since it was trusted.
    ...(f.code ? describeCode(f.code).map((text) => ({ kind: 'hooks' as const, text: `its hooks' code: ${text}` })) : []),
    ...(f.codeChange ? [{ kind: 'hooks' as const, text: `its hooks' code changed since you trusted it: ${f.codeChange}` }] : []),
  ]);
}
