import { Conversation } from '../core/conversation/conversation.js';
import type { ConversationTeam } from '../core/conversation/team.js';
import type { AdkStores } from '../core/store/adk-stores.js';
import type { SessionRecord } from '../core/store/session-record.js';
import { lockSession, type SessionLease } from '../core/store/session-lock.js';
import { newSessionId } from '../core/store/session-store.js';
import { LiveSession } from './live-session.js';
import { servedId, ServerStoppingError, UnknownSessionError, type ServedHub } from './served-session.js';
import type { SessionPolicy } from '../core/conversation/session-policy.js';

export { UnknownSessionError } from './served-session.js';

/** A team the server runs, and how to let it go. */
export interface ServedTeam extends ConversationTeam {
  close?(): Promise<void>;
}

/** Where the server's sessions and teams come from (the CLI builds teams from agents.yaml). */
export interface SessionHubOptions {
  stores: AdkStores;
  /** The team of a new session: the root agent named, or the default one. Throws for an unknown name. */
  newTeam(agent?: string): Promise<ServedTeam>;
  /** The team a saved session runs with (its agents file, workspace and root agent). */
  sessionTeam(record: SessionRecord): Promise<ServedTeam>;
  /** A session nobody used for this long is let go (lease, team, event log); default 10 minutes. */
  idleMs?: number | undefined;
}

/** How long an unused session stays open by default. */
export const DEFAULT_SESSION_IDLE_MS = 10 * 60_000;

/**
 * The sessions this server holds open. A session is opened (its lease taken) on first use and kept
 * while it is used, so one process serves it; another process holding it is an error. A session
 * left idle is closed (its lease given up, its team's tools stopped) and opened again on next use.
 */
export class SessionHub implements ServedHub {
  private readonly open = new Map<string, Promise<LiveSession>>();
  private readonly sweeper: NodeJS.Timeout;
  /** close() has begun: sessions a request was still opening are given back, not kept. */
  private closing = false;

  constructor(private readonly options: SessionHubOptions) {
    const idleMs = options.idleMs ?? DEFAULT_SESSION_IDLE_MS;
    this.sweeper = setInterval(() => void this.closeIdle(idleMs), Math.min(idleMs, 60_000));
    this.sweeper.unref();
  }

  /** Closes the sessions idle for `idleMs`. */
  private async closeIdle(idleMs: number): Promise<void> {
    const now = Date.now();
    for (const [id, pending] of this.open) {
      const live = await pending.catch(() => undefined);
      if (!live || !live.idleFor(idleMs, now) || this.open.get(id) !== pending) continue;
      this.open.delete(id);
      await live.close().catch(() => {});
    }
  }

  get stores(): AdkStores {
    return this.options.stores;
  }

  async create(init: { agent?: string | undefined; title?: string | undefined; policy?: SessionPolicy | undefined }): Promise<LiveSession> {
    this.refuseWhenClosing();
    const team = await this.options.newTeam(init.agent);
    let lease: SessionLease | undefined;
    try {
      this.refuseWhenClosing();
      lease = await lockSession(this.stores.kv, newSessionId());
      const conv = await Conversation.create(this.stores, team, lease, { title: init.title, served: true, policy: init.policy });
      conv.followsPolicy = true;
      if (this.closing) {
        // close() has already looked at the open sessions: this one would stay open.
        await this.stores.sessions.delete(conv.id).catch(() => false);
        throw new ServerStoppingError();
      }
      const live = new LiveSession(conv, team);
      this.open.set(live.id, Promise.resolve(live));
      return live;
    } catch (e) {
      await lease?.release();
      await team.close?.();
      throw e;
    }
  }

  private refuseWhenClosing(): void {
    if (this.closing) throw new ServerStoppingError();
  }

  /** The live session `id` (a unique prefix works), opening it if needed. */
  async get(idOrPrefix: string): Promise<LiveSession> {
    this.refuseWhenClosing();
    const id = await this.resolve(idOrPrefix);
    let live = this.open.get(id);
    if (!live) {
      // Past close()'s look at the open sessions, a new one would stay open: refused instead.
      this.refuseWhenClosing();
      live = this.openSession(id);
      this.open.set(id, live);
      live.catch(() => this.open.delete(id));
    }
    const session = await live;
    session.touch();
    return session;
  }

  /** Only a session this server holds open can run a turn here. */
  async busy(id: string): Promise<boolean> {
    const live = await this.open.get(id)?.catch(() => undefined);
    return (await live?.busy()) ?? false;
  }

  /**
   * Stops any turn, lets the session go and deletes it from the store. A session this server does
   * not hold is taken first: one a CLI turn holds is 409 `session_in_use`, never deleted under it.
   */
  async delete(idOrPrefix: string): Promise<void> {
    const id = await this.resolve(idOrPrefix);
    const live = await this.open.get(id)?.catch(() => undefined);
    this.open.delete(id);
    if (live) {
      await live.cancel();
      await live.settle();
      await live.close(() => new UnknownSessionError(id));
      await this.stores.sessions.delete(id);
      return;
    }
    const lease = await lockSession(this.stores.kv, id);
    try {
      await this.stores.sessions.delete(id);
      await this.stores.checkpoints.delete(id);
    } finally {
      await lease.release();
    }
  }

  /** Lets running turns finish (or reach a safe point when `cancel`), then closes every session. */
  async close(opts: { cancel?: boolean } = {}): Promise<void> {
    this.closing = true;
    clearInterval(this.sweeper);
    const all = await Promise.all([...this.open.values()].map((p) => p.catch(() => undefined)));
    this.open.clear();
    for (const live of all) if (live && opts.cancel) await live.cancel();
    await Promise.all(all.map(async (live) => live && (await live.settle(), await live.close())));
  }

  /** A session this server shows (made through serve, or shared): any other is unknown here. */
  private async resolve(idOrPrefix: string): Promise<string> {
    if (this.open.has(idOrPrefix)) return idOrPrefix;
    return servedId(this.stores, idOrPrefix);
  }

  private async openSession(id: string): Promise<LiveSession> {
    const lease = await lockSession(this.stores.kv, id);
    try {
      const record = await this.stores.sessions.get(id, { from: 'context' });
      if (!record) throw new UnknownSessionError(id);
      const team = await this.options.sessionTeam(record);
      const conv = Conversation.open(this.stores, team, record, lease);
      conv.followsPolicy = true;
      return new LiveSession(conv, team);
    } catch (e) {
      await lease.release();
      throw e;
    }
  }
}
