import type { AdkStores, SessionLease } from '../../core/store/index.js';
import { ShellJobs } from '../../core/tools/builtin/shell-jobs.js';
import { CliError, ExitCode, exitCodeFor } from '../exit-codes.js';
import { lockedNewId, lockedSession, sessionTeamOptions } from '../session-access.js';
import { openStores } from '../stores.js';
import { loadTeam, UntrustedAgentsFileError, wantsDemo, type Team, type TeamOptions } from '../team.js';
import { TrustStore } from '../trust.js';
import { watchStartupKeys, type StartupKeys } from '../chat/startup-keys.js';

export interface ChatCommandOptions {
  resume?: string;
  model?: string;
  agents?: string;
  agent?: string;
  /** --fallback: models asked when the model is unavailable after its retries. */
  fallback?: string[];
}

/** `adk chat` and interactive `adk resume <id>`: the Ink REPL. */
export async function chatCommand(opts: ChatCommandOptions): Promise<number> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    throw new CliError('adk chat needs an interactive terminal; for scripts use `adk run` (or `adk resume <id> --json`).');
  }
  const keys = watchStartupKeys();
  let stores: AdkStores | undefined;
  let lease: SessionLease | undefined;
  try {
    stores = await openStores();
    const held = opts.resume ? await lockedSession(stores, opts.resume) : undefined;
    lease = held?.lease ?? (await lockedNewId(stores)).lease;
    const record = held?.record;
    const trust = new TrustStore();
    // One set of background jobs for the whole REPL: `/model`, `/agents` and `/resume` load other teams, the jobs go on.
    const shellJobs = new ShellJobs();
    const teamOptions: TeamOptions = { model: opts.model, fallback: opts.fallback, agentsFile: opts.agents, agentName: opts.agent, trust, shellJobs };
    const team = await loadTrustedTeam(
      record ? { ...sessionTeamOptions(record, { model: opts.model, agentsFile: opts.agents }), fallback: opts.fallback, agentName: opts.agent ?? record.rootAgent, trust, shellJobs } : teamOptions,
      trust,
      keys,
    );
    const { startRepl } = await importInkInteractive(() => import('../chat/start-repl.js'));
    const demoNote = team.isDemo && wantsDemo(teamOptions)
      ? 'No model configured: offline demo team. Set OPENAI_API_KEY or OPENAI_BASE_URL (e.g. Ollama), or --model.'
      : undefined;
    const owned = lease;
    lease = undefined; // the REPL's host releases it from here on
    return await startRepl({ stores, team, record, lease: owned, teamOptions, demoNote, promptArmMs: armMs(process.env.ADK_PROMPT_ARM_MS), startupKeys: keys });
  } catch (e) {
    if (e instanceof CliError) throw e;
    throw new CliError((e as Error).message, exitCodeFor(e)); // a session in use is exit 2
  } finally {
    keys.stop(); // a no-op once the REPL has them; else stdin must not keep the process alive
    await lease?.release();
    await stores?.close();
  }
}

/** Builds the team; a folder's untrusted agents file is shown and trusted (or not) inline, once. */
async function loadTrustedTeam(options: TeamOptions, trust: TrustStore, keys: StartupKeys): Promise<Team> {
  try {
    return await loadTeam(options);
  } catch (e) {
    if (!(e instanceof UntrustedAgentsFileError)) throw e;
    const { askTrust } = await importInkInteractive(() => import('../chat/ask-trust.js'));
    // The question reads the keys itself (Ctrl-C included) while it shows.
    keys.handOver();
    const trusted = await askTrust(e);
    keys.resume();
    if (!trusted) throw new CliError(`not trusted: ${e.file} was not used. Trust it later with: adk trust ${e.file}`, ExitCode.usage);
    trust.trust(e.file, e.hash);
    return loadTeam(options);
  }
}

/** ADK_PROMPT_ARM_MS: a whole number of milliseconds (0 turns the guard off); anything else keeps the default. */
function armMs(raw: string | undefined): number | undefined {
  return raw !== undefined && /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : undefined;
}

/**
 * Ink renders only a final frame when CI or CONTINUOUS_INTEGRATION is set (it decides when first
 * imported). We already know both ends are a terminal, so load it as interactive and put the
 * variables back for the commands the agents run.
 */
async function importInkInteractive<T>(load: () => Promise<T>): Promise<T> {
  const saved = { CI: process.env.CI, CONTINUOUS_INTEGRATION: process.env.CONTINUOUS_INTEGRATION };
  delete process.env.CI;
  delete process.env.CONTINUOUS_INTEGRATION;
  try {
    return await load();
  } finally {
    for (const [k, v] of Object.entries(saved)) if (v !== undefined) process.env[k] = v;
  }
}
