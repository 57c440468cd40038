import { Hooks } from '../core/middlewares/hooks/middleware.js';
import { hasHooks, mergeHooks, type HooksConfig } from '../core/middlewares/hooks/config.js';
import { relative } from 'node:path';
import type { HookSandbox } from '../core/middlewares/hooks/runner.js';
import { defaultAdkHome } from '../core/store/store-url.js';
import { sandboxStatus } from '../core/tools/sandbox/bwrap.js';
import { realPathOrSelf } from './paths.js';
import { shellSandboxFromEnv } from './shell-sandbox-env.js';
import type { TeamConfig } from '../core/config/index.js';
import { folderHookGuard, folderHooksCode, hookCodeChange, hookCodeTrusted, trustedHookCode, type FolderHookTrust } from './settings/hook-code-trust.js';
import { hookPowers, readSettingsHooks, untrustedHookFiles, type FolderHooksFile } from './settings/settings-hooks.js';
import { UntrustedAgentsFileError } from './untrusted-agents-file.js';
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
 * out and `notice` says so. A trusted file whose hooks' code changed since (hook-code-trust) is asked
 * about again; otherwise its hooks stay, guarded: a changed one does not run, and blocks what it checks.
 */
export async function teamHooks(config: TeamConfig, cwd: string, env: NodeJS.ProcessEnv, trust: TrustStore, ask: boolean | undefined): Promise<{ hooks?: Hooks; notice?: string; problems: string[] }> {
  const settings = readSettingsHooks(cwd, env);
  const untrusted = untrustedHookFiles(settings.folderFiles, trust);
  // Each folder hook's code, checked before every run against the code that was trusted.
  const guarded = new Map<string, FolderHookTrust>();
  const files: FolderHooksFile[] = [];
  for (const f of settings.folderFiles) {
    const code = await folderHooksCode(cwd, f.hooks);
    const file: FolderHooksFile = { ...f, code: code.all };
    files.push(file);
    if (untrusted.includes(f)) continue;
    const ok = hookCodeTrusted(trust, f.path, code.all);
    const trusted = ok ? code.all : trustedHookCode(trust, f.path, env);
    file.codeChange = ok ? undefined : hookCodeChange(trusted, code.all);
    // One record per file, shared by its commands: trusted again in-session, all of them run again.
    const record: FolderHookTrust = { file: f.path, sha256: f.sha256, hooks: f.hooks, code: trusted };
    for (const command of code.byCommand.keys()) if (!guarded.has(command)) guarded.set(command, record);
  }
  // The agents file's own hooks: their code is in the file's fingerprint (trusted with it, checked as
  // the team loads); from then on each run checks it again, as a folder's, so a script a tool or a
  // sandboxed command rewrote in this session does not run on the host.
  if (config.hooks && config.file) {
    const code = await folderHooksCode(cwd, config.hooks);
    const record: FolderHookTrust = { file: config.file, sha256: '', hooks: config.hooks, code: code.all };
    for (const command of code.byCommand.keys()) if (!guarded.has(command)) guarded.set(command, record);
  }
  const changed = files.filter((f) => f.codeChange);
  const toAsk = files.filter((f) => untrusted.some((u) => u.path === f.path) || f.codeChange);
  if (toAsk.length && ask) throw new UntrustedFolderHooksError(toAsk);
  const folder: HooksConfig[] = settings.folderFiles.filter((f) => !untrusted.includes(f)).map((f) => f.hooks);
  const all = mergeHooks(settings.user, ...folder, config.hooks);
  const notices = [
    ...(untrusted.length ? [`The hooks in ${untrusted.map((f) => f.path).join(' and ')} are not run: this folder's hooks are not trusted (review them in adk chat, or trust a file with: adk trust ${untrusted[0]!.path}).`] : []),
    ...changed.map(
      (f) =>
        `The code the hooks of ${f.path} run changed since you trusted it (${f.codeChange}): a hook that runs changed code does not run, and the tool calls and prompts it checks are blocked. Review it, then trust it again with: adk trust ${relative(cwd, f.path)}`,
    ),
  ];
  const shellEnv = env.ADK_SHELL_ENV?.split(/[\s,]+/).filter(Boolean);
  const hooks = hasHooks(all)
    ? new Hooks({ hooks: all, cwd, env, extraEnv: shellEnv, guard: guarded.size ? folderHookGuard(cwd, guarded, trust) : undefined, sandbox: hookSandbox(cwd, env) })
    : undefined;
  return { ...(hooks ? { hooks } : {}), ...(notices.length ? { notice: notices.join('\n') } : {}), problems: settings.problems };
}

/**
 * Every hook of a team runs in the shell's sandbox (issue 42): whatever code the workspace holds for
 * it (a script, package.json's scripts, a Makefile) then has no more power than a sandboxed command.
 * With the shell's sandbox turned off (ADK_SHELL_SANDBOX=off), hooks run on the host, and only those
 * that run no such code; where bwrap cannot run, only hooks marked `sandbox: off` run (on the host, checked).
 */
function hookSandbox(cwd: string, env: NodeJS.ProcessEnv): HookSandbox {
  const off = shellSandboxFromEnv(env) === 'off';
  return {
    status: () => (off ? Promise.resolve({ reason: 'the sandbox is off (ADK_SHELL_SANDBOX=off)', off: true }) : sandboxStatus(env, cwd)),
    spec: {
      workspace: realPathOrSelf(cwd),
      readPaths: env.ADK_SANDBOX_READ_PATHS?.split(/[\s,]+/).filter(Boolean),
      hidden: [defaultAdkHome(env)],
    },
  };
}
