import { Conversation } from '../../core/conversation/conversation.js';
import { ContentPartError } from '../../core/errors.js';
import { readContentPart, type ContentPart } from '../../core/schema/index.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { runHeadless } from '../headless.js';
import { promptFromArgs } from '../stdin.js';
import { lockedNewId, lockedSession, sessionTeamOptions } from '../session-access.js';
import { openStores } from '../stores.js';
import { loadTeam, type Team } from '../team.js';
import { unattendedPolicy, type UnattendedFlags } from '../unattended.js';
import { DEFAULT_GOAL_ATTEMPTS } from '../goal.js';
import type { SessionGoal } from '../../core/store/index.js';

export interface RunCommandOptions extends UnattendedFlags {
  json?: boolean;
  model?: string;
  agents?: string;
  agent?: string;
  session?: string;
  /** --fallback: models asked when the model is unavailable after its retries. */
  fallback?: string[];
  /** --file (repeatable): images and PDFs sent with the prompt. */
  file?: string[];
  /** --until: goal mode, the check that must pass (run in the sandbox after each attempt). */
  until?: string;
  maxAttempts?: string;
  /** --trajectory FILE: write the session as ATIF there at the end. */
  trajectory?: string;
}

export async function runCommand(words: string[], opts: RunCommandOptions): Promise<number> {
  const prompt = await promptFromArgs(words);
  if (!prompt.trim()) throw new CliError('the prompt is empty');
  // A bad flag is a usage error before anything starts.
  const unattended = unattendedPolicy(opts);
  const goal = goalOf(opts);
  // Files are read before anything starts: a missing or too large one is a usage error, no request made.
  const parts = await attachedFiles(opts.file ?? []);
  // A new session's team does not depend on the store: it is built while the store opens. The store
  // goes first, so its file work runs on libuv's threads while the agents file is checked here.
  const opening = openStores();
  const early = opts.session ? undefined : settle(loadTeam({ model: opts.model, fallback: opts.fallback, agentsFile: opts.agents, agentName: opts.agent }));
  try {
    const stores = await opening;
    try {
      // The lease comes first: what is read next is what this process alone will change.
      const held = opts.session ? await lockedSession(stores, opts.session) : undefined;
      const lease = held?.lease ?? (await lockedNewId(stores)).lease;
      try {
        const existing = held?.record;
        if (existing?.status === 'interrupted') {
          throw new CliError(`session ${existing.id} is waiting on ${existing.pendingInterrupts.length} interrupt(s); answer with \`adk resume ${existing.id}\``);
        }
        const team = existing
          ? await loadTeam({ ...sessionTeamOptions(existing, { model: opts.model, agentsFile: opts.agents }), fallback: opts.fallback, agentName: opts.agent ?? existing.rootAgent })
          : await unwrap(early!);
        try {
          const conv = existing ? Conversation.open(stores, team, existing, lease) : await Conversation.create(stores, team, lease);
          unattended.apply(conv);
          // Saved before the first attempt: a crash in any attempt resumes into the same goal.
          if (goal) await conv.setGoal(goal);
          const code = await runHeadless(conv, (signal) => conv.startTurn({ text: prompt, parts }, signal), { json: opts.json, onApproval: unattended.onApproval, maxTimeMs: unattended.maxTimeMs });
          // --trajectory: the session as an ATIF trajectory, however the run ended (Harbor and Terminal-Bench read it).
          if (opts.trajectory) await writeTrajectory(opts.trajectory, conv.record);
          return code;
        } finally {
          if (existing) await team.close();
        }
      } finally {
        await lease.release();
      }
    } finally {
      await stores.close();
    }
  } finally {
    await early?.then((r) => r.team?.close());
  }
}

/** The --file paths as message parts (PNG, JPEG, WebP, GIF, PDF). */
async function attachedFiles(paths: readonly string[]): Promise<ContentPart[]> {
  try {
    return await Promise.all(paths.map((p) => readContentPart(p)));
  } catch (e) {
    throw e instanceof ContentPartError ? new CliError(`--file ${e.message}`) : e;
  }
}

type Settled = { team?: Team; error?: unknown };

/** The outcome of a promise, with no unhandled rejection while nobody waits on it yet. */
function settle(p: Promise<Team>): Promise<Settled> {
  return p.then(
    (team) => ({ team }),
    (error: unknown) => ({ error }),
  );
}

async function unwrap(s: Promise<Settled>): Promise<Team> {
  const r = await s;
  if (r.team) return r.team;
  throw r.error;
}

/** `--until CHECK [--max-attempts N]`: the session's goal, or none. */
function goalOf(opts: RunCommandOptions): SessionGoal | undefined {
  if (opts.maxAttempts !== undefined && opts.until === undefined) throw new CliError('--max-attempts goes with --until CHECK (goal mode)', ExitCode.usage);
  if (opts.until === undefined) return undefined;
  if (!opts.until.trim()) throw new CliError('--until needs a check command, such as --until "npm test"', ExitCode.usage);
  const maxAttempts = opts.maxAttempts === undefined ? DEFAULT_GOAL_ATTEMPTS : Number(opts.maxAttempts);
  if (!Number.isSafeInteger(maxAttempts) || maxAttempts < 1) throw new CliError(`--max-attempts ${opts.maxAttempts}: expected a whole number of at least 1`, ExitCode.usage);
  return { check: opts.until, attempt: 1, maxAttempts };
}

async function writeTrajectory(file: string, record: Conversation['record']): Promise<void> {
  const [{ toAtif }, { packageVersion }, { writeFile, rename }] = await Promise.all([import('../export/atif.js'), import('../version.js'), import('node:fs/promises')]);
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(toAtif(record, packageVersion()), null, 2)}\n`, { flag: 'wx', mode: 0o600 });
  await rename(tmp, file);
}
