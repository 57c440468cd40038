import { afterEach, describe, expect, it } from 'vitest';
import { openKeyValueStore, StoreError, withRetry, type KeyValueStore } from '../../src/core/store/index.js';
import { freePort, REDIS_MISSING, startRedisServer, type RedisServer } from '../support/redis-server.js';

/** Rejection or, if it never settles, a marker: a hang must fail the test, not time it out. */
async function settle<T>(p: Promise<T>, ms: number): Promise<{ ok: true; value: T } | { ok: false; error: unknown } | 'hung'> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<'hung'>((r) => (timer = setTimeout(() => r('hung'), ms)));
  const result = await Promise.race([p.then((value) => ({ ok: true as const, value }), (error: unknown) => ({ ok: false as const, error })), hung]);
  clearTimeout(timer);
  return result;
}

describe('Redis failures', () => {
  let server: RedisServer | undefined;
  let kv: KeyValueStore | undefined;
  afterEach(async () => {
    await kv?.close();
    await server?.stop();
    kv = undefined;
    server = undefined;
  });

  it('the test helper fails loudly, with the install command, when redis-server is missing', async () => {
    await expect(startRedisServer({ env: { PATH: '/nonexistent' } })).rejects.toThrow(REDIS_MISSING);
    expect(REDIS_MISSING).toContain('apt-get install -y redis-server');
  });

  it('a server that is down at start gives a clear error, quickly, without the password', async () => {
    const port = await freePort();
    const started = Date.now();
    const r = await settle(openKeyValueStore(`redis://user:pw-very-secret@127.0.0.1:${port}`, { connectTimeoutMs: 3000 }), 10_000);
    expect(r).not.toBe('hung');
    expect(r).toMatchObject({ ok: false });
    const error = (r as { error: Error }).error;
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).code).toBe('store_unavailable');
    expect(error.message).toContain(`cannot connect to redis store redis://127.0.0.1:${port}`);
    expect(error.message).toMatch(/ECONNREFUSED/);
    expect(error.message).not.toContain('pw-very-secret');
    expect(Date.now() - started).toBeLessThan(8000);
  });

  it('a server killed mid-run makes every operation fail clearly instead of hanging', async () => {
    server = await startRedisServer();
    kv = await openKeyValueStore(server.url, { operationTimeoutMs: 4000 });
    await kv.set('before', 'ok');
    expect(await kv.get('before')).toBe('ok');
    await server.kill();
    const ops: Array<() => Promise<unknown>> = [() => kv!.set('during', 'x'), () => kv!.get('before'), () => kv!.list(''), () => kv!.delete('before')];
    for (const op of ops) {
      const r = await settle(op(), 10_000);
      expect(r).not.toBe('hung');
      expect(r).toMatchObject({ ok: false });
      const error = (r as { error: Error }).error;
      expect(error).toBeInstanceOf(StoreError);
      expect((error as StoreError).code).toBe('store_unavailable');
      expect(error.message).toContain(server.url);
    }
    // close() must not wait for a server that is gone.
    expect(await settle(kv.close(), 5000)).not.toBe('hung');
  });

  it('withRetry gives up after bounded attempts while the server stays down', async () => {
    server = await startRedisServer();
    kv = await openKeyValueStore(server.url);
    await server.kill();
    const attempts: number[] = [];
    const r = await settle(
      withRetry((n) => (attempts.push(n), kv!.set('k', 'v')), { attempts: 3, baseDelayMs: 20, what: 'saving session abc' }),
      20_000,
    );
    expect(r).toMatchObject({ ok: false });
    const error = (r as { error: Error }).error;
    expect(attempts).toEqual([1, 2, 3]);
    expect(error).toBeInstanceOf(StoreError);
    expect(error.message).toMatch(/^saving session abc failed after 3 attempts: .*redis/);
  });

  it('withRetry saves once the server is back (same port)', async () => {
    server = await startRedisServer();
    const port = server.port;
    kv = await openKeyValueStore(server.url);
    await kv.set('a', '1');
    await server.kill();
    await server.stop();
    let restarted: Promise<RedisServer> | undefined;
    const retries: string[] = [];
    await withRetry(() => kv!.set('b', '2'), {
      attempts: 8,
      baseDelayMs: 200,
      onRetry: (e) => {
        retries.push(e.message);
        restarted ??= startRedisServer({ port });
      },
    });
    server = await restarted!;
    expect(retries.length).toBeGreaterThan(0);
    expect(await kv.get('b')).toBe('2');
  });
});

describe('Redis that stops answering', () => {
  it('an operation on a frozen server times out with a clear error', async () => {
    const server = await startRedisServer();
    const kv = await openKeyValueStore(server.url, { operationTimeoutMs: 500 });
    try {
      await kv.set('k', 'v');
      server.process.kill('SIGSTOP');
      const r = await settle(kv.get('k'), 10_000);
      expect(r).toMatchObject({ ok: false });
      const error = (r as { error: Error }).error;
      expect(error).toBeInstanceOf(StoreError);
      expect(error.message).toBe(`get on store ${server.url} timed out after 500 ms`);
    } finally {
      server.process.kill('SIGCONT');
      await kv.close();
      await server.stop();
    }
  });
});
