import { Keyv, type KeyvStoreAdapter } from 'keyv';
import { sleep } from '../abort.js';
import { StoreError } from './errors.js';
import type { StoreKind } from './store-url.js';

/** A string key-value store. Keys are namespaced (default `adk:`) on the backend. */
export interface KeyValueStore {
  readonly kind: StoreKind;
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  /** Values in the order of `keys` (undefined where absent). */
  getMany(keys: readonly string[]): Promise<Array<string | undefined>>;
  /** Sets every entry; each one is atomic, the batch as a whole is not (write what others point at first). */
  setMany(entries: ReadonlyArray<{ key: string; value: string }>): Promise<void>;
  /** True when the key existed. */
  delete(key: string): Promise<boolean>;
  deleteMany(keys: readonly string[]): Promise<void>;
  /** Keys (without namespace) that start with `prefix`, sorted. */
  list(prefix: string): Promise<string[]>;
  close(): Promise<void>;
  /** The store's URL without credentials. */
  describe(): string;
  /** Expiring, owner-checked locks (one writer per session). */
  readonly leases: LeaseOps;
  /** Shared numbers several processes add to at once (daily budgets): each add is atomic. */
  readonly counters: CounterOps;
}

/** Atomic counters on one backend: an add returns the total after it; a counter past its expiry starts again from 0. */
export interface CounterOps {
  add(key: string, amount: number, ttlMs: number): Promise<number>;
  get(key: string): Promise<number>;
}

/**
 * Atomic lease operations on one backend. A lease is free when absent or expired; its holder
 * text is opaque here (JSON with owner, pid, host, since).
 */
export interface LeaseOps {
  /** Takes the lease if it is free, expired or already `owner`'s; else returns the holder text. */
  acquire(key: string, owner: string, holder: string, ttlMs: number): Promise<{ ok: true } | { ok: false; holder: string }>;
  /** Extends `owner`'s lease; false when it is no longer theirs. */
  renew(key: string, owner: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Drops the lease if `owner` holds it. */
  release(key: string, owner: string): Promise<void>;
}

/** What each backend provides to the shared keyv wrapper. Keys here are physical (namespaced). */
export interface Backend {
  kind: StoreKind;
  display: string;
  keyv: Keyv<string>;
  listKeys(physicalPrefix: string): Promise<string[]>;
  close(): Promise<void>;
  /** Turns a low-level failure into a clear StoreError. */
  wrapError(e: unknown, op: string): Error;
  /** Failures worth retrying inside one operation (SQLite lock contention). */
  isTransient?(e: unknown): boolean;
  transientRetries?: number | undefined;
  /** Network backends: an operation that takes longer fails instead of hanging. */
  operationTimeoutMs?: number | undefined;
  /** Leases on physical keys. */
  leases: LeaseOps;
  /** Counters on physical keys. */
  counters: CounterOps;
}

/** Keyv with its own key prefixing off (we prefix ourselves, the same way on every backend) and errors thrown. */
export function makeKeyv(adapter: KeyvStoreAdapter | Map<string, string>): Keyv<string> {
  const keyv = new Keyv<string>(adapter as KeyvStoreAdapter, { namespace: undefined, useKeyPrefix: false, throwOnErrors: true });
  keyv.on('error', () => {}); // errors reach the caller through the rejected operation
  return keyv;
}

export class KeyvKeyValueStore implements KeyValueStore {
  private closed = false;
  private readonly prefix: string;

  constructor(private readonly backend: Backend, namespace: string) {
    this.prefix = `${namespace}:`;
  }

  get kind(): StoreKind {
    return this.backend.kind;
  }

  describe(): string {
    return this.backend.display;
  }

  async get(key: string): Promise<string | undefined> {
    const value = await this.op('get', () => this.backend.keyv.get(this.prefix + key));
    if (value === undefined || value === null) return undefined;
    return typeof value === 'string' ? value : JSON.stringify(value);
  }

  async set(key: string, value: string): Promise<void> {
    if (typeof value !== 'string') throw new TypeError(`store values must be strings (key ${key})`);
    await this.op('set', () => this.backend.keyv.set(this.prefix + key, value));
  }

  async delete(key: string): Promise<boolean> {
    return this.op('delete', () => this.backend.keyv.delete(this.prefix + key));
  }

  async getMany(keys: readonly string[]): Promise<Array<string | undefined>> {
    if (!keys.length) return [];
    const values = await this.op('get', () => this.backend.keyv.getMany(keys.map((k) => this.prefix + k)));
    return values.map((v) => (v === undefined || v === null ? undefined : typeof v === 'string' ? v : JSON.stringify(v)));
  }

  async setMany(entries: ReadonlyArray<{ key: string; value: string }>): Promise<void> {
    if (!entries.length) return;
    for (const e of entries) if (typeof e.value !== 'string') throw new TypeError(`store values must be strings (key ${e.key})`);
    const ok = await this.op('set', () => this.backend.keyv.setMany(entries.map((e) => ({ key: this.prefix + e.key, value: e.value }))));
    if (Array.isArray(ok) && ok.some((x) => x === false)) {
      throw new StoreError('store_failed', `set on store ${this.backend.display} failed for some of ${entries.length} keys`, this.backend.display);
    }
  }

  async deleteMany(keys: readonly string[]): Promise<void> {
    // In slices: one statement per slice keeps SQLite's and Postgres's parameter lists short.
    for (let i = 0; i < keys.length; i += 500) {
      const slice = keys.slice(i, i + 500).map((k) => this.prefix + k);
      await this.op('delete', () => this.backend.keyv.deleteMany(slice));
    }
  }

  async list(prefix: string): Promise<string[]> {
    const keys = await this.op('list', () => this.backend.listKeys(this.prefix + prefix));
    return [...new Set(keys)]
      .filter((k) => k.startsWith(this.prefix + prefix))
      .map((k) => k.slice(this.prefix.length))
      .sort();
  }

  get leases(): LeaseOps {
    const b = this.backend.leases;
    const k = (key: string) => `${this.prefix}lease:${key}`;
    return {
      acquire: (key, owner, holder, ttlMs) => this.op('lock', () => b.acquire(k(key), owner, holder, ttlMs)),
      renew: (key, owner, holder, ttlMs) => this.op('lock', () => b.renew(k(key), owner, holder, ttlMs)),
      release: (key, owner) => this.op('unlock', () => b.release(k(key), owner)),
    };
  }

  get counters(): CounterOps {
    const c = this.backend.counters;
    const k = (key: string) => `${this.prefix}counter:${key}`;
    return {
      add: (key, amount, ttlMs) => this.op('set', () => c.add(k(key), amount, ttlMs)),
      get: (key) => this.op('get', () => c.get(k(key))),
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.backend.close();
  }

  private async op<T>(name: string, fn: () => Promise<T>): Promise<T> {
    if (this.closed) throw new StoreError('store_failed', `store ${this.backend.display} is closed`, this.backend.display);
    for (let attempt = 0; ; attempt++) {
      try {
        return await withTimeout(fn(), this.backend.operationTimeoutMs, () =>
          new StoreError('store_unavailable', `${name} on store ${this.backend.display} timed out after ${this.backend.operationTimeoutMs} ms`, this.backend.display),
        );
      } catch (e) {
        if (e instanceof StoreError) throw e;
        if (this.backend.isTransient?.(e) && attempt < (this.backend.transientRetries ?? 0)) {
          await sleep(backoffMs(attempt, 50, 1000));
          continue;
        }
        throw this.backend.wrapError(e, name);
      }
    }
  }
}

export function backoffMs(attempt: number, baseMs: number, maxMs: number): number {
  const exp = Math.min(maxMs, baseMs * 2 ** attempt);
  return exp / 2 + Math.random() * (exp / 2);
}

export function withTimeout<T>(promise: Promise<T>, ms: number | undefined, onTimeout: () => Error): Promise<T> {
  if (!ms) return promise;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(onTimeout()), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}
