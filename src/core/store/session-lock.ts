import { randomUUID } from 'node:crypto';
import { readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { AdkError } from '../errors.js';
import type { KeyValueStore } from './key-value-store.js';

/** Who holds a session: shown to the person a second process turns away. */
export interface LeaseHolder {
  owner: string;
  pid: number;
  host: string;
  /** The pid namespace (Linux): pids of two containers on one host are not comparable. */
  pidns?: string | undefined;
  since: string;
}

/** A session is being run by another process. */
export class SessionInUseError extends AdkError {
  constructor(
    readonly sessionId: string,
    readonly holder: Partial<LeaseHolder>,
  ) {
    super('session_in_use', `session ${sessionId} is in use by pid ${holder.pid ?? '?'} on ${holder.host ?? '?'} since ${holder.since ?? '?'}`);
  }
}

/** A held session lock from lockSession; `release()` it when done writing. */
export interface SessionLease {
  readonly sessionId: string;
  /** Aborts if the lease is lost (another process took it after it expired): stop writing then. */
  readonly signal: AbortSignal;
  release(): Promise<void>;
}

/** Timing of a session lease, in milliseconds. */
export interface LockOptions {
  /** How long a lease lives without a heartbeat; another process takes it after that (default 15 s). */
  ttlMs?: number | undefined;
  /** How often the holder renews it (default a third of the ttl). */
  heartbeatMs?: number | undefined;
}

/** How long a session lease lives without renewal by default, in milliseconds. */
export const DEFAULT_LEASE_TTL_MS = 15_000;

/**
 * One writer per session. The lease is renewed while held; if its owner dies it expires after
 * `ttlMs`, and at once when the owner was a process on this machine (same host and pid namespace)
 * that no longer exists. A holder whose renewals stop landing for a ttl sees `signal` abort.
 */
export async function lockSession(kv: KeyValueStore, sessionId: string, opts: LockOptions = {}): Promise<SessionLease> {
  const ttlMs = opts.ttlMs ?? DEFAULT_LEASE_TTL_MS;
  const key = `session:${sessionId}`;
  const me: LeaseHolder = { owner: randomUUID(), pid: process.pid, host: hostname(), pidns: pidNamespace(), since: new Date().toISOString() };
  const text = JSON.stringify(me);
  let got = await kv.leases.acquire(key, me.owner, text, ttlMs);
  if (!got.ok) {
    const holder = parseHolder(got.holder);
    const sameMachine = holder.host === me.host && !!me.pidns && holder.pidns === me.pidns;
    if (holder.owner && sameMachine && typeof holder.pid === 'number' && !processAlive(holder.pid)) {
      await kv.leases.release(key, holder.owner);
      got = await kv.leases.acquire(key, me.owner, text, ttlMs);
    }
    if (!got.ok) throw new SessionInUseError(sessionId, parseHolder(got.holder));
  }

  const lost = new AbortController();
  let released = false;
  let renewedAt = Date.now();
  const timer = setInterval(() => {
    kv.leases.renew(key, me.owner, text, ttlMs).then(
      (ok) => {
        if (ok) renewedAt = Date.now();
        else if (!released) lost.abort(new SessionInUseError(sessionId, {}));
      },
      () => {
        // A store hiccup: the next beat tries again. Once no renewal has landed for a whole ttl,
        // another process may hold the session: stop before writing over it.
        if (!released && Date.now() - renewedAt >= ttlMs) lost.abort(new SessionInUseError(sessionId, {}));
      },
    );
  }, opts.heartbeatMs ?? Math.max(50, Math.floor(ttlMs / 3)));
  timer.unref();
  return {
    sessionId,
    signal: lost.signal,
    async release() {
      if (released) return;
      released = true;
      clearInterval(timer);
      await kv.leases.release(key, me.owner).catch(() => {}); // it expires by itself
    },
  };
}

function parseHolder(text: string): Partial<LeaseHolder> {
  try {
    const v = JSON.parse(text) as Partial<LeaseHolder>;
    return v && typeof v === 'object' ? v : {};
  } catch {
    return {};
  }
}

/** `pid:[4026531836]` on Linux; undefined elsewhere (then a lease is only ever taken by expiry). */
function pidNamespace(): string | undefined {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return undefined;
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
