import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openKeyValueStore, SessionStore, StoreError, type KeyValueStore } from '../../src/core/store/index.js';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';

/** Every backend must behave the same: a fresh, isolated store per test. */
interface Harness {
  name: string;
  setup(): Promise<void>;
  open(): Promise<KeyValueStore>;
  teardown(): Promise<void>;
}

let counter = 0;
const tmp = mkdtempSync(join(tmpdir(), 'adk-kv-'));
let redis: RedisServer | undefined;

const harnesses: Harness[] = [
  { name: 'memory', setup: async () => {}, open: () => openKeyValueStore('memory:'), teardown: async () => {} },
  {
    name: 'sqlite',
    setup: async () => {},
    open: () => openKeyValueStore(`sqlite://${join(tmp, `kv-${++counter}.sqlite`)}`),
    teardown: async () => {},
  },
  {
    name: 'redis',
    setup: async () => {
      redis = await startRedisServer();
    },
    // One server, a namespace per test.
    open: () => openKeyValueStore(redis!.url, { namespace: `t${++counter}` }),
    teardown: async () => {
      await redis?.stop();
    },
  },
];

// Postgres is opt-in (CI has no server): ADK_TEST_POSTGRES_URL=postgres://user@127.0.0.1:5432/db
const postgresUrl = process.env.ADK_TEST_POSTGRES_URL;
if (postgresUrl) {
  harnesses.push({
    name: 'postgres',
    setup: async () => {},
    open: () => openKeyValueStore(postgresUrl, { namespace: `t${process.pid}x${++counter}` }),
    teardown: async () => {},
  });
}

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const UNICODE_VALUES: Record<string, string> = {
  emoji: '👩‍👩‍👧‍👦 family, 🏳️‍🌈 flag, 🙂',
  cjk: '漢字とひらがなとカタカナ，한국어，中文标点。',
  combining: 'e\u0301 a\u0308 n\u0303 — Z͑ͫ̓ͪ̂ͫ̽͏̴̙̤̞͉͚̯̞̠͍',
  newlines: 'lf\ncr\rcrlf\r\nnel\u0085ls\u2028ps\u2029end',
  control: 'nul\u0000tab\tbell\u0007esc\u001b[0m',
  json: '{"a":[1,2,{"b":"\\"quoted\\""}],"c":null}',
  colon: ':starts with a colon',
  base64ish: ':base64:aGVsbG8=',
  backslashes: 'C:\\path\\to\\file \\n not a newline',
  empty: '',
  loneSurrogate: 'half \ud83d pair',
};

describe.each(harnesses)('KeyValueStore conformance: $name', (h) => {
  let kv: KeyValueStore;
  beforeAll(() => h.setup());
  afterAll(() => h.teardown());

  const fresh = async () => {
    kv = await h.open();
    return kv;
  };

  it('counters: concurrent adds each land (the totals they return are all different), fractions add up, expired ones start again', async () => {
    const store = await fresh();
    const totals = await Promise.all(Array.from({ length: 50 }, () => store.counters.add('calls', 1, 60_000)));
    expect(new Set(totals).size).toBe(50);
    expect(Math.max(...totals)).toBe(50);
    expect(await store.counters.get('calls')).toBe(50);
    expect(await store.counters.add('calls', -1, 60_000)).toBe(49);
    await store.counters.add('usd', 0.25, 60_000);
    expect(await store.counters.add('usd', 0.5, 60_000)).toBeCloseTo(0.75, 10);
    expect(await store.counters.get('never')).toBe(0);
    await store.counters.add('short', 5, 50);
    await new Promise((r) => setTimeout(r, 120));
    expect(await store.counters.get('short')).toBe(0);
    expect(await store.counters.add('short', 2, 60_000)).toBe(2);
    // A counter and a key of the same name are apart.
    await store.set('calls', 'a value');
    expect(await store.get('calls')).toBe('a value');
    expect(await store.counters.get('calls')).toBe(49);
  });

  it('reads, writes and deletes many keys at once, in order, missing ones as undefined', async () => {
    await fresh();
    const entries = Array.from({ length: 1200 }, (_, i) => ({ key: `many:${String(i).padStart(5, '0')}`, value: `v${i} ${UNICODE_VALUES.cjk}` }));
    await kv.setMany(entries);
    const keys = ['many:00007', 'many:absent', 'many:01199', 'many:00000'];
    expect(await kv.getMany(keys)).toEqual(['v7 ' + UNICODE_VALUES.cjk, undefined, 'v1199 ' + UNICODE_VALUES.cjk, 'v0 ' + UNICODE_VALUES.cjk]);
    expect(await kv.list('many:')).toHaveLength(1200);
    await kv.deleteMany(entries.slice(0, 1100).map((e) => e.key));
    expect(await kv.list('many:')).toEqual(entries.slice(1100).map((e) => e.key));
    expect(await kv.getMany([])).toEqual([]);
    await kv.close();
  });

  it('keeps append-only sessions: metadata plus a record per message, listed, loaded from an index, deleted whole', async () => {
    await fresh();
    const sessions = new SessionStore(kv, { env: {} });
    let r = await sessions.create({ rootAgent: 'a', messages: [{ role: 'user', content: 'one' }] });
    for (let i = 0; i < 5; i++) r = await sessions.save({ ...r, messages: [...r.messages, { role: 'assistant', content: `a${i}` }] });
    expect((await sessions.get(r.id))!.messages.map((m) => m.content)).toEqual(['one', 'a0', 'a1', 'a2', 'a3', 'a4']);
    expect((await sessions.get(r.id, { from: 4 }))!.messages.map((m) => m.content)).toEqual(['a3', 'a4']);
    expect((await sessions.list())[0]).toMatchObject({ id: r.id, messageCount: 6 });
    await sessions.artifacts(r.id).put('r1', 'whole');
    expect(await sessions.delete(r.id)).toBe(true);
    expect([...(await kv.list('sessionlog:')), ...(await kv.list('artifact:'))]).toEqual([]);
    await kv.close();
  });

  it('reports missing keys as undefined and deleting them as false', async () => {
    await fresh();
    expect(await kv.get('nope')).toBeUndefined();
    expect(await kv.delete('nope')).toBe(false);
    expect(await kv.list('')).toEqual([]);
    await kv.close();
  });

  it('sets, overwrites and deletes', async () => {
    await fresh();
    await kv.set('k', 'one');
    expect(await kv.get('k')).toBe('one');
    await kv.set('k', 'two');
    expect(await kv.get('k')).toBe('two');
    expect(await kv.list('')).toEqual(['k']);
    expect(await kv.delete('k')).toBe(true);
    expect(await kv.get('k')).toBeUndefined();
    expect(await kv.delete('k')).toBe(false);
    await kv.close();
  });

  it('lists by exact, case-sensitive prefix, without treating wildcards specially', async () => {
    await fresh();
    const keys = ['a:1', 'a:2', 'ab', 'A:1', 'b:1', 'a%', 'a_x', 'a*', 'a?', 'a[1]', 'a\\b', 'é:1', 'e:1'];
    for (const k of keys) await kv.set(k, k);
    expect(await kv.list('a:')).toEqual(['a:1', 'a:2']);
    expect(await kv.list('A')).toEqual(['A:1']);
    expect(await kv.list('a%')).toEqual(['a%']);
    expect(await kv.list('a_')).toEqual(['a_x']);
    expect(await kv.list('a*')).toEqual(['a*']);
    expect(await kv.list('a?')).toEqual(['a?']);
    expect(await kv.list('a[')).toEqual(['a[1]']);
    expect(await kv.list('a\\')).toEqual(['a\\b']);
    expect(await kv.list('é')).toEqual(['é:1']);
    expect(await kv.list('zzz')).toEqual([]);
    expect(await kv.list('')).toEqual([...keys].sort());
    await kv.close();
  });

  it('round-trips a 1 MB value byte for byte', async () => {
    await fresh();
    const unit = 'lorem ipsum "quoted" \\ 漢字 🙂\n';
    let big = '';
    while (big.length < 1024 * 1024) big += `${big.length}:${unit}`;
    await kv.set('big', big);
    const back = await kv.get('big');
    expect(back?.length).toBe(big.length);
    expect(back === big).toBe(true);
    await kv.close();
  });

  it.each(Object.entries(UNICODE_VALUES))('round-trips unicode and odd text: %s', async (_name, value) => {
    await fresh();
    await kv.set('v', value);
    const back = await kv.get('v');
    expect(back).toBe(value);
    expect(back?.length).toBe(value.length);
    await kv.close();
  });

  it('accepts keys with colons, spaces and non-ASCII characters', async () => {
    await fresh();
    const keys = ['session: with spaces:x', 'a::b::c', ' leading and trailing ', 'ключ:日本語 🙂', 'tab\tkey'];
    for (const [i, k] of keys.entries()) await kv.set(k, `value ${i}`);
    for (const [i, k] of keys.entries()) expect(await kv.get(k)).toBe(`value ${i}`);
    expect(await kv.list('session: ')).toEqual(['session: with spaces:x']);
    expect(await kv.list('ключ:')).toEqual(['ключ:日本語 🙂']);
    expect(await kv.list('')).toEqual([...keys].sort());
    await kv.close();
  });

  it('handles many keys written concurrently', async () => {
    await fresh();
    const n = 500;
    const keys = Array.from({ length: n }, (_, i) => `many:${String(i).padStart(4, '0')}`);
    await Promise.all(keys.map((k, i) => kv.set(k, `v${i}`)));
    await kv.set('other:1', 'x');
    const listed = await kv.list('many:');
    expect(listed).toEqual(keys);
    expect(await kv.get('many:0123')).toBe('v123');
    expect(await kv.get('many:0499')).toBe('v499');
    await kv.close();
  });

  it('fails clearly after close', async () => {
    await fresh();
    await kv.close();
    await expect(kv.get('k')).rejects.toThrow(/is closed/);
    await expect(kv.set('k', 'v')).rejects.toBeInstanceOf(StoreError);
  });

  it('describes itself without credentials', async () => {
    await fresh();
    expect(kv.describe()).toMatch(/^(memory:|sqlite:\/\/\/|redis:\/\/127\.0\.0\.1:|postgres(ql)?:\/\/)/);
    expect(kv.describe()).not.toContain('@');
    expect(kv.kind).toBe(h.name);
    await kv.close();
  });
});
