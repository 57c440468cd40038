import type { AdkStores, SessionLease } from '../../core/store/index.js';
import { ShellJobs } from '../../core/tools/builtin/shell-jobs.js';
import { CliError, ExitCode, exitCodeFor } from '../exit-codes.js';
import { lockedNewId, sessionTeamOptions } from '../session-access.js';
import { openStores } from '../stores.js';
import { loadTeam, UntrustedAgentsFileError, wantsDemo, type Team, type TeamOptions } from '../team.js';
import { TrustStore } from '../trust.js';
import { watchStartupKeys, type StartupKeys } from '../chat/startup-keys.js';
import { openChosenSession, type SessionChoice } from '../chat/choose-session.js';
import { importInkInteractive } from '../chat/ink-interactive.js';
import { budgetLimits, dailyLimits } from '../unattended.js';
import type { ChatCommandOptions } from './chat-options.js';

export type { ChatCommandOptions } from './chat-options.js';


/** `adk chat` and interactive `adk resume <id>`: the Ink REPL. */
export async function chatCommand(opts: ChatCommandOptions): Promise<number> {
  // Piped stdin is a one-shot prompt (issue 32, item 3); `adk resume` never gets here without a terminal.
  if (!process.stdin.isTTY && !opts.resume) return (await import('./chat-piped.js')).pipedChat(opts);
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    throw new CliError('adk chat needs an interactive terminal; for scripts use `adk run` (or `adk resume <id> --json`).');
  }
  const modes = await replStartingMode(opts);
  // Each turn's caps: checked before anything starts (a bad one is a usage error).
  const budget = budgetLimits(opts);
  const dailyBudget = dailyLimits(opts);
  const keys = watchStartupKeys();
  let stores: AdkStores | undefined;
  let lease: SessionLease | undefined;
  try {
    stores = await openStores();
    // `--continue`, `--fork` and the list of `adk resume` with no id choose the session; else a new one.
    const held = await openChosenSession(stores, opts, keys);
    if (held === null) return 0;
    lease = held?.lease ?? (await lockedNewId(stores)).lease;
    const record = held?.record;
    const trust = new TrustStore();
    // One set of background jobs for the whole REPL: `/model`, `/agents` and `/resume` load other teams, the jobs go on.
    const shellJobs = new ShellJobs();
    const teamOptions: TeamOptions = { model: opts.model, fallback: opts.fallback, agentsFile: opts.agents, agentName: opts.agent, trust, shellJobs, ...(budget ? { budget } : {}), ...(dailyBudget ? { dailyBudget } : {}) };
    const team = await loadTrustedTeam(
      record ? { ...sessionTeamOptions(record, { model: opts.model, agentsFile: opts.agents }), fallback: opts.fallback, agentName: opts.agent ?? record.rootAgent, trust, shellJobs, ...(budget ? { budget } : {}), ...(dailyBudget ? { dailyBudget } : {}) } : teamOptions,
      trust,
      keys,
    );
    const { startRepl } = await importInkInteractive(() => import('../chat/start-repl.js'));
    const demoNote = team.isDemo && wantsDemo(teamOptions)
      ? 'No model configured: offline demo team. Set OPENAI_API_KEY or OPENAI_BASE_URL (e.g. Ollama), or --model.'
      : undefined;
    const owned = lease;
    lease = undefined; // the REPL's host releases it from here on
    return await startRepl({ stores, team, record, lease: owned, teamOptions, demoNote, promptArmMs: armMs(process.env.ADK_PROMPT_ARM_MS), startupKeys: keys, modes });
  } catch (e) {
    if (e instanceof CliError) throw e;
    throw new CliError((e as Error).message, exitCodeFor(e)); // a session in use is exit 2
  } finally {
    keys.stop(); // a no-op once the REPL has them; else stdin must not keep the process alive
    await lease?.release();
    await stores?.close();
  }
}

/** The permission mode the REPL starts in; a refused bypass or an unknown mode is a usage error. */
async function replStartingMode(opts: ChatCommandOptions) {
  const [{ startingMode }, { readPermissionSettings }, { realPathOrSelf }] = await Promise.all([
    import('../chat/permission-mode.js'),
    import('../settings/permission-rules.js'),
    import('../paths.js'),
  ]);
  const m = startingMode({ ...opts, defaultMode: readPermissionSettings(realPathOrSelf(process.cwd())).defaultMode });
  if ('error' in m) throw new CliError(m.error, ExitCode.usage);
  return m;
}

/**
 * Builds the team; a folder's untrusted agents file, then its untrusted settings hooks, are shown
 * and trusted (or not) inline, once each. Declined hooks are left out; a declined agents file ends adk.
 */
async function loadTrustedTeam(options: TeamOptions, trust: TrustStore, keys: StartupKeys): Promise<Team> {
  let opts: TeamOptions = { ...options, askFolderHooks: true };
  for (let asked = 0; ; asked++) {
    try {
      return await loadTeam(opts);
    } catch (e) {
      if (!(e instanceof UntrustedAgentsFileError) || asked >= 2) throw e;
      const { askTrust } = await importInkInteractive(() => import('../chat/ask-trust.js'));
      const { UntrustedFolderHooksError } = await import('../team-hooks.js');
      // The question reads the keys itself (Ctrl-C included) while it shows.
      keys.handOver();
      const trusted = await askTrust(e);
      keys.resume();
      if (e instanceof UntrustedFolderHooksError) {
        // The files' bytes and the code their hooks run (a script a model rewrites later stops the hook).
        const { trustFolderHooks } = await import('../settings/hook-code-trust.js');
        if (trusted) for (const f of e.files) trustFolderHooks(trust, f, options.env);
        opts = { ...opts, askFolderHooks: false };
        continue;
      }
      if (!trusted) throw new CliError(`not trusted: ${e.file} was not used. Trust it later with: adk trust ${e.file}`, ExitCode.usage);
      trust.trust(e.file, e.hash);
    }
  }
}

/** ADK_PROMPT_ARM_MS: a whole number of milliseconds (0 turns the guard off); anything else keeps the default. */
function armMs(raw: string | undefined): number | undefined {
  return raw !== undefined && /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : undefined;
}
