import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { KeyvSqlite } from '@keyv/sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/errors.js';
import { openKeyValueStore, parseStoreUrl, StoreError } from '../../src/core/store/index.js';
import { compileStore } from './fixtures/compile-store.js';

const tmp = mkdtempSync(join(tmpdir(), 'adk-open-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('store URLs', () => {
  it('defaults to adk.sqlite under ADK_HOME', () => {
    expect(parseStoreUrl(undefined, '/h/.adk')).toMatchObject({ kind: 'sqlite', target: '/h/.adk/adk.sqlite', display: 'sqlite:///h/.adk/adk.sqlite' });
    expect(parseStoreUrl('  ', '/h/.adk').kind).toBe('sqlite');
  });

  it('accepts sqlite paths: absolute, relative and ~', () => {
    expect(parseStoreUrl('sqlite:///var/db/x.sqlite', '/h').target).toBe('/var/db/x.sqlite');
    expect(parseStoreUrl('sqlite://data/x.sqlite', '/h').target).toBe(resolve('data/x.sqlite'));
    expect(parseStoreUrl('sqlite://~/x.sqlite', '/h').target).toBe(join(homedir(), 'x.sqlite'));
    expect(() => parseStoreUrl('sqlite://', '/h')).toThrow(/needs a file path/);
  });

  it('never shows credentials', () => {
    const redis = parseStoreUrl('redis://alice:s3cret-pw@cache.example:6380/2', '/h');
    expect(redis).toMatchObject({ kind: 'redis', display: 'redis://cache.example:6380/2' });
    expect(redis.target).toContain('s3cret-pw');
    expect(redis.secrets).toContain('s3cret-pw');
    const pg = parseStoreUrl('postgresql://bob:pg-pass@db.example/adk?sslmode=require&password=qp-secret', '/h');
    expect(pg.kind).toBe('postgres');
    expect(pg.display).not.toMatch(/pg-pass|qp-secret|bob/);
    expect(pg.display).toContain('sslmode=require');
    expect(parseStoreUrl('rediss://h:1', '/h').kind).toBe('redis');
    expect(parseStoreUrl('postgres://h/db', '/h').kind).toBe('postgres');
  });

  it('rejects unknown schemes naming the supported ones, without echoing the URL', () => {
    let err: unknown;
    try {
      parseStoreUrl('mongodb://user:hunter2hunter2@host/db', '/h');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const message = (err as Error).message;
    expect(message).toContain('"mongodb:"');
    for (const s of ['sqlite://', 'redis://', 'postgres://', 'memory:']) expect(message).toContain(s);
    expect(message).not.toContain('hunter2');
    expect(() => parseStoreUrl('/just/a/path.sqlite', '/h')).toThrow(/supported: sqlite:\/\//);
    expect(() => parseStoreUrl('redis://:pw@[bad', '/h')).toThrow(/invalid redis store URL/);
    expect(() => parseStoreUrl('redis://:pw@[bad', '/h')).not.toThrow(/pw/);
  });
});

describe('openKeyValueStore', () => {
  it('creates ADK_HOME (0700) and an owner-only SQLite file by default', async () => {
    const home = join(tmp, 'home', '.adk');
    const kv = await openKeyValueStore(undefined, { env: { ADK_HOME: home } });
    await kv.set('x', 'y');
    expect(kv.kind).toBe('sqlite');
    expect(kv.describe()).toBe(`sqlite://${home}/adk.sqlite`);
    expect(statSync(home).mode & 0o777).toBe(0o700);
    expect(statSync(join(home, 'adk.sqlite')).mode & 0o077).toBe(0);
    await kv.close();
    // adkHome wins over the environment.
    const other = join(tmp, 'other');
    const kv2 = await openKeyValueStore(undefined, { adkHome: other, env: { ADK_HOME: home } });
    expect(kv2.describe()).toBe(`sqlite://${other}/adk.sqlite`);
    await kv2.close();
  });

  it('uses ADK_STORE when no URL is given', async () => {
    const kv = await openKeyValueStore(undefined, { env: { ADK_STORE: 'memory:', ADK_HOME: join(tmp, 'unused') } });
    expect(kv.kind).toBe('memory');
    expect(existsSync(join(tmp, 'unused'))).toBe(false);
    await kv.close();
  });

  it('puts the SQLite file in WAL mode with synchronous=FULL', async () => {
    const file = join(tmp, 'wal.sqlite');
    const kv = await openKeyValueStore(`sqlite://${file}`);
    await kv.set('a', 'b');
    const probe = new KeyvSqlite({ uri: `sqlite://${file}` });
    expect(await probe.query('PRAGMA journal_mode')).toEqual([{ journal_mode: 'wal' }]);
    await probe.disconnect();
    await kv.close();
  });

  it('keeps namespaces apart in one file', async () => {
    const file = join(tmp, 'ns.sqlite');
    const a = await openKeyValueStore(`sqlite://${file}`, { namespace: 'a' });
    const b = await openKeyValueStore(`sqlite://${file}`, { namespace: 'b' });
    await a.set('k', 'from a');
    await b.set('k', 'from b');
    expect(await a.get('k')).toBe('from a');
    expect(await b.get('k')).toBe('from b');
    expect(await a.list('')).toEqual(['k']);
    await a.close();
    await b.close();
    await expect(openKeyValueStore('memory:', { namespace: 'bad:ns' })).rejects.toThrow(/invalid store namespace/);
  });

  it('reports a file that is not a database clearly', async () => {
    const file = join(tmp, 'garbage.sqlite');
    writeFileSync(file, 'this is not a sqlite database, just some text '.repeat(100));
    await expect(openKeyValueStore(`sqlite://${file}`)).rejects.toThrow(`the store ${file} is not a valid SQLite database`);
  });

  it('waits for, retries, then reports a lock held by another connection', async () => {
    const file = join(tmp, 'locked.sqlite');
    const kv = await openKeyValueStore(`sqlite://${file}`, { busyTimeoutMs: 100, lockRetries: 2 });
    await kv.set('before', '1');
    const holder = new KeyvSqlite({ uri: `sqlite://${file}` });
    await holder.query('BEGIN EXCLUSIVE');
    try {
      const err = await kv.set('during', '2').then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(StoreError);
      expect((err as StoreError).code).toBe('store_locked');
      expect((err as Error).message).toBe(`store is locked by another process: ${file}`);
      // Readers are not blocked in WAL mode.
      expect(await kv.get('before')).toBe('1');
    } finally {
      await holder.query('ROLLBACK');
      await holder.disconnect();
    }
    await kv.set('after', '3');
    expect(await kv.list('')).toEqual(['after', 'before']);
    await kv.close();
  });

  it('rides out a short lock thanks to the busy timeout', async () => {
    const file = join(tmp, 'short-lock.sqlite');
    const kv = await openKeyValueStore(`sqlite://${file}`, { busyTimeoutMs: 2000 });
    const holder = new KeyvSqlite({ uri: `sqlite://${file}` });
    await holder.query('BEGIN EXCLUSIVE');
    setTimeout(() => void holder.query('COMMIT'), 200);
    await kv.set('k', 'v');
    expect(await kv.get('k')).toBe('v');
    await holder.disconnect();
    await kv.close();
  });

  it('loads only the adapter it needs', () => {
    const out = join(tmp, 'build');
    const storeUrl = compileStore(out);
    const probe = resolve('test/store/fixtures/load-probe.mjs');
    const loaded = JSON.parse(execFileSync(process.execPath, [probe, storeUrl, join(tmp, 'probe.sqlite')], { encoding: 'utf8' })) as string[];
    expect(loaded.some((u) => u.includes('/@keyv/sqlite/'))).toBe(true);
    expect(loaded.filter((u) => /\/@keyv\/(redis|postgres)\/|\/@redis\/|\/node_modules\/pg\//.test(u))).toEqual([]);
  });
});
