import { createRequire } from 'node:module';
import { describeCause, StoreError } from './errors.js';
import { makeKeyv, type Backend } from './key-value-store.js';
import { importDriver } from './optional-driver.js';
import type { NetworkOptions } from './redis-backend.js';
import { scrub, type StoreLocation } from './store-url.js';
import { importModule } from '../dynamic-import.js';

const TABLE = 'public.keyv';
const LEASES = 'public.adk_leases';
const COUNTERS = 'public.adk_counters';

interface PgPool {
  query(sql: string, values?: unknown): Promise<{ rows: unknown[] }>;
  end(): Promise<void>;
  on(event: 'error', listener: (e: Error) => void): unknown;
}

/** Postgres through @keyv/postgres (a pg pool); connection and query time are bounded. */
export async function openPostgresBackend(loc: StoreLocation, opts: NetworkOptions = {}): Promise<Backend> {
  const display = loc.display;
  const connectTimeout = opts.connectTimeoutMs ?? 5000;
  const operationTimeoutMs = opts.operationTimeoutMs ?? 10_000;
  const { KeyvPostgres } = await importDriver(() => importModule<typeof import('@keyv/postgres')>('@keyv/postgres'), '@keyv/postgres', 'postgres://', display);
  // @keyv/postgres's shared pool has no 'error' listener, so a server restart would crash the
  // process (an idle connection dying emits 'error'). Each store gets its own pool, with one.
  // pg is loaded from where @keyv/postgres finds it: it is that package's dependency.
  const pg = createRequire(createRequire(import.meta.url).resolve('@keyv/postgres'))('pg') as { Pool: new (config: object) => PgPool };
  const pool = new pg.Pool({ connectionString: loc.target, connectionTimeoutMillis: connectTimeout, query_timeout: operationTimeoutMs, max: 4 });
  pool.on('error', () => {}); // the next query opens a fresh connection, or fails clearly
  class PooledPostgres extends KeyvPostgres {
    override async connect() {
      return async (sql: string, values?: unknown) => (await pool.query(sql, values)).rows as any[];
    }
    override async disconnect() {
      await pool.end();
    }
  }
  const adapter = new PooledPostgres({ uri: loc.target });
  adapter.on('error', () => {}); // the table creation failure resurfaces on the first query below
  const wrapError = (e: unknown, op: string): Error => {
    if (e instanceof StoreError) return e;
    const code = (e as { code?: unknown }).code;
    // pg server errors carry a 5-character SQLSTATE; anything else is the connection.
    const fromServer = typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && !code.startsWith('08');
    const message = scrub(
      fromServer ? `${op} on postgres store ${display} failed: ${describeCause(e)}` : `${op} failed: cannot reach postgres store ${display}: ${describeCause(e)}`,
      loc.secrets,
    );
    return new StoreError(fromServer ? 'store_failed' : 'store_unavailable', message, display, { cause: e });
  };
  try {
    await adapter.query(`CREATE TABLE IF NOT EXISTS ${TABLE}(key VARCHAR(255) PRIMARY KEY, value TEXT)`);
    await adapter.query(`CREATE TABLE IF NOT EXISTS ${LEASES}(key TEXT PRIMARY KEY, owner TEXT NOT NULL, holder TEXT NOT NULL, expires TIMESTAMPTZ NOT NULL)`);
    await adapter.query(`CREATE TABLE IF NOT EXISTS ${COUNTERS}(key TEXT PRIMARY KEY, value DOUBLE PRECISION NOT NULL, expires TIMESTAMPTZ NOT NULL)`);
  } catch (e) {
    // 23505: another process created the table at the same moment.
    if ((e as { code?: unknown }).code !== '23505') {
      await adapter.disconnect().catch(() => {});
      throw wrapError(e, 'connect');
    }
  }
  return {
    kind: 'postgres',
    display,
    keyv: makeKeyv(adapter),
    listKeys: async (prefix) => {
      const rows = (await adapter.query(`SELECT key FROM ${TABLE} WHERE substr(key, 1, char_length($1::text)) = $1::text`, [prefix])) as Array<{ key: string }>;
      return rows.map((r) => r.key);
    },
    close: () => adapter.disconnect(),
    wrapError,
    operationTimeoutMs,
    leases: postgresLeases(async (sql, values) => (await pool.query(sql, values)).rows as Array<Record<string, string>>),
    counters: postgresCounters(async (sql, values) => (await pool.query(sql, values)).rows as Array<Record<string, string>>),
  };
}

/** Leases with the server's clock; the upsert takes a free, expired or own lease in one statement. */
/** One upsert adds and returns the total, atomically; an expired counter starts again. */
function postgresCounters(query: (sql: string, values: unknown[]) => Promise<Array<Record<string, string>>>): Backend['counters'] {
  return {
    add: async (key, amount, ttlMs) => {
      const rows = await query(
        `INSERT INTO ${COUNTERS}(key, value, expires) VALUES($1, $2, now() + $3 * interval '1 millisecond')
         ON CONFLICT (key) DO UPDATE SET
           value = CASE WHEN ${COUNTERS}.expires <= now() THEN EXCLUDED.value ELSE ${COUNTERS}.value + EXCLUDED.value END,
           expires = CASE WHEN ${COUNTERS}.expires <= now() THEN EXCLUDED.expires ELSE ${COUNTERS}.expires END
         RETURNING value`,
        [key, amount, ttlMs],
      );
      return Number(rows[0]?.value ?? amount);
    },
    get: async (key) => Number((await query(`SELECT value FROM ${COUNTERS} WHERE key = $1 AND expires > now()`, [key]))[0]?.value ?? 0),
  };
}

function postgresLeases(query: (sql: string, values: unknown[]) => Promise<Array<Record<string, string>>>): Backend['leases'] {
  return {
    acquire: async (key, owner, holder, ttlMs) => {
      const taken = await query(
        `INSERT INTO ${LEASES}(key, owner, holder, expires) VALUES($1, $2, $3, now() + $4 * interval '1 millisecond')
         ON CONFLICT (key) DO UPDATE SET owner = EXCLUDED.owner, holder = EXCLUDED.holder, expires = EXCLUDED.expires
         WHERE ${LEASES}.expires < now() OR ${LEASES}.owner = EXCLUDED.owner
         RETURNING owner`,
        [key, owner, holder, ttlMs],
      );
      if (taken.length) return { ok: true };
      const row = (await query(`SELECT holder FROM ${LEASES} WHERE key = $1`, [key]))[0];
      return { ok: false, holder: row?.holder ?? '{}' };
    },
    renew: async (key, owner, holder, ttlMs) =>
      (await query(`UPDATE ${LEASES} SET expires = now() + $1 * interval '1 millisecond', holder = $2 WHERE key = $3 AND owner = $4 RETURNING owner`, [ttlMs, holder, key, owner])).length > 0,
    release: async (key, owner) => {
      await query(`DELETE FROM ${LEASES} WHERE key = $1 AND owner = $2`, [key, owner]);
    },
  };
}
