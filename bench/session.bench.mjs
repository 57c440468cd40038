// W8: long sessions. (1) What one turn costs to save at 10 … 100,000 messages (SQLite and Redis),
// append-only beside the whole-record rewrite adk did before, the session loaded as resume loads it
// (from its context start: the last 10 messages, as after a compaction); (2) `adk sessions` over 200 sessions
// of 20,000 messages; (3) request bytes per turn with and without the summarize middleware.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const dist = new URL('../dist/core/', import.meta.url);
const { openKeyValueStore, SessionStore } = await import(new URL('store/index.js', dist).href);
const core = await import(new URL('index.js', dist).href);

const SIZES = [10, 1_000, 10_000, 100_000];
const TURNS = 30;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const turnMessages = (t) => [
  { role: 'user', content: `turn ${t}: please look at src/file-${t}.ts and tell me what it does` },
  { role: 'assistant', content: '', toolCalls: [{ id: `call_${t}`, function: { name: 'read_file', arguments: JSON.stringify({ path: `src/file-${t}.ts` }) } }] },
  { role: 'tool', content: `export function f${t}() {\n  return ${t};\n}\n`.repeat(4), toolCallId: `call_${t}`, toolName: 'read_file' },
  { role: 'assistant', content: `It defines f${t}, which returns ${t}. Nothing else happens in that file.` },
];

/** Counts what a store is asked to write. */
function counting(kv) {
  const c = { bytes: 0 };
  const spy = Object.assign(Object.create(kv), {
    set: (k, v) => ((c.bytes += k.length + v.length), kv.set(k, v)),
    setMany: (es) => ((c.bytes += es.reduce((n, e) => n + e.key.length + e.value.length, 0)), kv.setMany(es)),
  });
  return { spy, c };
}

/** Seeds a session with n messages straight into SQLite (in one statement: the seeding is not what is measured). */
async function seedSqlite(file, id, n, meta) {
  meta = { ...meta, contextStart: Math.max(0, n - 10) };
  const { KeyvSqlite } = await import('@keyv/sqlite');
  const db = new KeyvSqlite({ uri: `sqlite://${file}` });
  await db.query(
    `WITH RECURSIVE seq(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq WHERE i < ? - 1)
     INSERT OR REPLACE INTO keyv(key, value) SELECT 'adk:sessionlog:' || ? || ':' || printf('%010d', i),
       json_object('value', json_object('role', CASE i % 2 WHEN 0 THEN 'user' ELSE 'assistant' END, 'content', 'message ' || i || ' about the garden, the weather and the trains'))
     FROM seq`,
    n, id,
  );
  await db.query(`INSERT OR REPLACE INTO keyv(key, value) VALUES(?, json_object('value', ?))`, `adk:session:${id}`, JSON.stringify({ ...meta, id, messageCount: n }));
  // Fold the seeding's write-ahead log into the database, so the turns measured do not pay for it.
  await db.query('PRAGMA wal_checkpoint(TRUNCATE)');
  await db.disconnect();
}

/** Seeds through the store itself (Redis), in slices. */
async function seedStore(sessions, id, n) {
  let rec = await sessions.create({ id, rootAgent: 'assistant' });
  for (let i = 0; i < n; i += 5000) {
    const add = Array.from({ length: Math.min(5000, n - i) }, (_, k) => ({ role: (i + k) % 2 ? 'assistant' : 'user', content: `message ${i + k} about the garden, the weather and the trains` }));
    rec = await sessions.save({ ...rec, messages: [...rec.messages, ...add] });
    rec = { ...rec, messagesFrom: rec.messageCount, messages: [] };
  }
  await sessions.save({ ...rec, contextStart: Math.max(0, n - 10) });
}

async function perTurn(url, kind, seed) {
  const rows = [];
  // Warm-up: the first size measured must not pay for the JIT and the connection.
  {
    const kv = await openKeyValueStore(url);
    const sessions = new SessionStore(kv, { env: {} });
    let rec = await sessions.create({ id: 'warmup', rootAgent: 'assistant' });
    for (let t = 0; t < 50; t++) rec = await sessions.save({ ...rec, messages: [...rec.messages, ...turnMessages(t)] });
    await sessions.delete('warmup');
    await kv.close();
  }
  for (const n of SIZES) {
    const kv = await openKeyValueStore(url);
    const { spy, c } = counting(kv);
    const sessions = new SessionStore(spy, { env: {} });
    const id = `bench${n}`;
    await seed(sessions, id, n, kv);
    let rec = await sessions.get(id, { from: 'context', tail: 0 });
    const times = [];
    const bytes = [];
    for (let t = 0; t < TURNS; t++) {
      c.bytes = 0;
      const start = performance.now();
      rec.messages.push(...turnMessages(t));
      rec = await sessions.save(rec);
      times.push(performance.now() - start);
      bytes.push(c.bytes);
    }
    // The format before: the whole record, every message inline, written on every turn.
    const whole = JSON.stringify({ messages: Array.from({ length: n }, (_, i) => ({ role: 'user', content: `message ${i} about the garden, the weather and the trains` })) });
    const wholeTimes = [];
    for (let t = 0; t < 3; t++) {
      const start = performance.now();
      await kv.set(`bench-whole:${n}`, whole);
      wholeTimes.push(performance.now() - start);
    }
    await kv.delete(`bench-whole:${n}`);
    await sessions.delete(id);
    await kv.close();
    rows.push({ id: 'W8', workload: `W8 save one turn (${kind})`, impl: 'adk', name: `${n.toLocaleString('en')} messages`, value: median(times), min: Math.min(...times), max: Math.max(...times), unit: 'ms/turn', bytes: median(bytes), before: { ms: median(wholeTimes), bytes: whole.length } });
  }
  return rows;
}

async function listing(dir) {
  const file = join(dir, 'list.sqlite');
  const kv = await openKeyValueStore(`sqlite://${file}`);
  const sessions = new SessionStore(kv, { env: {} });
  const meta = await sessions.create({ id: 'template', rootAgent: 'assistant', title: 'a long session' });
  await sessions.delete('template');
  await kv.close();
  const { messages: _m, ...base } = meta;
  for (let s = 0; s < 200; s++) await seedSqlite(file, `s${String(s).padStart(7, '0')}`, 20_000, { ...base, title: `session ${s}`, updatedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString() });
  const bin = fileURLToPath(new URL('../bin/adk.js', import.meta.url));
  const env = { ...process.env, ADK_HOME: dir, ADK_STORE: `sqlite://${file}` };
  delete env.OPENAI_API_KEY;
  const times = [];
  for (let i = 0; i < 7; i++) {
    const start = performance.now();
    const r = spawnSync(process.execPath, [bin, 'sessions', '--json'], { env, encoding: 'utf8' });
    times.push(performance.now() - start);
    if (r.status !== 0) throw new Error(`adk sessions failed: ${r.stderr}`);
    if (JSON.parse(r.stdout).length !== 200) throw new Error('adk sessions did not list 200 sessions');
  }
  const node = [];
  for (let i = 0; i < 7; i++) {
    const start = performance.now();
    spawnSync(process.execPath, ['-e', '0']);
    node.push(performance.now() - start);
  }
  return [
    { id: 'W8l', workload: 'W8 `adk sessions`, 200 × 20,000 messages (SQLite)', impl: 'adk', value: median(times), min: Math.min(...times), max: Math.max(...times), unit: 'ms', note: `whole process; node -e 0 takes ${median(node).toFixed(0)} ms` },
  ];
}

/** Request bytes of the turn's model call, with the summarize middleware (4,000-token window) and without. */
async function requestBytes() {
  const rows = [];
  for (const summarize of [true, false]) {
    const seen = [];
    const model = Object.assign(
      new core.ScriptedChatModel((messages) => {
        if (messages[0]?.content.startsWith('You are compacting')) return { content: 'Summary: the user asked about many files; each defines one function.' };
        seen.push(JSON.stringify(messages).length);
        return { content: `Noted. ${'This file defines a function. '.repeat(4)}` };
      }),
      { contextWindow: 4000 },
    );
    const agent = new core.ChatModelAgent({ name: 'a', description: '', instruction: 'Help.', model, middlewares: summarize ? [core.summarizeMiddleware()] : [] });
    const runner = new core.Runner({ agent });
    const history = [];
    const at = {};
    for (let t = 1; t <= 1000; t++) {
      const user = core.userMessage(`Turn ${t}: what does src/file-${t}.ts do? ${'Please be careful. '.repeat(5)}`);
      const events = runner.run([user], { history: history.map((message) => ({ isUserInput: message.role === 'user', agentName: message.role === 'user' ? '' : 'a', message })) });
      let reply;
      for await (const e of events) if (e.output?.message?.message) reply = e.output.message.message;
      history.push(user, reply);
      if ([10, 100, 1000].includes(t)) at[t] = seen.at(-1);
    }
    for (const t of [10, 100, 1000]) rows.push({ id: 'W8r', workload: 'W8 request bytes per turn (4,000-token window)', impl: summarize ? 'adk' : 'baseline', name: `turn ${t}`, value: at[t], unit: 'bytes', note: summarize ? 'summarize middleware' : 'no middleware: the whole history' });
  }
  return rows;
}

/** Rows for W8; Redis rows when redis-server is on the PATH. */
export async function benchSessions({ log }) {
  const dir = mkdtempSync(join(os.tmpdir(), 'adk-bench-sessions-'));
  const rows = [];
  try {
    log('W8 per-turn save, SQLite …');
    rows.push(...(await perTurn(`sqlite://${join(dir, 'turns.sqlite')}`, 'SQLite', async (_s, id, n) => seedSqlite(join(dir, 'turns.sqlite'), id, n, await templateMeta(id)))));
    const redis = await startRedis(dir).catch((e) => (log(`W8 Redis skipped: ${e.message}`), undefined));
    if (redis) {
      try {
        log('W8 per-turn save, Redis …');
        rows.push(...(await perTurn(redis.url, 'Redis', (sessions, id, n) => seedStore(sessions, id, n))));
      } finally {
        redis.stop();
      }
    }
    log('W8 adk sessions over 4M messages …');
    rows.push(...(await listing(dir)));
    log('W8 request bytes …');
    rows.push(...(await requestBytes()));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

async function templateMeta(id) {
  const at = new Date().toISOString();
  return { version: 2, id, title: 'bench', rootAgent: 'assistant', status: 'active', pendingInterrupts: [], usage: { promptTokens: 0, completionTokens: 0 }, createdAt: at, updatedAt: at };
}

async function startRedis(dir) {
  const { spawn } = await import('node:child_process');
  const port = 20000 + Math.floor(Math.random() * 20000);
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
  await new Promise((resolve, reject) => {
    child.once('error', reject);
    setTimeout(resolve, 400);
  });
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill('SIGKILL') };
}
