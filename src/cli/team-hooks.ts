import { Hooks } from '../core/middlewares/hooks/middleware.js';
import { hasHooks, mergeHooks, type HooksConfig } from '../core/middlewares/hooks/config.js';
import type { TeamConfig } from '../core/config/index.js';
import { hookPowers, readSettingsHooks, untrustedHookFiles, type FolderHooksFile } from './settings/settings-hooks.js';
import { UntrustedAgentsFileError } from './team.js';
import type { TrustStore } from './trust.js';

/** The folder's settings files run hooks the person has not trusted yet (as they are now). */
export class UntrustedFolderHooksError extends UntrustedAgentsFileError {
  constructor(readonly files: FolderHooksFile[]) {
    super(files[0]!.path, files[0]!.sha256, hookPowers(files));
    this.message =
      `${files.map((f) => f.path).join(' and ')} would run commands on this folder's events:` +
      `${this.powers.map((p) => `\n  - ${p.text}`).join('')}\n` +
      'A folder\'s hooks run only once you trust them (a cloned repository must not run code). Review and trust them in `adk chat`, or with `adk trust FILE`.';
  }
}

/**
 * The team's hooks: the person's settings (always), the folder's settings files (once trusted),
 * and the agents file's `hooks:` (its trust was settled with the file). `ask`: an untrusted
 * folder's hooks throw UntrustedFolderHooksError for the REPL to ask; otherwise they are left
 * out and `notice` says so.
 */
export function teamHooks(config: TeamConfig, cwd: string, env: NodeJS.ProcessEnv, trust: TrustStore, ask: boolean | undefined): { hooks?: Hooks; notice?: string; problems: string[] } {
  const settings = readSettingsHooks(cwd, env);
  const untrusted = untrustedHookFiles(settings.folderFiles, trust);
  if (untrusted.length && ask) throw new UntrustedFolderHooksError(untrusted);
  const folder: HooksConfig[] = settings.folderFiles.filter((f) => !untrusted.includes(f)).map((f) => f.hooks);
  const all = mergeHooks(settings.user, ...folder, config.hooks);
  const notice = untrusted.length ? `The hooks in ${untrusted.map((f) => f.path).join(' and ')} are not run: this folder's hooks are not trusted (review them in adk chat, or trust a file with: adk trust ${untrusted[0]!.path}).` : undefined;
  const shellEnv = env.ADK_SHELL_ENV?.split(/[\s,]+/).filter(Boolean);
  const hooks = hasHooks(all) ? new Hooks({ hooks: all, cwd, env, extraEnv: shellEnv }) : undefined;
  return { ...(hooks ? { hooks } : {}), ...(notice ? { notice } : {}), problems: settings.problems };
}
