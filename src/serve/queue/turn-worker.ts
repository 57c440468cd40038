import { rewindConversation } from '../../core/conversation/rewind.js';
import type { Job, Worker } from 'bullmq';
import { sleep } from '../../core/abort.js';
import { Conversation } from '../../core/conversation/conversation.js';
import { jsonEventText, type JsonEvent } from '../../core/conversation/json-events.js';
import type { AdkStores } from '../../core/store/adk-stores.js';
import type { SessionRecord } from '../../core/store/session-record.js';
import { lockSession, SessionInUseError, DEFAULT_LEASE_TTL_MS, type SessionLease } from '../../core/store/session-lock.js';
import type { ServedTeam } from '../session-hub.js';
import { runTurn } from '../turn-run.js';
import { kvJournal } from './kv-journal.js';
import { TeamCache } from './team-cache.js';
import { RedisOutageLog } from './redis-outage.js';
import { connectRedis, loadQueueLibs } from './redis-libs.js';
import { CANCEL_CHANNEL, cancelKey, RedisSessionEvents } from './redis-events.js';
import { answersProblem, TURN_QUEUE, verifyTurnJob, type TurnJob } from './turn-job.js';

/** What `adk worker` runs turns with. */
export interface TurnWorkerOptions {
  stores: AdkStores;
  redisUrl: string;
  /** The team a saved session runs with (its agents file, workspace and root agent). */
  sessionTeam(record: SessionRecord): Promise<ServedTeam>;
  /** The queue key (loadQueueKey): a job not signed with it is dropped unrun. */
  queueKey: Uint8Array;
  /** Turns run at once by this worker (default 1). */
  concurrency?: number | undefined;
  /** How long a turn stays with a worker that stops renewing it (died) before another takes it (default 30 s). */
  lockMs?: number | undefined;
  /** Values never published (API keys): replaced by [REDACTED]. */
  secrets?: readonly string[] | undefined;
  /** One line per turn started, taken over, ended. */
  log?(line: string): void;
}

/** A running worker: `close({cancel})` stops taking turns and lets (or makes) the running ones end. */
export interface RunningWorker {
  close(opts?: { cancel?: boolean }): Promise<void>;
}

/**
 * Takes queued turns off Redis and runs them, publishing their events for any `adk serve` to stream.
 * A worker that dies mid-turn stops renewing its job's lock; BullMQ hands the job to another worker,
 * which runs the turn again with its journal: the replies and tool results recorded so far are
 * replayed, nothing finished runs twice, and the turn goes on from where it was.
 */
export async function startTurnWorker(o: TurnWorkerOptions): Promise<RunningWorker> {
  const { bullmq, Redis } = await loadQueueLibs();
  const log = o.log ?? (() => {});
  const outage = new RedisOutageLog(log);
  const commands = connectRedis(Redis, o.redisUrl, outage);
  const listener = connectRedis(Redis, o.redisUrl, outage);
  const events = new RedisSessionEvents(commands);
  const secrets = o.secrets ?? [];
  const running = new Map<string, { abort: AbortController; lost: AbortController }>();
  const teams = new TeamCache((record) => o.sessionTeam(record));

  await listener.subscribe(CANCEL_CHANNEL);
  listener.on('message', (_channel: string, text: string) => {
    try {
      const { turnId } = JSON.parse(text) as { turnId?: string };
      if (turnId) running.get(turnId)?.abort.abort();
    } catch {
      // not ours
    }
  });

  const lockMs = o.lockMs ?? 30_000;
  const worker: Worker<TurnJob> = new bullmq.Worker<TurnJob>(TURN_QUEUE, (job) => runJob(job), {
    connection: commands,
    concurrency: o.concurrency ?? 1,
    lockDuration: lockMs,
    stalledInterval: Math.max(1000, Math.floor(lockMs / 2)),
    // A turn is handed on each time its worker dies; a turn that kills every worker stops somewhere.
    maxStalledCount: 5,
  });
  outage.watch(worker);
  // This worker stalled past its lock: the job is another worker's now. Stop, and say nothing more.
  worker.on('lockRenewalFailed', (ids: string[]) => {
    for (const id of ids) running.get(id)?.lost.abort();
  });

  async function runJob(job: Job<TurnJob>): Promise<void> {
    // Nothing of a job is used before its signature is checked: anyone who can write to Redis can add one.
    if (!verifyTurnJob(job.data, o.queueKey) || job.id !== job.data.turnId) {
      log(`dropped a forged or foreign job ${shownId(job.id)}: it is not signed with this worker's queue key (not run, not retried)`);
      throw new bullmq.UnrecoverableError("a forged or foreign job: it is not signed with the queue key of the worker that took it (do adk serve and adk worker share ADK_QUEUE_KEY, or ADK_HOME?)");
    }
    const { sessionId, turnId, step, claim } = job.data;
    const abort = new AbortController();
    const lost = new AbortController();
    const mine = { abort, lost };
    running.set(turnId, mine);
    try {
      if (await commands.exists(cancelKey(turnId))) abort.abort();
      // A job whose claim is gone was finished (its `done` freed the session) or given up on: a copy
      // delivered again must not run as a new turn.
      if (!(await holds(sessionId, claim, turnId))) return;
      const lease = await takeLease(o.stores, sessionId, lockMs);
      let team: { team: ServedTeam; release(): void } | undefined;
      try {
        if (!(await holds(sessionId, claim, turnId))) return;
        const record = await o.stores.sessions.get(sessionId, { from: 'context' });
        if (!record) {
          await events.release(sessionId, claim);
          return;
        }
        // Answers run only against the interrupts they were given for, as the session has them now
        // (a copy of an old job must not answer a later question). A turn taken over was checked
        // by the attempt that started it.
        const replayed = record.turnId !== turnId && (record.turnId ?? '') !== job.data.after;
        const problem = record.turnId === turnId
          ? undefined
          : replayed
            ? `it was made after turn '${job.data.after}', but the session's last turn is '${record.turnId ?? ''}' (an old job queued again?)`
            : answersProblem(record.pendingInterrupts, job.data);
        if (problem) {
          log(`refusing turn ${turnId} of session ${sessionId}: ${problem}; the turn is not run`);
          throw new bullmq.UnrecoverableError(`its answers do not fit the session's pending interrupts: ${problem}`);
        }
        team = await teams.take(record);
        const conv = Conversation.open(o.stores, team.team, record, lease);
        conv.followsPolicy = true;
        const state = conv.turnState(turnId);
        const journal = kvJournal(o.stores.kv, sessionId, turnId);
        if (state === 'ended') {
          // It ended under a worker that died before telling anyone: say how, once.
          await publishClosing(conv.record.status);
          await journal.clearAll();
          return;
        }
        log(`${state === 'running' ? 'taking over' : 'starting'} turn ${turnId} of session ${sessionId}`);
        // Once the job or the session is another worker's, this one publishes nothing more.
        const muted = () => lost.signal.aborted || lease.signal.aborted;
        let chain = Promise.resolve();
        let first = state === 'new' && 'content' in step;
        const publish = (e: JsonEvent) => {
          if (muted()) return;
          const opts = { turnStart: first, onlyIf: claim, release: e.type === 'done' ? claim : undefined };
          first = false;
          const text = jsonEventText(e, secrets);
          chain = chain.then(() => events.publish(sessionId, text, opts).then(() => {}));
        };
        if (state === 'running') publish({ type: 'retry', agent: conv.team.agent.name, runPath: [], attempt: job.attemptsMade + 1, delayMs: 0, error: 'the worker running this turn stopped; another worker goes on with it' });
        // The request's model and tool options (a DeerFlow request's settings) travel in the signed job.
        const turn = { turnId, journal, ...step.options };
        const summary = await runTurn(
          conv,
          async (signal) => {
            if ('content' in step) {
              // A branch (LangGraph edit/regenerate) is cut once: a worker taking the turn over finds it cut already.
              if (step.rewindTo !== undefined && state === 'new') await rewindConversation(conv, step.rewindTo, { keepTurnId: true });
              return conv.startTurn({ text: step.content, parts: step.parts }, signal, undefined, turn);
            }
            for (const tool of step.grants ?? []) await conv.grant(tool);
            return conv.resumeTurn(step.targets, signal, undefined, turn);
          },
          AbortSignal.any([abort.signal, lost.signal]),
          publish,
          () => chain,
          turn,
        );
        // `done` (which frees the session) is out before the lease goes: a worker taking the session
        // over then finds the turn ended and already told.
        await chain;
        // The job is another worker's: it goes on with the turn.
        if (lost.signal.aborted) return;
        // The session's lease lapsed (the store unreachable, the process stalled): nothing could be
        // saved or told. Failing this attempt hands the turn to the next one, which replays it.
        if (lease.signal.aborted) throw new Error(`the lease on session ${sessionId} was lost during turn ${turnId}`);
        // The job ends here whatever the status: no attempt of this turn will read its journal again.
        await journal.clear();
        log(`ended turn ${turnId} of session ${sessionId}: ${summary.status}`);
      } finally {
        await lease.release();
        team?.release();
      }
    } finally {
      // (the same job handed back to this worker has an entry of its own by now)
      if (running.get(turnId) === mine) running.delete(turnId);
    }

    async function publishClosing(status: string): Promise<void> {
      const done = { type: 'done', status, sessionId, output: '', usage: { promptTokens: 0, completionTokens: 0 } };
      await events.publish(sessionId, jsonEventText(done, secrets), { onlyIf: claim, release: claim });
    }
  }

  /** Whether the job still holds its session (logged when it does not). */
  async function holds(sessionId: string, claim: string, turnId: string): Promise<boolean> {
    if ((await events.running(sessionId)) === claim) return true;
    log(`dropping turn ${turnId} of session ${sessionId}: it no longer holds the session (it ended, or was given up)`);
    // A worker that died after telling the turn's end left its journal behind.
    await kvJournal(o.stores.kv, sessionId, turnId).clearAll().catch(() => {});
    return false;
  }

  return {
    async close(opts = {}) {
      if (opts.cancel) for (const r of running.values()) r.abort.abort();
      await worker.close();
      await teams.close();
      listener.disconnect();
      commands.disconnect();
    },
  };
}

/** The session's lease: the worker that died holding it may need a lease's lifetime to let go. */
async function takeLease(stores: AdkStores, sessionId: string, lockMs: number): Promise<SessionLease> {
  const deadline = Date.now() + Math.max(lockMs, DEFAULT_LEASE_TTL_MS) * 2;
  for (;;) {
    try {
      return await lockSession(stores.kv, sessionId);
    } catch (e) {
      if (!(e instanceof SessionInUseError) || Date.now() > deadline) throw e;
      // (not cut short by a cancel: a cancelled turn still takes the session to record that it stopped)
      await sleep(LEASE_POLL_MS);
    }
  }
}

/** A job id fit for a log line, whoever chose it. */
function shownId(id: string | undefined): string {
  const text = String(id ?? '');
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}...` : text).replace(/[^\x20-\x7e]/g, '?');
}

/** How often a worker asks again for a session another process holds. */
const LEASE_POLL_MS = 50;
