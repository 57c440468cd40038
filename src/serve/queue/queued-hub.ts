import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { Conversation } from '../../core/conversation/conversation.js';
import { jsonEventText } from '../../core/conversation/json-events.js';
import type { AdkStores } from '../../core/store/adk-stores.js';
import { lockSession } from '../../core/store/session-lock.js';
import { newSessionId } from '../../core/store/session-store.js';
import { servedId, SessionBusyError, type ServedHub, type ServedSession } from '../served-session.js';
import type { ServedTeam } from '../session-hub.js';
import { connectRedis, loadQueueLibs } from './redis-libs.js';
import { cancelKey, RedisSessionEvents } from './redis-events.js';
import { QueuedSession, type QueueParts } from './queued-session.js';
import { loadQueueKey } from './queue-key.js';
import { RedisOutageLog } from './redis-outage.js';
import { TURN_QUEUE, verifyTurnJob, type TurnJob } from './turn-job.js';
import type { SessionPolicy } from '../../core/conversation/session-policy.js';

/** How long a cancel mark waits for a queued turn to start (seconds). */
const CANCEL_MARK_TTL_S = 24 * 60 * 60;

/**
 * The sessions of an `adk serve` whose turns run on `adk worker` processes: sessions are created and
 * read in the shared store; turns are BullMQ jobs; events come from Redis. Nothing runs here, so
 * any number of servers can serve the same sessions.
 */
export class QueuedHub implements ServedHub {
  private constructor(
    readonly stores: AdkStores,
    private readonly newTeam: (agent?: string) => Promise<ServedTeam>,
    private readonly parts: QueueParts,
    private readonly connections: Redis[],
  ) {}

  /**
   * `queueKey`: the key jobs are signed with (default: loadQueueKey, from ADK_QUEUE_KEY or ADK_HOME).
   * `log`: one line when Redis goes away and one when it is back (default: nothing).
   */
  static async open(o: { stores: AdkStores; redisUrl: string; newTeam(agent?: string): Promise<ServedTeam>; queueKey?: Uint8Array | undefined; log?: ((line: string) => void) | undefined }): Promise<QueuedHub> {
    const queueKey = o.queueKey ?? loadQueueKey();
    const { bullmq, Redis } = await loadQueueLibs();
    const outage = new RedisOutageLog(o.log ?? (() => {}));
    const commands = connectRedis(Redis, o.redisUrl, outage);
    const subscriber = connectRedis(Redis, o.redisUrl, outage);
    const queue = outage.watch(new bullmq.Queue<TurnJob>(TURN_QUEUE, { connection: commands }));
    const parts: QueueParts = {
      stores: o.stores,
      events: new RedisSessionEvents(commands, subscriber),
      queue,
      publish: (channel, message) => commands.publish(channel, message),
      setCancel: (turnId) => commands.set(cancelKey(turnId), '1', 'EX', CANCEL_MARK_TTL_S),
      queueKey,
    };
    const hub = new QueuedHub(o.stores, o.newTeam, parts, [commands, subscriber]);
    // A turn no worker could finish (it killed every worker it ran on, its session stayed locked):
    // whoever streams it is told, and the session is freed. Every server may say so; only the first
    // does, while the turn still holds the session.
    const failures = outage.watch(new bullmq.QueueEvents(TURN_QUEUE, { connection: commands }));
    failures.on('failed', ({ jobId, failedReason }) => void hub.turnFailed(jobId, failedReason).catch(() => {}));
    hub.failures = failures;
    return hub;
  }

  private failures?: { close(): Promise<void> } | undefined;

  private async turnFailed(jobId: string, reason: string): Promise<void> {
    if ((await this.parts.queue.getJobState(jobId)) !== 'failed') return;
    const job = await this.parts.queue.getJob(jobId);
    // A job no server signed (written into Redis by someone else) tells no client anything.
    if (!job || !verifyTurnJob(job.data, this.parts.queueKey)) return;
    const { sessionId, claim } = job.data;
    const closing = { onlyIf: claim };
    await this.parts.events.publish(sessionId, jsonEventText({ type: 'error', agent: '', runPath: [], message: `the turn could not be run: ${reason}` }, []), closing);
    await this.parts.events.publish(sessionId, jsonEventText({ type: 'done', status: 'error', sessionId, output: '', usage: { promptTokens: 0, completionTokens: 0 } }, []), { ...closing, release: claim });
  }

  /** Workers listening on the queue now (a server with none says so). */
  async workerCount(): Promise<number> {
    return (await this.parts.queue.getWorkers()).length;
  }

  async create(init: { agent?: string | undefined; title?: string | undefined; policy?: SessionPolicy | undefined }): Promise<ServedSession> {
    // The record names the team's file, its hash and workspace, as a session made in-process does.
    const team = await this.newTeam(init.agent);
    try {
      const lease = await lockSession(this.stores.kv, newSessionId());
      try {
        const conv = await Conversation.create(this.stores, team, lease, { title: init.title, served: true, policy: init.policy });
        return new QueuedSession(conv.id, this.parts);
      } finally {
        await lease.release();
      }
    } finally {
      await team.close?.();
    }
  }

  async get(idOrPrefix: string): Promise<ServedSession> {
    return new QueuedSession(await this.resolve(idOrPrefix), this.parts);
  }

  /** A turn's claim in Redis, whichever worker runs it. */
  busy(id: string): Promise<boolean> {
    return new QueuedSession(id, this.parts).busy();
  }

  async delete(idOrPrefix: string): Promise<void> {
    const session = await this.get(idOrPrefix);
    // The worker running a turn would write the session again as it ends.
    if (await session.busy()) throw new SessionBusyError(session.id);
    // A CLI turn on it holds its lease: 409 `session_in_use`, never deleted from under it.
    const lease = await lockSession(this.stores.kv, session.id);
    try {
      await this.stores.sessions.delete(session.id);
      await this.stores.checkpoints.delete(session.id);
      await this.parts.events.delete(session.id);
    } finally {
      await lease.release();
    }
  }

  async close(): Promise<void> {
    await this.failures?.close();
    await this.parts.queue.close();
    for (const c of this.connections) c.disconnect();
  }

  /** A session this server shows (made through serve, or shared): any other is unknown here. */
  private resolve(idOrPrefix: string): Promise<string> {
    return servedId(this.stores, idOrPrefix);
  }
}
