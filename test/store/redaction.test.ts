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

  // Issue 28, MEDIUM 2: re-encodings of a secret are secrets too.
  it('catches upper/lower case, base64 (both alphabets, 3 alignments, inside longer text), URL encoding, hex and reversed', () => {
    const s = 'sk-Enc0d3d+Key/Zq9xW7';
    const b64 = (t: string) => Buffer.from(t).toString('base64');
    const hex = Buffer.from(s).toString('hex');
    const forms = {
      upper: s.toUpperCase(),
      lower: s.toLowerCase(),
      mixed: 'sK-eNC0D3D+kEY/zQ9Xw7',
      base64: b64(s),
      base64_1: b64(`a${s}bcd`),
      base64_2: b64(`ab${s}c`),
      base64url: b64(`xyz${s}`).replace(/\+/g, '-').replace(/\//g, '_'),
      url: encodeURIComponent(s),
      every_byte: hex.replace(/../g, '%$&'),
      hex,
      hex_upper: hex.toUpperCase(),
      reversed: [...s].reverse().join(''),
    };
    for (const [name, form] of Object.entries(forms)) {
      const out = redactSecrets(`before ${form} after`, [s]);
      expect(out, name).toMatch(/^before \S{0,4}\[REDACTED\]\S{0,8} after$/);
    }
    // In JSON text, too.
    expect(redactJsonText(JSON.stringify({ t: forms.base64_1, u: forms.upper }), [s])).not.toMatch(/Zq9x|ZQ9X|S0tS2V5/);
  });

  it('leaves ordinary text whole: no forms of secrets shorter than 8 characters, and words around a secret kept', () => {
    const text = 'The cat sat on the mat; olleh, 6f6b, b2s=, HELLO and hello stay.';
    expect(redactSecrets(text, ['hello', 'ok', 'abc1234'])).toBe(text);
    expect(redactSecrets('Use PASSWORD1 or password1, not password12', ['password1'])).toBe('Use [REDACTED] or [REDACTED], not [REDACTED]2');
  });

  it('takes linear time on hostile text (1 MB of a repeated secret character)', () => {
    const text = 'a'.repeat(1_000_000);
    const started = performance.now();
    const out = redactSecrets(text, ['aaaaaaaa', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa']);
    expect(out.startsWith('[REDACTED]')).toBe(true);
    expect(out).not.toContain('aaaaaaaa');
    expect(performance.now() - started).toBeLessThan(2000);
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
    // What another process reads: a KeyValueCheckpointStore of its own on the same store.
    const stores = [
      [new KeyValueCheckpointStore(kv, { env: ENV }), new KeyValueCheckpointStore(kv, { env: ENV })],
      [new InMemoryCheckpointStore({ env: ENV }), undefined],
    ] as const;
    for (const [cp, other] of stores) {
      const reader = other ?? cp;
      const data = JSON.stringify({ version: 1, sessionValues: { apiKey: OPENAI }, events: [{ text: `t ${ENV.GITHUB_TOKEN}` }] });
      await cp.set('c1', data);
      const back = (await reader.get('c1'))!;
      expect(back).not.toContain(OPENAI);
      expect(JSON.parse(back)).toEqual({ version: 1, sessionValues: { apiKey: '[REDACTED]' }, events: [{ text: 't [REDACTED]' }] });
      await cp.set('c2', `raw ${OPENAI}`);
      expect(await reader.get('c2')).toBe('raw [REDACTED]');
      const clean = '{ "version": 1,   "spacing": "kept" }';
      await cp.set('c3', clean);
      expect(await reader.get('c3')).toBe(clean);
    }
  });

  it('the process that wrote a checkpoint redaction changed reads it as written, while the store holds what it wrote (issue 28, LOW 4)', async () => {
    const kv = await openKeyValueStore('memory:');
    const mine = new KeyValueCheckpointStore(kv, { env: ENV });
    const theirs = new KeyValueCheckpointStore(kv, { env: ENV });
    const data = JSON.stringify({ version: 1, args: `curl -H "Bearer ${OPENAI}"` });
    await mine.set('c', data);
    expect(await kv.get('checkpoint:c')).not.toContain(OPENAI);
    expect(await mine.get('c')).toBe(data);
    expect(await theirs.get('c')).not.toContain(OPENAI);
    // Another process wrote it since: its text wins.
    await theirs.set('c', '{"version":1,"n":2}');
    expect(await mine.get('c')).toBe('{"version":1,"n":2}');
    await mine.set('c', data);
    await mine.delete('c');
    expect(await mine.get('c')).toBeUndefined();
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
