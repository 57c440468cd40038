import type { Redis } from 'ioredis';
import { EVENT_LOG_LIMIT, type SessionEvent } from '../served-session.js';

/** The Redis keys of one session's turns and events (hash-tagged: one cluster slot per session). */
export function sessionKeys(id: string) {
  return {
    seq: `adk-serve:{${id}}:seq`,
    stream: `adk-serve:{${id}}:events`,
    running: `adk-serve:{${id}}:running`,
    turnFrom: `adk-serve:{${id}}:turn-from`,
    channel: `adk-serve:events:${id}`,
  };
}

/** Where `POST …/cancel` reaches the worker running a turn. */
export const CANCEL_CHANNEL = 'adk-serve:cancel';
export const cancelKey = (turnId: string) => `adk-serve:cancel:${turnId}`;

/**
 * Numbers the event, appends it to the session's stream and tells subscribers, in one step; the
 * session's `done` also frees it (when `release` is its turn) before anyone hears of it.
 * KEYS: seq, stream, channel, running, turnFrom. ARGV: event JSON, max length, claim to release, '1' = first
 * event of a turn, claim that must still hold the session (else nothing is published: 0).
 */
const PUBLISH_SCRIPT = `
if ARGV[5] ~= '' and redis.call('GET', KEYS[4]) ~= ARGV[5] then return 0 end
local n = redis.call('INCR', KEYS[1])
local e = '{"id":' .. n .. ',"event":' .. ARGV[1] .. '}'
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[2], n .. '-1', 'e', e)
if ARGV[4] == '1' then redis.call('SET', KEYS[5], n) end
if ARGV[3] ~= '' and redis.call('GET', KEYS[4]) == ARGV[3] then redis.call('DEL', KEYS[4]) end
redis.call('PUBLISH', KEYS[3], e)
return n
`;

/** Deletes the key only if it still holds the value (a turn frees only its own claim). */
const RELEASE_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

type ScriptedRedis = Redis & {
  adkPublish(seq: string, stream: string, channel: string, running: string, turnFrom: string, event: string, max: number, release: string, first: string, onlyIf: string): Promise<number>;
  adkRelease(key: string, value: string): Promise<number>;
};

function withScripts(redis: Redis): ScriptedRedis {
  const r = redis as ScriptedRedis;
  if (typeof r.adkPublish !== 'function') {
    redis.defineCommand('adkPublish', { numberOfKeys: 5, lua: PUBLISH_SCRIPT });
    redis.defineCommand('adkRelease', { numberOfKeys: 1, lua: RELEASE_SCRIPT });
  }
  return r;
}

/**
 * Sessions' events in Redis, shared by every `adk serve` and `adk worker`: a stream per session
 * (kept to the last EVENT_LOG_LIMIT events) for replay, and a channel for live delivery. Ids count
 * up per session in Redis, so they go on across server restarts and between servers.
 */
export class RedisSessionEvents {
  private readonly redis: ScriptedRedis;
  private readonly channels = new Map<string, Channel>();

  /** `subscriber` is a connection of its own (a subscribed connection runs no other commands); none on workers. */
  constructor(redis: Redis, private readonly subscriber?: Redis) {
    this.redis = withScripts(redis);
    // Pub/sub drops what is published while the connection is down. Ids count up by one, so a jump
    // shows a gap: it is read back from the stream before the event after it is handed on. After a
    // reconnect each stream is read once more, for a gap at the end of a turn (nothing after it).
    subscriber?.on('message', (channel: string, text: string) => {
      const entry = this.channels.get(channel);
      if (entry) this.inOrder(entry, () => this.receive(entry, JSON.parse(text) as SessionEvent));
    });
    subscriber?.on('ready', () => {
      // Subscribed again first (on the same connection, so after the client's own re-subscribe),
      // then read back: nothing published after the read can be missed.
      for (const [channel, entry] of this.channels) this.inOrder(entry, () => subscriber.subscribe(channel).then(() => this.backfill(entry)));
    });
  }

  /** Runs each step of a channel after the one before, so events are handed on in id order. */
  private inOrder(entry: Channel, step: () => Promise<void>): void {
    entry.chain = entry.chain.then(step).catch(() => {});
  }

  private async receive(entry: Channel, e: SessionEvent): Promise<void> {
    if (e.id > entry.lastId + 1) await this.backfill(entry);
    deliver(entry, [e]);
  }

  private async backfill(entry: Channel): Promise<void> {
    // Ids only count up: a counter below what was delivered means Redis came back without its data
    // (a restart without persistence). The turn's claim went with it, so its worker can publish
    // nothing more: listeners are told the outcome is unknown instead of waiting for ever.
    if ((await this.lastId(entry.sessionId)) < entry.lastId) return deliver(entry, lostEvents(entry));
    deliver(entry, await this.since(entry.sessionId, entry.lastId));
  }

  /**
   * Appends an event (its JSON text, already redacted) and returns its id; with `onlyIf`, only while
   * that claim holds the session (0: not published).
   */
  publish(id: string, eventJson: string, opts: { release?: string | undefined; turnStart?: boolean | undefined; onlyIf?: string | undefined } = {}): Promise<number> {
    const k = sessionKeys(id);
    return this.redis.adkPublish(k.seq, k.stream, k.channel, k.running, k.turnFrom, eventJson, EVENT_LOG_LIMIT, opts.release ?? '', opts.turnStart ? '1' : '0', opts.onlyIf ?? '');
  }

  async since(id: string, after: number): Promise<SessionEvent[]> {
    const rows = await this.redis.xrange(sessionKeys(id).stream, `${Math.max(0, Math.floor(after)) + 1}-0`, '+');
    return rows.map(([, fields]) => JSON.parse(fields[1]!) as SessionEvent);
  }

  async lastId(id: string): Promise<number> {
    return Number((await this.redis.get(sessionKeys(id).seq)) ?? 0);
  }

  async turnFrom(id: string): Promise<number> {
    return Number((await this.redis.get(sessionKeys(id).turnFrom)) ?? 1);
  }

  /** Claims the session for a turn: false when another turn holds it. */
  async claim(id: string, turnId: string): Promise<boolean> {
    return (await this.redis.set(sessionKeys(id).running, turnId, 'NX')) === 'OK';
  }

  /** The turn holding the session, if any. */
  running(id: string): Promise<string | null> {
    return this.redis.get(sessionKeys(id).running);
  }

  /** Frees the session if `turnId` still holds it. */
  async release(id: string, turnId: string): Promise<void> {
    await this.redis.adkRelease(sessionKeys(id).running, turnId);
  }

  async delete(id: string): Promise<void> {
    const k = sessionKeys(id);
    await this.redis.del(k.seq, k.stream, k.running, k.turnFrom);
  }

  /** Live events of a session, from when the returned promise resolves. */
  async subscribe(id: string, listener: (e: SessionEvent) => void): Promise<() => void> {
    const subscriber = this.subscriber;
    if (!subscriber) throw new Error('this connection does not listen to events');
    const channel = sessionKeys(id).channel;
    let entry = this.channels.get(channel);
    if (!entry) {
      const created: Channel = { sessionId: id, listeners: new Set(), lastId: 0, ready: Promise.resolve(), chain: Promise.resolve() };
      // The newest id first, then the subscription: nothing arrives before the id it follows is known.
      created.ready = this.lastId(id).then((n) => {
        created.lastId = n;
        return subscriber.subscribe(channel);
      });
      this.channels.set(channel, created);
      entry = created;
    }
    const { listeners } = entry;
    listeners.add(listener);
    try {
      await entry.ready;
    } catch (e) {
      // A failed subscription is not kept for the next stream of this session to trip on.
      listeners.delete(listener);
      if (this.channels.get(channel) === entry) this.channels.delete(channel);
      throw e;
    }
    return () => {
      listeners.delete(listener);
      if (!listeners.size && this.channels.get(channel) === entry) {
        this.channels.delete(channel);
        void subscriber.unsubscribe(channel).catch(() => {});
      }
    };
  }
}

interface Channel {
  sessionId: string;
  listeners: Set<(e: SessionEvent) => void>;
  /** The newest event id delivered: a reconnect reads the stream after it. */
  lastId: number;
  ready: Promise<unknown>;
  /** The channel's deliveries and read-backs, one after another. */
  chain: Promise<void>;
}


/** What a channel's listeners are told when Redis lost the session's events: an error, then the end of the turn. */
function lostEvents(entry: Channel): SessionEvent[] {
  const message =
    'the store (Redis) restarted and lost this session\'s live state: what the turn did after that is unknown. Reload the session to see what was saved, and send the message again if it is missing.';
  return [
    { id: entry.lastId + 1, event: { type: 'error', agent: '', runPath: [], message } },
    { id: entry.lastId + 2, event: { type: 'done', status: 'error', sessionId: entry.sessionId, output: '', usage: { promptTokens: 0, completionTokens: 0 } } },
  ] as SessionEvent[];
}

/** Hands events to a channel's listeners once each, in id order. */
function deliver(entry: Channel, events: SessionEvent[]): void {
  for (const e of events) {
    if (e.id <= entry.lastId) continue;
    entry.lastId = e.id;
    for (const l of entry.listeners) l(e);
  }
}
