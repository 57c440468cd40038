import { randomInt } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { KeyvSqlite } from '@keyv/sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { openKeyValueStore, SessionStore } from '../../src/core/store/index.js';
import { useOpenAIServer, type OpenAITestServer } from '../support/openai-server.js';
import { freePort, startRedisServer, type RedisServer } from '../support/redis-server.js';
import { cli, expectCleanStderr, FAULT_KEY, jsonLines, modelEnv, ofType, showSession, spawnCli, workspace } from './helpers.js';

/*
 * Store faults, driven through the CLI: broken records, a SQLite file locked by another process,
 * Redis that is down or dies mid-run, and kill -9 while sessions are being written.
 */

let server: OpenAITestServer;
useOpenAIServer((s) => (server = s));

const sqliteFile = (home: string) => join(home, 'adk.sqlite');

/** One finished `adk run`, returning its session id. */
async function newSession(env: Record<string, string | undefined>, cwd: string, prompt: string): Promise<string> {
  server.enqueue({ content: `answer to ${prompt}` });
  const r = await cli(['run', '--json', prompt], { env, cwd });
  expect(r.code, r.stderr).toBe(0);
  return r.lines[0].sessionId;
}

/** Rewrites a stored record behind adk's back, as a crash, a bad disk or a newer adk would. */
async function overwrite(home: string, id: string, raw: string): Promise<void> {
  const kv = await openKeyValueStore(`sqlite://${sqliteFile(home)}`);
  await kv.set(`session:${id}`, raw);
  await kv.close();
}

describe('a corrupt record, or one with an unknown version', () => {
  it('gives a clear error naming the session; the other sessions keep working', async () => {
    const { cwd, home } = workspace();
    const env = modelEnv(server, home);
    const good = await newSession(env, cwd, 'first');
    const torn = await newSession(env, cwd, 'second');
    const newer = await newSession(env, cwd, 'third');
    const odd = await newSession(env, cwd, 'fourth');
    await overwrite(home, torn, `{"version":1,"id":"${torn}","title":"sec`); // a write cut short
    await overwrite(home, newer, JSON.stringify({ version: 7, id: newer }));
    await overwrite(home, odd, JSON.stringify({ version: 'beta', id: odd }));

    const cases: Array<[string, RegExp]> = [
      [torn, new RegExp(`^adk: session ${torn} is corrupt: invalid JSON`)],
      [newer, new RegExp(`^adk: session ${newer} was written by a newer adk \\(version 7\\); upgrade adk to open it`)],
      [odd, new RegExp(`^adk: session ${odd} has an unknown version \\("beta"\\)`)],
    ];
    for (const [id, message] of cases) {
      for (const args of [['sessions', 'show', id], ['resume', id, 'more'], ['run', '--session', id, 'more']]) {
        const r = await cli(args, { env, cwd });
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(1);
        expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(message)]);
        expectCleanStderr(r.stderr);
      }
    }
    expect(server.chatRequests.length).toBe(4); // none of the failed commands reached the model

    // The list shows the good session and flags the three broken ones by id.
    const list = await cli(['sessions', 'list', '--json'], { env, cwd });
    expect(list.code).toBe(0);
    const entries = JSON.parse(list.stdout);
    expect(entries.filter((e: any) => !e.corrupt).map((e: any) => e.id)).toEqual([good]);
    expect(entries.filter((e: any) => e.corrupt).map((e: any) => [e.id, e.code]).sort()).toEqual(
      [
        [torn, 'session_corrupt'],
        [newer, 'session_version'],
        [odd, 'session_version'],
      ].sort(),
    );
    const text = await cli(['sessions'], { env, cwd });
    expect(text.stdout).toMatch(new RegExp(`${torn}\\s+CORRUPT\\s+session ${torn} is corrupt`));

    // The good session still resumes and saves.
    server.enqueue({ content: 'still here' });
    const more = await cli(['resume', good, 'and more'], { env, cwd });
    expect(more.code, more.stderr).toBe(0);
    const session = await showSession(good, env, cwd);
    expect(session.messages.map((m: any) => m.content)).toEqual(['first', 'answer to first', 'and more', 'still here']);
    // A broken session can be deleted by id.
    expect((await cli(['sessions', 'delete', torn], { env, cwd })).code).toBe(0);
  });
});

describe('SQLite locked by another process', () => {
  async function lockedWhile<T>(home: string, fn: (release: () => Promise<void>) => Promise<T>): Promise<T> {
    const holder = new KeyvSqlite({ uri: `sqlite://${sqliteFile(home)}` });
    await holder.query('BEGIN EXCLUSIVE');
    let released = false;
    const release = async () => {
      if (released) return;
      released = true;
      await holder.query('ROLLBACK');
    };
    try {
      return await fn(release);
    } finally {
      await release();
      await holder.disconnect();
    }
  }

  it('is waited on and retried, then a clear error; nothing is corrupted', async () => {
    const { cwd, home } = workspace();
    const env = { ...modelEnv(server, home), ADK_STORE_LOCK_TIMEOUT_MS: '200' };
    const id = await newSession(env, cwd, 'before the lock');
    const r = await lockedWhile(home, async () => {
      const started = Date.now();
      const res = await cli(['run', '--session', id, 'during the lock'], { env, cwd });
      return { ...res, took: Date.now() - started };
    });
    expect(r.code).toBe(1);
    // 200 ms busy wait, then 3 more attempts with backoff: at least 800 ms of waiting.
    expect(r.took).toBeGreaterThanOrEqual(800);
    expect(r.stderr.trim().split('\n')).toEqual([`adk: store is locked by another process: ${sqliteFile(home)}`]);
    expect(server.chatRequests.length).toBe(1);
    const session = await showSession(id, env, cwd);
    expect(session.messages.map((m: any) => m.content)).toEqual(['before the lock', 'answer to before the lock']);
  });

  it('a lock released while adk retries: the run goes through', async () => {
    const { cwd, home } = workspace();
    const env = { ...modelEnv(server, home), ADK_STORE_LOCK_TIMEOUT_MS: '150' };
    const id = await newSession(env, cwd, 'one');
    server.enqueue({ content: 'two done' });
    const r = await lockedWhile(home, async (release) => {
      const run = cli(['run', '--json', '--session', id, 'two'], { env, cwd });
      // Longer than one busy wait, so only a retry can succeed.
      await new Promise((res) => setTimeout(res, 700));
      await release();
      return run;
    });
    expect(r.code, r.stderr).toBe(0);
    const session = await showSession(id, env, cwd);
    expect(session.messages.map((m: any) => m.content)).toEqual(['one', 'answer to one', 'two', 'two done']);
  });
});

describe('Redis down at start, and killed mid-run', () => {
  let redis: RedisServer | undefined;
  afterEach(async () => {
    await redis?.stop();
    redis = undefined;
  });

  it('down at start: a clear error naming the store, quickly, and the model is never called', async () => {
    const { cwd, home } = workspace();
    const port = await freePort();
    const env = { ...modelEnv(server, home), ADK_STORE: `redis://:pw-${FAULT_KEY}@127.0.0.1:${port}` };
    const started = Date.now();
    const r = await cli(['run', '--json', 'hi'], { env, cwd });
    expect(r.code).toBe(1);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(new RegExp(`^adk: cannot connect to redis store redis://127\\.0\\.0\\.1:${port}.*ECONNREFUSED`))]);
    expect(r.stdout + r.stderr).not.toContain(FAULT_KEY);
    expect(server.chatRequests).toHaveLength(0);
    expectCleanStderr(r.stderr);
  });

  const slowReply = { content: 'a reply that is still streaming when the store dies', chunkSize: 4, chunkDelayMs: 40 };

  it('killed mid-run and still down: the save is retried, then a clear error; the conversation is kept in a file', async () => {
    redis = await startRedisServer();
    const { cwd, home } = workspace();
    const env = { ...modelEnv(server, home), ADK_STORE: redis.url };
    server.enqueue(slowReply);
    const p = spawnCli(['run', '--json', 'remember this'], { env, cwd });
    await p.waitForLine((l) => l.includes('"delta"'));
    await redis.kill();
    const exit = await p.exited;
    expect(exit.code).toBe(1);
    const lines = jsonLines(p.stdout());
    const id = lines[0].sessionId;
    expect(ofType(lines, 'message').map((m) => m.content)).toEqual([slowReply.content]);
    expect(lines.at(-1)).toMatchObject({ type: 'done', status: 'error', sessionId: id });
    const stderr = p.stderr().trim().split('\n');
    expect(stderr.filter((l) => /saving again in \d+ ms \(attempt \d\)/.test(l)).length).toBe(4);
    const last = stderr.at(-1)!;
    expect(last).toMatch(new RegExp(`^adk: could not save session ${id}: saving session ${id} failed after 5 attempts: .*redis.*; the conversation was written to `));
    expectCleanStderr(p.stderr());
    // Nothing of the run is lost: the file holds the whole conversation, owner-only, without the key.
    const file = join(home, 'unsaved', `${id}.json`);
    expect(last.endsWith(file)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(FAULT_KEY);
    const record = JSON.parse(text);
    expect(record.messages.map((m: any) => [m.role, m.content])).toEqual([
      ['user', 'remember this'],
      ['assistant', slowReply.content],
    ]);
    expect(record.status).toBe('completed');
  });

  it('killed mid-run and back within seconds: the save is retried and succeeds', async () => {
    redis = await startRedisServer();
    const port = redis.port;
    const { cwd, home } = workspace();
    const env = { ...modelEnv(server, home), ADK_STORE: redis.url };
    server.enqueue(slowReply);
    const p = spawnCli(['run', '--json', 'keep this'], { env, cwd });
    await p.waitForLine((l) => l.includes('"delta"'));
    await redis.kill();
    await redis.stop();
    // Back only after a save has failed, so only a retry can save the session.
    await p.waitForStderr(/saving again in/);
    redis = await startRedisServer({ port });
    const exit = await p.exited;
    expect(exit.code, p.stderr()).toBe(0);
    expect(p.stderr()).toMatch(/saving again in \d+ ms \(attempt 2\)/);
    const id = jsonLines(p.stdout())[0].sessionId;
    const session = await showSession(id, env, cwd);
    expect(session.messages.map((m: any) => [m.role, m.content])).toEqual([
      ['user', 'keep this'],
      ['assistant', slowReply.content],
    ]);
    expect(existsSync(join(home, 'unsaved'))).toBe(false);
  });
});

describe('SIGKILL during a write, repeated', () => {
  it('leaves no torn record and loses no confirmed one', async () => {
    const { cwd, home } = workspace();
    const env = modelEnv(server, home);
    // A large prompt makes every save a large write, so the kills land inside writes often.
    const prompt = (i: number) => `run ${i} ${'lorem ipsum dolor sit amet 漢字 🙂 '.repeat(40_000)}`;
    server.onRequest(() => ({ content: 'done quickly' }));
    const created = new Set<string>();
    const finished = new Set<string>();
    const prompts = new Map<string, string>();
    let killed = 0;
    for (let i = 0; i < 12; i++) {
      const p = spawnCli(['run', '--json', '-'], { env, cwd, input: prompt(i) });
      // Half the kills are timed from the session line (around the saves), half from the start.
      if (i % 2) await p.waitForLine((l) => l.includes('"session"')).catch(() => undefined);
      await new Promise((r) => setTimeout(r, i % 2 ? randomInt(60) : 150 + randomInt(250)));
      p.child.kill('SIGKILL');
      const exit = await p.exited;
      if (exit.signal === 'SIGKILL') killed++;
      const lines = jsonLines(p.stdout().slice(0, p.stdout().lastIndexOf('\n') + 1));
      const id = lines.find((l) => l.type === 'session')?.sessionId;
      if (!id) continue;
      created.add(id);
      prompts.set(id, prompt(i));
      if (lines.some((l) => l.type === 'done')) finished.add(id);
    }
    expect(killed).toBeGreaterThan(8);
    expect(created.size).toBeGreaterThan(3);

    const holder = new KeyvSqlite({ uri: `sqlite://${sqliteFile(home)}` });
    expect(await holder.query('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    await holder.disconnect();

    const kv = await openKeyValueStore(`sqlite://${sqliteFile(home)}`);
    const sessions = new SessionStore(kv, { env: {} });
    try {
      const list = await sessions.list();
      expect(list.filter((e) => e.corrupt)).toEqual([]);
      for (const id of created) {
        const s = await sessions.get(id);
        expect(s, `confirmed session ${id} is missing`).toBeDefined();
        // Whole or not there at all: the prompt is never cut short.
        const user = s!.messages.filter((m) => m.role === 'user');
        expect(user.length).toBeLessThanOrEqual(1);
        if (user.length) expect(user[0].content).toBe(prompts.get(id));
        if (finished.has(id)) {
          expect(s!.status).toBe('completed');
          expect(s!.messages.map((m) => m.content).at(-1)).toBe('done quickly');
        }
      }
    } finally {
      await kv.close();
    }
    // The CLI still works on the same store afterwards.
    const after = await cli(['sessions', 'list', '--json'], { env, cwd });
    expect(after.code).toBe(0);
  }, 60_000);
});
