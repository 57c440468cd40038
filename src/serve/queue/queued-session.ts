import { randomUUID } from 'node:crypto';
import type { Queue } from 'bullmq';
import type { AdkStores } from '../../core/store/adk-stores.js';
import type { SessionRecord } from '../../core/store/session-record.js';
import { SessionBusyError, UnknownSessionError, type ServedSession, type SessionEvent, type TurnStep } from '../served-session.js';
import { CANCEL_CHANNEL, cancelKey, type RedisSessionEvents } from './redis-events.js';
import { answeredInterrupts, signTurnJob, type TurnJob } from './turn-job.js';

/** What a queued session needs from its server. */
export interface QueueParts {
  stores: AdkStores;
  events: RedisSessionEvents;
  queue: Queue<TurnJob>;
  /** A connection for commands (cancel). */
  publish(channel: string, message: string): Promise<unknown>;
  setCancel(turnId: string): Promise<unknown>;
  /** The queue key every job is signed with (workers drop jobs that are not). */
  queueKey: Uint8Array;
}

/** How long a claim may wait for its job to be added before it counts as abandoned. */
const CLAIM_GRACE_MS = 10_000;
/** Finished jobs kept for inspection, then dropped. */
const KEEP_JOBS = { removeOnComplete: 1000, removeOnFail: 5000 };
/** Attempts per turn: a worker that stalls (dies) hands it on; an error inside a turn is an event, not a failure. */
const JOB_ATTEMPTS = 3;

/**
 * A session whose turns run on `adk worker` processes: `start` claims the session in Redis (one turn
 * at a time) and enqueues a BullMQ job; events come back through Redis from whichever worker runs it.
 */
export class QueuedSession implements ServedSession {
  constructor(
    readonly id: string,
    private readonly parts: QueueParts,
  ) {}

  async record(): Promise<SessionRecord> {
    const r = await this.parts.stores.sessions.get(this.id, { from: 'context' });
    if (!r) throw new UnknownSessionError(this.id);
    return r;
  }

  async busy(): Promise<boolean> {
    return (await this.runningTurn()) !== undefined;
  }

  lastId(): Promise<number> {
    return this.parts.events.lastId(this.id);
  }

  turnFrom(): Promise<number> {
    return this.parts.events.turnFrom(this.id);
  }

  since(id: number): Promise<SessionEvent[]> {
    return this.parts.events.since(this.id, id);
  }

  subscribe(listener: (e: SessionEvent) => void): Promise<() => void> {
    return this.parts.events.subscribe(this.id, listener);
  }

  async start(step: TurnStep): Promise<void> {
    const turnId = randomUUID();
    const claim = `${turnId}@${Date.now()}`;
    if (!(await this.parts.events.claim(this.id, claim))) {
      // A claim whose job is gone (it failed for good) must not hold the session forever.
      if (await this.runningTurn()) throw new SessionBusyError(this.id);
      if (!(await this.parts.events.claim(this.id, claim))) throw new SessionBusyError(this.id);
    }
    try {
      // Answers carry the interrupts they answer as the session has them now, while this turn holds
      // it: the worker runs them only if the session still waits on exactly those.
      const record = await this.record();
      const answered = 'targets' in step ? answeredInterrupts(record.pendingInterrupts, step.targets) : undefined;
      const job = signTurnJob({ sessionId: this.id, turnId, step, claim, after: record.turnId ?? '', ...(answered ? { answered } : {}) }, this.parts.queueKey);
      await this.parts.queue.add('turn', job, { jobId: turnId, attempts: JOB_ATTEMPTS, backoff: { type: 'fixed', delay: 500 }, ...KEEP_JOBS });
    } catch (e) {
      await this.parts.events.release(this.id, claim);
      throw e;
    }
  }

  async cancel(): Promise<boolean> {
    const turnId = await this.runningTurn();
    if (!turnId) return false;
    // A turn not yet picked up finds the mark when it starts; a running one hears it.
    await this.parts.setCancel(turnId);
    await this.parts.publish(CANCEL_CHANNEL, JSON.stringify({ sessionId: this.id, turnId }));
    return true;
  }

  /** The turn holding the session, unless its job ended without freeing it (then it is freed). */
  private async runningTurn(): Promise<string | undefined> {
    const claim = await this.parts.events.running(this.id);
    if (!claim) return undefined;
    const [turnId = '', at = '0'] = claim.split('@');
    const state = await this.parts.queue.getJobState(turnId);
    // A job that ended without freeing the session (it failed for good), or one never added (the
    // server died between claim and enqueue; a fresh claim is given the moment to add it).
    const stale = state === 'failed' || state === 'completed' || (state === 'unknown' && Date.now() - Number(at) > CLAIM_GRACE_MS);
    if (!stale) return turnId;
    await this.parts.events.release(this.id, claim);
    return (await this.parts.events.running(this.id))?.split('@')[0];
  }
}

export { cancelKey };
