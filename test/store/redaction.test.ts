import { describe, expect, it } from 'vitest';
import { userMessage } from '../../src/core/schema/message.js';
import {
  InMemoryCheckpointStore,
  KeyValueCheckpointStore,
  openKeyValueStore,
  redactJsonText,
  redactSecrets,
  secretsFromEnv,
  SessionStore,
} from '../../src/core/store/index.js';

const OPENAI = 'sk-proj-abcDEF1234567890xyz';
const ENV = {
  OPENAI_API_KEY: OPENAI,
  GITHUB_TOKEN: 'ghp_TOKENVALUE000111',
  AWS_SECRET: 'aws/secret+value==',
  weird_key: 'pa"ss\\word-1234',
  NUMERIC_TOKEN: '12345678',
  SHORT_KEY: 'abc',
  PATH: '/usr/bin:/bin/not-a-secret',
  HOME: '/home/someone-long',
};

describe('secretsFromEnv', () => {
  it('takes OPENAI_API_KEY and *_KEY/_TOKEN/_SECRET values of 8+ characters', () => {
    expect(secretsFromEnv(ENV).sort()).toEqual([OPENAI, 'ghp_TOKENVALUE000111', 'aws/secret+value==', 'pa"ss\\word-1234', '12345678'].sort());
    expect(secretsFromEnv({ OPENAI_API_KEY: 'short' })).toEqual([]);
    expect(secretsFromEnv({ MY_KEYS: 'abcdefghijk', KEY_NAME: 'abcdefghijk' })).toEqual([]);
  });
});

describe('redactSecrets', () => {
  it('replaces secrets in string values, deeply, leaving keys, numbers and structural fields alone', () => {
    const secrets = secretsFromEnv(ENV);
    expect(redactSecrets(`key=${OPENAI}; again ${OPENAI}`, secrets)).toBe('key=[REDACTED]; again [REDACTED]');
    const value = { a: [`Bearer ${OPENAI}`, { [OPENAI]: `as a key ${OPENAI}` }], n: 123456789, ok: true, nil: null };
    // Keys are never rewritten (a secret equal to `messages` must not break the record).
    expect(redactSecrets(value, secrets)).toEqual({ a: ['Bearer [REDACTED]', { [OPENAI]: 'as a key [REDACTED]' }], n: 123456789, ok: true, nil: null });
    expect(value.a[0]).toBe(`Bearer ${OPENAI}`); // copied, not mutated
  });

  it('replaces the longest secret first', () => {
    expect(redactSecrets('x abcdefgh-and-more y', ['abcdefgh', 'abcdefgh-and-more'])).toBe('x [REDACTED] y');
  });

  it('keeps JSON text valid, including secrets that JSON escapes and secrets made of digits', () => {
    const secrets = secretsFromEnv(ENV);
    const text = JSON.stringify({ note: `pw is ${ENV.weird_key}`, tokens: 123456789, code: '12345678' });
    const out = redactJsonText(text, secrets);
    expect(JSON.parse(out)).toEqual({ note: 'pw is [REDACTED]', tokens: 123456789, code: '[REDACTED]' });
    expect(redactJsonText('{"clean":true}', secrets)).toBe('{"clean":true}');
    expect(redactJsonText(`not json ${OPENAI}`, secrets)).toBe('not json [REDACTED]');
  });
});

describe('stores never persist secrets', () => {
  it('SessionStore redacts every field before writing', async () => {
    const kv = await openKeyValueStore('memory:');
    const sessions = new SessionStore(kv, { env: ENV, secrets: () => ['conf-stored-key-999'] });
    const s = await sessions.create({ rootAgent: 'a', messages: [userMessage(`my key is ${OPENAI}`)] });
    const saved = await sessions.save({
      ...s,
      model: 'gpt',
      messages: [...s.messages, { role: 'assistant', content: `echo ${ENV.GITHUB_TOKEN} and ${ENV.weird_key} and conf-stored-key-999` }, userMessage(`PATH=${ENV.PATH}`)],
      pendingInterrupts: [{ id: 'i', address: 'a', kind: 'approval', tool: 'shell', arguments: { env: { TOKEN: ENV.AWS_SECRET } }, message: 'ok?' }],
      usage: { promptTokens: 12345678, completionTokens: 1 },
    });
    // Every record the session wrote: its metadata and each message of its log.
    const keys = [`session:${s.id}`, ...(await kv.list(`sessionlog:${s.id}:`))];
    expect(keys).toHaveLength(4);
    const raw = (await kv.getMany(keys)).join('\n');
    for (const secret of [OPENAI, ENV.GITHUB_TOKEN, ENV.AWS_SECRET, 'pa\\"ss', 'conf-stored-key-999']) expect(raw).not.toContain(secret);
    expect(raw).toContain('my key is [REDACTED]');
    expect(raw).toContain(ENV.PATH); // not a secret
    expect(saved.messages[1].content).toBe('echo [REDACTED] and [REDACTED] and [REDACTED]');
    expect(saved.title).toBe('my key is [REDACTED]');
    expect(saved.usage.promptTokens).toBe(12345678);
    expect(await sessions.get(s.id)).toEqual(saved);
  });

  it('checkpoint stores redact JSON and plain text', async () => {
    const kv = await openKeyValueStore('memory:');
    const stores = [new KeyValueCheckpointStore(kv, { env: ENV }), new InMemoryCheckpointStore({ env: ENV })];
    for (const cp of stores) {
      const data = JSON.stringify({ version: 1, sessionValues: { apiKey: OPENAI }, events: [{ text: `t ${ENV.GITHUB_TOKEN}` }] });
      await cp.set('c1', data);
      const back = (await cp.get('c1'))!;
      expect(back).not.toContain(OPENAI);
      expect(JSON.parse(back)).toEqual({ version: 1, sessionValues: { apiKey: '[REDACTED]' }, events: [{ text: 't [REDACTED]' }] });
      await cp.set('c2', `raw ${OPENAI}`);
      expect(await cp.get('c2')).toBe('raw [REDACTED]');
      const clean = '{ "version": 1,   "spacing": "kept" }';
      await cp.set('c3', clean);
      expect(await cp.get('c3')).toBe(clean);
    }
  });
});

describe('checkpoint stores', () => {
  it('get, set, overwrite, delete and list under checkpoint:', async () => {
    const kv = await openKeyValueStore('memory:');
    const cp = new KeyValueCheckpointStore(kv, { env: {} });
    expect(await cp.get('x')).toBeUndefined();
    await cp.set('x', '{"version":1}');
    await cp.set('x', '{"version":1,"n":2}');
    await cp.set('y', 'y');
    expect(await cp.get('x')).toBe('{"version":1,"n":2}');
    expect(await kv.get('checkpoint:x')).toBe('{"version":1,"n":2}');
    expect(await cp.list()).toEqual(['x', 'y']);
    await cp.delete('x');
    await cp.delete('missing');
    expect(await cp.get('x')).toBeUndefined();
    const mem = new InMemoryCheckpointStore({ env: {} });
    await mem.set('a', 'b');
    expect(await mem.get('a')).toBe('b');
    await mem.delete('a');
    expect(await mem.get('a')).toBeUndefined();
  });
});
