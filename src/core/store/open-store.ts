import { mkdirSync } from 'node:fs';
import { ConfigError } from '../errors.js';
import { KeyvKeyValueStore, makeKeyv, type Backend, type KeyValueStore } from './key-value-store.js';
import { defaultAdkHome, parseStoreUrl } from './store-url.js';

/** Options of openKeyValueStore; times are in milliseconds and each backend reads only its own. */
export interface OpenStoreOptions {
  /** Where the default SQLite file lives; defaults to ADK_HOME, else ~/.adk. */
  adkHome?: string | undefined;
  /** Key prefix on the backend (letters, digits, `_`, `-`); default `adk`. */
  namespace?: string | undefined;
  /** SQLite: how long to wait on another process's lock before each retry (default 5000). */
  busyTimeoutMs?: number | undefined;
  /** SQLite: retries after a lock timeout (default 3). */
  lockRetries?: number | undefined;
  /** Redis/Postgres: connection timeout (default 5000). */
  connectTimeoutMs?: number | undefined;
  /** Redis/Postgres: an operation that takes longer fails (default 10000). */
  operationTimeoutMs?: number | undefined;
  /** Environment used for ADK_STORE and ADK_HOME (default process.env). */
  env?: NodeJS.ProcessEnv | undefined;
}

/**
 * Opens the store at `url`, else ADK_STORE, else `${ADK_HOME}/adk.sqlite`.
 * Backends are imported on demand, so SQLite users never load the Redis or Postgres clients.
 */
export async function openKeyValueStore(url?: string, opts: OpenStoreOptions = {}): Promise<KeyValueStore> {
  const env = opts.env ?? process.env;
  const namespace = opts.namespace ?? 'adk';
  if (!/^[A-Za-z0-9_-]+$/.test(namespace)) throw new ConfigError(`invalid store namespace "${namespace}": use letters, digits, _ or -`);
  const adkHome = opts.adkHome ?? defaultAdkHome(env);
  const loc = parseStoreUrl(url ?? env.ADK_STORE, adkHome);
  let backend: Backend;
  switch (loc.kind) {
    case 'memory':
      backend = memoryBackend();
      break;
    case 'sqlite': {
      if (!url && !env.ADK_STORE) mkdirSync(adkHome, { recursive: true, mode: 0o700 });
      const { openSqliteBackend } = await import('./sqlite-backend.js');
      backend = await openSqliteBackend(loc.target, opts);
      break;
    }
    case 'redis': {
      const { openRedisBackend } = await import('./redis-backend.js');
      backend = await openRedisBackend(loc, opts);
      break;
    }
    case 'postgres': {
      const { openPostgresBackend } = await import('./postgres-backend.js');
      backend = await openPostgresBackend(loc, opts);
      break;
    }
  }
  return new KeyvKeyValueStore(backend, namespace);
}

function memoryBackend(): Backend {
  const map = new Map<string, string>();
  const leases = new Map<string, { owner: string; holder: string; expires: number }>();
  const counters = new Map<string, { value: number; expires: number }>();
  const live = (key: string) => {
    const c = counters.get(key);
    return c && c.expires > Date.now() ? c : undefined;
  };
  return {
    counters: {
      add: async (key, amount, ttlMs) => {
        const c = live(key);
        const value = (c?.value ?? 0) + amount;
        counters.set(key, { value, expires: c?.expires ?? Date.now() + ttlMs });
        return value;
      },
      get: async (key) => live(key)?.value ?? 0,
    },
    leases: {
      acquire: async (key, owner, holder, ttlMs) => {
        const l = leases.get(key);
        if (l && l.expires > Date.now() && l.owner !== owner) return { ok: false, holder: l.holder };
        leases.set(key, { owner, holder, expires: Date.now() + ttlMs });
        return { ok: true };
      },
      renew: async (key, owner, holder, ttlMs) => {
        const l = leases.get(key);
        if (!l || l.owner !== owner) return false;
        leases.set(key, { owner, holder, expires: Date.now() + ttlMs });
        return true;
      },
      release: async (key, owner) => {
        if (leases.get(key)?.owner === owner) leases.delete(key);
      },
    },
    kind: 'memory',
    display: 'memory:',
    keyv: makeKeyv(map),
    listKeys: async (prefix) => [...map.keys()].filter((k) => k.startsWith(prefix)),
    close: async () => map.clear(),
    wrapError: (e) => (e instanceof Error ? e : new Error(String(e))),
  };
}
