import { randomUUID } from 'node:crypto';
import type { AdkStores } from '../../../core/store/adk-stores.js';

/** What the store keeps for a DeerFlow thread: its session, and how many requests it has streamed. */
interface ThreadRecord {
  session: string;
  requests: number;
}

const KEY = (thread: string) => `deerflow-thread:${thread}`;

/**
 * DeerFlow threads → adk sessions, kept in the store so a thread outlives the server. Each
 * request of a thread takes the next number, kept with it: message ids made from it are unique for
 * the life of the thread, also across a restart, as DeerFlow's front end needs (it keys messages by id).
 */
export class DeerFlowThreads {
  constructor(private readonly stores: AdkStores) {}

  /** DeerFlow's `__default__` means "a new thread": a new id, as its server mints one (uuid4). */
  static mint(thread: string): string {
    return thread === '__default__' ? randomUUID() : thread;
  }

  async session(thread: string): Promise<string | undefined> {
    return (await this.read(thread))?.session;
  }

  async bind(thread: string, session: string): Promise<void> {
    await this.stores.kv.set(KEY(thread), JSON.stringify({ session, requests: 0 } satisfies ThreadRecord));
  }

  /** Takes the thread's next request number (1, 2, …); one request runs at a time per thread (its session's turn). */
  async nextRequest(thread: string): Promise<number> {
    const r = await this.read(thread);
    if (!r) throw new Error(`no DeerFlow thread ${thread}`);
    const next = { ...r, requests: r.requests + 1 };
    await this.stores.kv.set(KEY(thread), JSON.stringify(next));
    return next.requests;
  }

  private async read(thread: string): Promise<ThreadRecord | undefined> {
    const raw = (await this.stores.kv.get(KEY(thread))) as string | undefined;
    if (!raw) return undefined;
    // Before issue 33 the value was the bare session id.
    if (!raw.startsWith('{')) return { session: raw, requests: 0 };
    const r = JSON.parse(raw) as ThreadRecord;
    return typeof r.session === 'string' ? { session: r.session, requests: Number(r.requests) || 0 } : undefined;
  }
}
