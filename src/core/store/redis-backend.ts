import { sleep } from '../abort.js';
import { describeCause, StoreError } from './errors.js';
import { makeKeyv, withTimeout, type Backend } from './key-value-store.js';
import { importDriver } from './optional-driver.js';
import { scrub, type StoreLocation } from './store-url.js';
import { importModule } from '../dynamic-import.js';

export interface NetworkOptions {
  connectTimeoutMs?: number | undefined;
  operationTimeoutMs?: number | undefined;
}

/** Redis replies with errors such as `ERR …`, `WRONGTYPE …`, `NOAUTH …`: those are not outages. */
const SERVER_REPLY = /^[A-Z]{2,}[A-Z_]*\b/;

/**
 * Redis without an offline queue: while the server is unreachable, operations fail at once
 * (the client reconnects a few times in the background, then each operation tries to connect again).
 */
export async function openRedisBackend(loc: StoreLocation, opts: NetworkOptions = {}): Promise<Backend> {
  const connectTimeout = opts.connectTimeoutMs ?? 5000;
  const display = loc.display;
  const { default: KeyvRedis, createClient } = await importDriver(() => importModule<typeof import('@keyv/redis')>('@keyv/redis'), '@keyv/redis', 'redis://', display);
  const client = createClient({
    url: loc.target,
    disableOfflineQueue: true,
    socket: {
      connectTimeout,
      reconnectStrategy: (retries: number, cause: Error) =>
        retries >= 5 ? new Error(`${describeCause(cause)} (gave up after ${retries} attempts)`) : Math.min(50 * 2 ** retries, 1000),
    },
  });
  // Errors reach the caller through the failing operation; the last one explains a refused reconnect.
  let lastSocketError: unknown;
  client.on('error', (e: unknown) => (lastSocketError = e));
  const unavailable = (e: unknown, what: string) => {
    // @keyv/redis replaces a failed reconnect with a generic message: show the socket's reason instead.
    const message = e instanceof Error ? e.message : '';
    let reason = describeCause(e);
    if (/client is not connected or has failed to connect/.test(message) && lastSocketError) reason = describeCause(lastSocketError);
    if (/client is offline|Socket closed unexpectedly/i.test(message)) {
      reason = `connection lost (${lastSocketError ? describeCause(lastSocketError) : message}); reconnecting`;
    }
    return new StoreError('store_unavailable', scrub(`${what} redis store ${display}: ${reason}`, loc.secrets), display, { cause: e });
  };

  try {
    await withTimeout(client.connect(), connectTimeout, () => new Error(`no answer within ${connectTimeout} ms`));
  } catch (e) {
    if (client.isOpen) client.destroy(); // stop the background reconnects
    throw unavailable(e, 'cannot connect to');
  }

  const adapter = new KeyvRedis(client, { throwOnErrors: true, throwOnConnectError: true, connectionTimeout: connectTimeout });
  return {
    kind: 'redis',
    display,
    keyv: makeKeyv(adapter),
    listKeys: async (prefix) => {
      const conn = await adapter.getClient();
      const keys: string[] = [];
      let cursor = '0';
      do {
        const page = await conn.scan(cursor, { MATCH: `${escapeGlob(prefix)}*`, COUNT: 1000 });
        cursor = String(page.cursor);
        keys.push(...page.keys.map(String));
      } while (cursor !== '0');
      return keys;
    },
    close: async () => {
      if (!client.isOpen) return;
      // A graceful close waits for the server; a dead server must not hold the process.
      await Promise.race([client.close().catch(() => {}), sleep(1000)]);
      if (client.isOpen) client.destroy();
    },
    wrapError: (e, op) => {
      if (e instanceof StoreError) return e;
      const reason = describeCause(e);
      if (SERVER_REPLY.test(reason)) {
        return new StoreError('store_failed', scrub(`${op} on redis store ${display} failed: ${reason}`, loc.secrets), display, { cause: e });
      }
      return unavailable(e, `${op} failed: cannot reach`);
    },
    operationTimeoutMs: opts.operationTimeoutMs ?? 10_000,
    leases: redisLeases(async () => (await adapter.getClient()) as unknown as RedisLeaseClient),
    counters: redisCounters(async () => (await adapter.getClient()) as unknown as RedisLeaseClient),
  };
}

interface RedisLeaseClient {
  set(key: string, value: string, options: object): Promise<string | null>;
  get(key: string): Promise<string | null>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

// The stored value is the holder JSON, which starts with the owner id: compare by that prefix.
// A lease that expired while its holder was suspended (Ctrl-Z) and that nobody took is still its holder's.
const RENEW = `local v = redis.call('GET', KEYS[1]) if (not v) or string.sub(v, 1, string.len(ARGV[1])) == ARGV[1] then redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) return 1 end return 0`;
const RELEASE = `local v = redis.call('GET', KEYS[1]) if v and string.sub(v, 1, string.len(ARGV[1])) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

// INCRBYFLOAT is atomic; the expiry is set once, by the add that made the counter.
const ADD = `local v = redis.call('INCRBYFLOAT', KEYS[1], ARGV[1]) if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return v`;

/** Counters shared by every process on this Redis (workers on several machines). */
function redisCounters(client: () => Promise<RedisLeaseClient>): Backend['counters'] {
  return {
    add: async (key, amount, ttlMs) => Number(await (await client()).eval(ADD, { keys: [key], arguments: [String(amount), String(ttlMs)] })),
    get: async (key) => Number((await (await client()).get(key)) ?? 0),
  };
}

/** SET NX PX takes a lease; server-side expiry frees it when its owner dies. Scripts check the owner atomically. */
function redisLeases(client: () => Promise<RedisLeaseClient>): Backend['leases'] {
  const stamp = (owner: string, holder: string) => `${owner}\n${holder}`;
  const holderOf = (v: string | null) => (v ? v.slice(v.indexOf('\n') + 1) : '{}');
  return {
    acquire: async (key, owner, holder, ttlMs) => {
      const c = await client();
      if ((await c.set(key, stamp(owner, holder), { condition: 'NX', expiration: { type: 'PX', value: ttlMs } })) === 'OK') return { ok: true };
      const current = await c.get(key);
      if (current?.startsWith(`${owner}\n`)) {
        await c.eval(RENEW, { keys: [key], arguments: [`${owner}\n`, stamp(owner, holder), String(ttlMs)] });
        return { ok: true };
      }
      return { ok: false, holder: holderOf(current) };
    },
    renew: async (key, owner, holder, ttlMs) =>
      Number(await (await client()).eval(RENEW, { keys: [key], arguments: [`${owner}\n`, stamp(owner, holder), String(ttlMs)] })) === 1,
    release: async (key, owner) => {
      await (await client()).eval(RELEASE, { keys: [key], arguments: [`${owner}\n`] });
    },
  };
}

function escapeGlob(s: string): string {
  return s.replace(/[*?[\]\\]/g, '\\$&');
}
