import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { assistantMessage, toolMessage, userMessage, type Message } from '../../src/core/schema/message.js';
import {
  openKeyValueStore,
  SessionStore,
  SessionStoreError,
  type KeyValueStore,
  type SessionRecord,
} from '../../src/core/store/index.js';
import { LIST_CHECKED_MESSAGES, logKey } from '../../src/core/store/session-store.js';

const tmp = mkdtempSync(join(tmpdir(), 'adk-sessions-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A clock that advances one second per call, so updatedAt ordering is deterministic. */
function clock(start = Date.parse('2025-01-01T00:00:00Z')) {
  let t = start;
  return () => new Date((t += 1000));
}

async function errorOf(p: Promise<unknown>): Promise<SessionStoreError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(SessionStoreError);
  return e as SessionStoreError;
}

describe('SessionStore', () => {
  let kv: KeyValueStore;
  let store: SessionStore;
  beforeEach(async () => {
    kv = await openKeyValueStore('memory:');
    store = new SessionStore(kv, { env: {}, now: clock() });
  });

  it('creates a session with a short, typable id and a title from the first user line', async () => {
    const s = await store.create({ rootAgent: 'assistant', model: 'gpt-4o-mini', messages: [userMessage('\n\n   Fix   the build\nthen run tests')] });
    expect(s.id).toMatch(/^[a-z][0-9a-z]{7}$/);
    expect(s).toMatchObject({
      version: 2,
      title: 'Fix the build',
      rootAgent: 'assistant',
      model: 'gpt-4o-mini',
      status: 'active',
      pendingInterrupts: [],
      usage: { promptTokens: 0, completionTokens: 0 },
    });
    expect(s.createdAt).toBe(s.updatedAt);
    expect(await store.get(s.id)).toEqual(s);
    const ids = new Set(await Promise.all(Array.from({ length: 50 }, async () => (await store.create({ rootAgent: 'a' })).id)));
    expect(ids.size).toBe(50);
  });

  it('caps titles at 60 characters and fills an empty title once a user line arrives', async () => {
    const long = 'x'.repeat(50) + ' 漢字🙂 ' + 'y'.repeat(40);
    const a = await store.create({ rootAgent: 'a', messages: [userMessage(long)] });
    expect([...a.title].length).toBe(60);
    expect(a.title.endsWith('…')).toBe(true);
    const b = await store.create({ rootAgent: 'a' });
    expect(b.title).toBe('');
    const saved = await store.save({ ...b, messages: [userMessage('hello there')] });
    expect(saved.title).toBe('hello there');
    expect((await store.get(b.id))?.title).toBe('hello there');
  });

  it('saves the whole conversation, refreshing updatedAt but not createdAt', async () => {
    const s = await store.create({ rootAgent: 'assistant', agentsFile: '/p/agents.yaml' });
    const messages: Message[] = [
      userMessage('list files'),
      assistantMessage('', [{ id: 'call_1', function: { name: 'list_dir', arguments: '{"path":"."}' } }]),
      toolMessage('a.txt\nb.txt', 'call_1', 'list_dir'),
      { role: 'assistant', content: 'Two files.', reasoningContent: 'think', usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 } },
    ];
    const next: SessionRecord = {
      ...s,
      messages,
      status: 'interrupted',
      checkpointId: 'cp-1',
      pendingInterrupts: [{ id: 'i1', address: 'agent:assistant;tool:shell:call_2', kind: 'approval', tool: 'shell', arguments: { command: 'ls' }, message: 'Run ls?' }],
      usage: { promptTokens: 10, completionTokens: 5 },
    };
    const saved = await store.save(next);
    expect(saved.createdAt).toBe(s.createdAt);
    expect(saved.updatedAt > s.updatedAt).toBe(true);
    expect(await store.get(s.id)).toEqual(saved);
  });

  it('refuses to save an invalid record, naming the session and the field', async () => {
    const s = await store.create({ rootAgent: 'a' });
    const bad = { ...s, messages: [{ role: 'robot', content: 'beep' }] } as unknown as SessionRecord;
    const e = await errorOf(store.save(bad));
    expect(e.code).toBe('session_invalid');
    expect(e.message).toMatch(new RegExp(`^cannot save session ${s.id}: messages\\.0\\.role`));
    expect(await store.get(s.id)).toEqual(s);
  });

  it('lists summaries newest first', async () => {
    const a = await store.create({ rootAgent: 'a', messages: [userMessage('first')] });
    const b = await store.create({ rootAgent: 'b', messages: [userMessage('second')] });
    const c = await store.create({ rootAgent: 'c', messages: [userMessage('third')] });
    await store.save({ ...a, status: 'completed', messages: [...a.messages, assistantMessage('done')] });
    const list = await store.list();
    expect(list.map((e) => e.id)).toEqual([a.id, c.id, b.id]);
    expect(list[0]).toMatchObject({ corrupt: false, title: 'first', rootAgent: 'a', status: 'completed', messageCount: 2, pendingInterrupts: 0 });
  });

  it('reports a corrupt record clearly and still lists the others', async () => {
    const ok = await store.create({ rootAgent: 'a', messages: [userMessage('fine')] });
    await kv.set('session:broken1', '{"version":1,"id":"broken1", truncated');
    const e = await errorOf(store.get('broken1'));
    expect(e.code).toBe('session_corrupt');
    expect(e.sessionId).toBe('broken1');
    expect(e.message).toMatch(/^session broken1 is corrupt: invalid JSON/);

    const valid = (await store.get(ok.id))!;
    const { messages: _m, ...meta } = valid;
    await kv.set('session:badshape', JSON.stringify({ ...meta, id: 'badshape' }));
    await kv.set('sessionlog:badshape:0000000000', JSON.stringify({ role: 'user' }));
    expect((await errorOf(store.get('badshape'))).message).toMatch(/^session badshape is corrupt: message 0: content: /);
    await kv.set('session:gap', JSON.stringify({ ...meta, id: 'gap', messageCount: 2 }));
    await kv.set('sessionlog:gap:0000000000', JSON.stringify({ role: 'user', content: 'x' }));
    expect((await errorOf(store.get('gap'))).message).toBe('session gap is corrupt: message 1 is missing from its log');
    await kv.set('session:badmeta', JSON.stringify({ ...meta, id: 'badmeta', status: 'lost' }));
    expect((await errorOf(store.get('badmeta'))).message).toMatch(/^session badmeta is corrupt: status: /);
    await kv.set('session:moved', JSON.stringify(valid));
    expect((await errorOf(store.get('moved'))).message).toBe(`session moved is corrupt: it is stored with id "${ok.id}"`);
    await kv.set('session:array', '[1,2]');
    expect((await errorOf(store.get('array'))).message).toBe('session array is corrupt: not a JSON object');

    const list = await store.list();
    expect(list.find((x) => x.id === ok.id)).toMatchObject({ corrupt: false, title: 'fine' });
    // A bad or missing message among the newest is flagged like a bad record.
    expect(list.filter((x) => !x.corrupt).map((x) => x.id)).toEqual([ok.id]);
    expect(list.filter((x) => x.corrupt).map((x) => x.id)).toEqual(['array', 'badmeta', 'badshape', 'broken1', 'gap', 'moved']);
    expect(list.find((x) => x.id === 'gap')).toMatchObject({ code: 'session_corrupt', error: 'session gap is corrupt: message 1 is missing from its log' });
    expect(list.find((x) => x.id === 'broken1')).toMatchObject({ code: 'session_corrupt', error: expect.stringMatching(/^session broken1 is corrupt/) });
  });

  it('refuses records from a newer adk, or with an unknown version', async () => {
    const s = await store.create({ rootAgent: 'a' });
    await kv.set('session:future', JSON.stringify({ ...s, id: 'future', version: 3 }));
    const e = await errorOf(store.get('future'));
    expect(e.code).toBe('session_version');
    expect(e.message).toBe('session future was written by a newer adk (version 3); upgrade adk to open it');
    await kv.set('session:odd', JSON.stringify({ ...s, id: 'odd', version: '1' }));
    expect((await errorOf(store.get('odd'))).message).toBe('session odd has an unknown version ("1"); this adk reads versions 1 and 2');
    await kv.set('session:none', JSON.stringify({ ...s, id: 'none', version: undefined }));
    expect((await errorOf(store.get('none'))).message).toBe('session none is corrupt: it has no version');
    expect((await store.list()).filter((x) => x.corrupt).map((x) => x.id)).toEqual(['future', 'none', 'odd']);
  });

  it('keeps fields it does not know (a later adk writing version 2)', async () => {
    const s = await store.create({ rootAgent: 'a' });
    const { messages: _m, ...meta } = s;
    await kv.set(`session:${s.id}`, JSON.stringify({ ...meta, pinned: true, messageCount: 1 }));
    await kv.set(`sessionlog:${s.id}:0000000000`, JSON.stringify({ role: 'user', content: 'x', attachments: ['a.png'] }));
    const read = (await store.get(s.id))! as SessionRecord & { pinned?: boolean };
    expect(read.pinned).toBe(true);
    expect(read.messages).toEqual([{ role: 'user', content: 'x', attachments: ['a.png'] }]);
    await store.save({ ...read, messages: [...read.messages, userMessage('y')] });
    expect(JSON.parse((await kv.get(`session:${s.id}`))!)).toMatchObject({ pinned: true, messageCount: 2 });
    expect(JSON.parse((await kv.get(`sessionlog:${s.id}:0000000000`))!)).toMatchObject({ attachments: ['a.png'] });
  });

  it('appends: a save writes the new messages and the metadata, nothing else, and never the messages into the metadata', async () => {
    const s = await store.create({ rootAgent: 'a', messages: [userMessage('one'), assistantMessage('two')] });
    const writes: string[] = [];
    const spy = Object.assign(Object.create(kv), { set: (k: string, v: string) => (writes.push(k), kv.set(k, v)), setMany: (e: Array<{ key: string; value: string }>) => (writes.push(...e.map((x) => x.key)), kv.setMany(e)) }) as KeyValueStore;
    const spying = new SessionStore(spy, { env: {} });
    const saved = await spying.save({ ...s, messages: [...s.messages, userMessage('three')] });
    expect(writes).toEqual([`sessionlog:${s.id}:0000000002`, `session:${s.id}`]);
    expect(saved.messageCount).toBe(3);
    expect(JSON.parse((await kv.get(`session:${s.id}`))!).messages).toBeUndefined();
    const e = await errorOf(store.save({ ...saved, messages: saved.messages.slice(1) }));
    expect(e.message).toMatch(/messages can only be appended/);
  });

  it('loads only what the context needs, and lists reading only the newest messages', async () => {
    const messages = Array.from({ length: 500 }, (_, i) => userMessage(`m${i}`));
    const s = await store.create({ rootAgent: 'a', messages });
    await store.save({ ...s, contextStart: 480 });
    const tail = (await store.get(s.id, { from: 'context', tail: 10 }))!;
    expect(tail.messagesFrom).toBe(480);
    expect(tail.messages.map((m) => m.content)).toEqual(messages.slice(480).map((m) => m.content));
    const saved = await store.save({ ...tail, messages: [...tail.messages, userMessage('m500')] });
    expect(saved.messageCount).toBe(501);
    expect((await store.get(s.id))!.messages.map((m) => m.content)).toEqual([...messages.map((m) => m.content), 'm500']);
    const reads: string[] = [];
    const spy = Object.assign(Object.create(kv), { get: (k: string) => (reads.push(k), kv.get(k)), getMany: (k: string[]) => (reads.push(...k), kv.getMany(k)) }) as KeyValueStore;
    expect((await new SessionStore(spy, { env: {} }).list())[0]).toMatchObject({ id: s.id, messageCount: 501 });
    expect(reads.filter((k) => k.startsWith('sessionlog:'))).toEqual(Array.from({ length: LIST_CHECKED_MESSAGES }, (_, i) => logKey(s.id, 501 - LIST_CHECKED_MESSAGES + i)));
  });

  it('reads a version 1 record (every message inline) and rewrites it as version 2 on the next save', async () => {
    const v1 = {
      version: 1, id: 'oldsess1', title: 'old', rootAgent: 'assistant', status: 'completed', pendingInterrupts: [], usage: { promptTokens: 3, completionTokens: 4 },
      createdAt: '2025-01-01T00:00:00.000Z', updatedAt: '2025-01-01T00:00:00.000Z', transcript: [{ kind: 'x' }],
      messages: [{ role: 'user', content: 'hello' }, { role: 'assistant', content: 'hi' }],
    };
    await kv.set('session:oldsess1', JSON.stringify(v1));
    expect((await store.list())[0]).toMatchObject({ id: 'oldsess1', messageCount: 2 });
    const read = (await store.get('oldsess1'))!;
    expect(read).toMatchObject({ version: 2, messageCount: 0, messages: v1.messages });
    await store.save({ ...read, messages: [...read.messages, userMessage('again')] });
    const raw = JSON.parse((await kv.get('session:oldsess1'))!);
    expect(raw).toMatchObject({ version: 2, messageCount: 3, usage: { promptTokens: 3 } });
    expect(raw.messages).toBeUndefined();
    expect((await store.get('oldsess1'))!.messages.map((m) => m.content)).toEqual(['hello', 'hi', 'again']);
  });

  it('deletes sessions', async () => {
    const s = await store.create({ rootAgent: 'a' });
    await store.save({ ...s, messages: [userMessage('x')] });
    await store.artifacts(s.id).put('r1', 'whole result');
    expect(await store.artifacts(s.id).get('r1')).toBe('whole result');
    expect(await store.delete(s.id)).toBe(true);
    expect(await store.get(s.id)).toBeUndefined();
    expect(await kv.list(`sessionlog:${s.id}`)).toEqual([]);
    expect(await kv.list(`artifact:${s.id}`)).toEqual([]);
    expect(await store.delete(s.id)).toBe(false);
    expect(await store.list()).toEqual([]);
  });

  it('resolves unique id prefixes', async () => {
    for (const id of ['abc12345', 'abd00000', 'abc', 'xyz98765']) await store.create({ rootAgent: 'a', id });
    expect(await store.resolveId('xyz')).toBe('xyz98765');
    expect(await store.resolveId('XYZ9')).toBe('xyz98765');
    expect(await store.resolveId('abd')).toBe('abd00000');
    expect(await store.resolveId('abc')).toBe('abc'); // an exact id wins over longer ones
    expect(await store.resolveId(' abc12345 ')).toBe('abc12345');
    const ambiguous = await errorOf(store.resolveId('ab'));
    expect(ambiguous.code).toBe('session_ambiguous');
    expect(ambiguous.message).toBe('session id "ab" is ambiguous: it matches abc, abc12345, abd00000');
    const missing = await errorOf(store.resolveId('qq'));
    expect(missing.code).toBe('session_not_found');
    expect(missing.message).toBe('no session matches "qq"');
    expect((await errorOf(store.resolveId(''))).code).toBe('session_not_found');
  });

  it('works the same on SQLite, across reopen, with a large conversation', async () => {
    const file = join(tmp, 'sessions.sqlite');
    const kv1 = await openKeyValueStore(`sqlite://${file}`);
    const messages = Array.from({ length: 1000 }, (_, i) => (i % 2 ? assistantMessage(`answer ${i} 🙂 漢字`) : userMessage(`question ${i}\nline two`)));
    const s = await new SessionStore(kv1, { env: {} }).create({ rootAgent: 'assistant', messages });
    await kv1.close();
    const kv2 = await openKeyValueStore(`sqlite://${file}`);
    const sessions = new SessionStore(kv2, { env: {} });
    expect(await sessions.get(s.id)).toEqual(s);
    expect((await sessions.list())[0]).toMatchObject({ id: s.id, messageCount: 1000, title: 'question 0' });
    await kv2.close();
  });
});
