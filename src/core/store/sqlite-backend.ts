import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import type { KeyvSqlite } from '@keyv/sqlite';
import { sleep } from '../abort.js';
import { describeCause, StoreError } from './errors.js';
import { backoffMs, makeKeyv, type Backend } from './key-value-store.js';
import { importDriver } from './optional-driver.js';
import { importModule } from '../dynamic-import.js';

export interface SqliteOptions {
  /** How long SQLite itself waits on a lock before reporting SQLITE_BUSY. */
  busyTimeoutMs?: number | undefined;
  /** Further attempts, with backoff, after SQLITE_BUSY. */
  lockRetries?: number | undefined;
}

const TABLE = 'keyv';
const LEASES = 'adk_leases';
const COUNTERS = 'adk_counters';

export function isSqliteBusy(e: unknown): boolean {
  const code = (e as { code?: unknown } | undefined)?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || (e instanceof Error && /database (table )?is locked/i.test(e.message));
}

/** A SQLite file in WAL mode with synchronous=FULL: a confirmed write survives kill -9 and power loss. */
export async function openSqliteBackend(file: string, opts: SqliteOptions = {}): Promise<Backend> {
  const busyTimeout = opts.busyTimeoutMs ?? 5000;
  const retries = opts.lockRetries ?? 3;
  const display = `sqlite://${file}`;
  const wrapError = (e: unknown, op: string): Error => sqliteError(e, op, file, display);
  prepareFile(file, display);
  const { KeyvSqlite } = await importDriver(() => importModule<typeof import('@keyv/sqlite')>('@keyv/sqlite'), '@keyv/sqlite', 'sqlite://', display);

  let adapter: KeyvSqlite | undefined;
  for (let attempt = 0; !adapter; attempt++) {
    const candidate = new KeyvSqlite({ uri: `sqlite://${file}`, busyTimeout, table: TABLE });
    candidate.on('error', () => {}); // reported through the awaited queries below
    try {
      await candidate.query('PRAGMA journal_mode=WAL');
      await candidate.query('PRAGMA synchronous=FULL');
      await candidate.query(`CREATE TABLE IF NOT EXISTS ${LEASES}(key TEXT PRIMARY KEY, owner TEXT NOT NULL, holder TEXT NOT NULL, expires INTEGER NOT NULL)`);
      await candidate.query(`CREATE TABLE IF NOT EXISTS ${COUNTERS}(key TEXT PRIMARY KEY, value REAL NOT NULL, expires INTEGER NOT NULL)`);
      adapter = candidate;
    } catch (e) {
      await candidate.close().catch(() => {});
      if (!isSqliteBusy(e) || attempt >= retries) throw wrapError(e, 'open');
      await sleep(backoffMs(attempt, 50, 1000));
    }
  }

  const ready = adapter;
  return {
    kind: 'sqlite',
    display,
    keyv: makeKeyv(ready),
    // A range on the primary key finds the prefix without reading the whole table (millions of message
    // records); substr/length then match it exactly (LIKE would be case-insensitive).
    listKeys: async (prefix) => {
      const upper = prefixUpperBound(prefix);
      const rows = (
        upper === undefined
          ? await ready.query(`SELECT key FROM ${TABLE} WHERE substr(key, 1, length(?)) = ?`, prefix, prefix)
          : await ready.query(`SELECT key FROM ${TABLE} WHERE key >= ? AND key < ? AND substr(key, 1, length(?)) = ?`, prefix, upper, prefix, prefix)
      ) as Array<{ key: string }>;
      return rows.map((r) => r.key);
    },
    close: () => ready.disconnect(),
    leases: sqliteLeases((sql, ...params) => ready.query(sql, ...params) as Promise<unknown[]>),
    counters: sqliteCounters((sql, ...params) => ready.query(sql, ...params) as Promise<unknown[]>),
    wrapError,
    isTransient: isSqliteBusy,
    transientRetries: retries,
  };
}

/**
 * The least string greater than every string that starts with `prefix`, in SQLite's binary order
 * (UTF-8 bytes, which for these keys is code point order): the prefix with its last character
 * moved up by one. Undefined when there is no such bound worth using (empty, or a surrogate at the end).
 */
export function prefixUpperBound(prefix: string): string | undefined {
  if (!prefix) return undefined;
  const last = prefix.charCodeAt(prefix.length - 1);
  if (last >= 0xd7ff) return undefined;
  return prefix.slice(0, -1) + String.fromCharCode(last + 1);
}

function prepareFile(file: string, display: string): void {
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    // Sessions hold private conversations: create the file owner-only (SQLite gives -wal/-shm the same mode).
    if (!existsSync(file)) closeSync(openSync(file, 'a', 0o600));
  } catch (e) {
    throw new StoreError('store_failed', `cannot create the store ${display}: ${describeCause(e)}`, display, { cause: e });
  }
}

function sqliteError(e: unknown, op: string, file: string, display: string): Error {
  if (e instanceof StoreError) return e;
  const code = (e as { code?: unknown } | undefined)?.code;
  if (isSqliteBusy(e)) return new StoreError('store_locked', `store is locked by another process: ${file}`, display, { cause: e });
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
    return new StoreError('store_failed', `the store ${file} is not a valid SQLite database (${describeCause(e)})`, display, { cause: e });
  }
  if (code === 'SQLITE_FULL') {
    // Whichever step met it (a save, taking or dropping a lease), the cause is the disk.
    return new StoreError('store_failed', `no space left for the store ${file}: ${describeCause(e)}`, display, { cause: e });
  }
  if (code === 'SQLITE_CANTOPEN' || code === 'SQLITE_READONLY' || code === 'SQLITE_PERM') {
    return new StoreError('store_failed', `cannot open the store ${file} for writing: ${describeCause(e)}`, display, { cause: e });
  }
  return new StoreError('store_failed', `${op} on store ${display} failed: ${describeCause(e)}`, display, { cause: e });
}

type Query = (sql: string, ...params: unknown[]) => Promise<unknown[]>;

/** Leases in their own table; the upsert takes a free, expired or own lease in one statement. */
/** One statement adds and returns the total (SQLite runs one writer at a time); an expired counter starts again. */
function sqliteCounters(query: Query): Backend['counters'] {
  return {
    add: async (key, amount, ttlMs) => {
      const now = Date.now();
      const rows = (await query(
        `INSERT INTO ${COUNTERS}(key, value, expires) VALUES(?, ?, ?)
         ON CONFLICT(key) DO UPDATE SET
           value = CASE WHEN ${COUNTERS}.expires <= ? THEN excluded.value ELSE ${COUNTERS}.value + excluded.value END,
           expires = CASE WHEN ${COUNTERS}.expires <= ? THEN excluded.expires ELSE ${COUNTERS}.expires END
         RETURNING value`,
        key, amount, now + ttlMs, now, now,
      )) as Array<{ value: number }>;
      return Number(rows[0]?.value ?? amount);
    },
    get: async (key) => {
      const rows = (await query(`SELECT value FROM ${COUNTERS} WHERE key = ? AND expires > ?`, key, Date.now())) as Array<{ value: number }>;
      return Number(rows[0]?.value ?? 0);
    },
  };
}

function sqliteLeases(query: Query): Backend['leases'] {
  const ownerOf = async (key: string) => (await query(`SELECT owner, holder FROM ${LEASES} WHERE key = ?`, key))[0] as { owner: string; holder: string } | undefined;
  return {
    acquire: async (key, owner, holder, ttlMs) => {
      const now = Date.now();
      await query(
        `INSERT INTO ${LEASES}(key, owner, holder, expires) VALUES(?, ?, ?, ?)
         ON CONFLICT(key) DO UPDATE SET owner = excluded.owner, holder = excluded.holder, expires = excluded.expires
         WHERE ${LEASES}.expires < ? OR ${LEASES}.owner = excluded.owner`,
        key, owner, holder, now + ttlMs, now,
      );
      const row = await ownerOf(key);
      return row?.owner === owner ? { ok: true } : { ok: false, holder: row?.holder ?? '{}' };
    },
    renew: async (key, owner, holder, ttlMs) => {
      await query(`UPDATE ${LEASES} SET expires = ?, holder = ? WHERE key = ? AND owner = ?`, Date.now() + ttlMs, holder, key, owner);
      return (await ownerOf(key))?.owner === owner;
    },
    release: async (key, owner) => {
      await query(`DELETE FROM ${LEASES} WHERE key = ? AND owner = ?`, key, owner);
    },
  };
}
