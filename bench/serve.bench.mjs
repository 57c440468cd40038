// W9: `adk serve` under load. Turns per second and p50/p99 latency of a whole turn over HTTP
// (POST /v1/sessions/:id/messages, Accept: application/json) with autocannon, against the same turn
// through the library in-process (Conversation.send), both on SQLite and a local OpenAI-compatible
// server that answers at once: the difference is what HTTP, SSE bookkeeping and the session hub cost.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { summary } from './harness.mjs';
import { startSseServer } from './sse-server.mjs';

const ADK = fileURLToPath(new URL('../bin/adk.js', import.meta.url));
const SESSIONS = 100;
const TURNS = 400;

/** `adk serve` with a token; its url carries the token as a path prefix (every client must show it). */
function startServe(env, cwd, args = []) {
  const token = 'bench-token-0123456789abcdef';
  const child = spawn(process.execPath, [ADK, 'serve', '--port', '0', ...args], { env: { ...env, ADK_SERVE_TOKEN: token }, cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (d) => {
      err += d;
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) resolve({ url: `${m[1]}/t/${token}`, stop: () => new Promise((r) => (child.once('exit', r), child.kill('SIGTERM'))) });
    });
    child.once('exit', (code) => reject(new Error(`adk serve exited ${code}: ${err}`)));
  });
}

function startWorker(env, cwd) {
  const child = spawn(process.execPath, [ADK, 'worker', '--concurrency', '4'], { env, cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (d) => {
      err += d;
      if (/waiting for turns/.test(err)) resolve({ stop: () => new Promise((r) => (child.once('exit', r), child.kill('SIGTERM'))) });
    });
    child.once('exit', (code) => reject(new Error(`adk worker exited ${code}: ${err}`)));
  });
}

/** A throwaway redis-server on a free port (none installed: no Redis rows). */
async function startRedis() {
  const { createServer } = await import('node:net');
  const port = await new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const ok = await new Promise((resolve) => {
    child.once('error', () => resolve(false));
    setTimeout(() => resolve(child.exitCode === null), 300);
  });
  return ok ? { url: `redis://127.0.0.1:${port}`, stop: () => child.kill('SIGKILL') } : undefined;
}

async function createSessions(url) {
  const ids = [];
  for (let i = 0; i < SESSIONS; i++) ids.push((await (await fetch(`${url}/v1/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json()).id);
  return ids;
}

/** `adk serve` on Redis: in-process, then queuing turns for `workers` worker processes. */
async function overRedis(env, dir, workers) {
  const redis = await startRedis();
  if (!redis) return undefined;
  const renv = { ...env, ADK_STORE: redis.url };
  try {
    const inProcess = await startServe(renv, dir, ['--in-process']);
    let local;
    try {
      const ids = await createSessions(inProcess.url);
      await load(inProcess.url, ids, 1); // warm-up
      local = { one: await load(inProcess.url, ids, 1), ten: await load(inProcess.url, ids, 10) };
    } finally {
      await inProcess.stop();
    }
    const pool = await Promise.all(Array.from({ length: workers }, () => startWorker(renv, dir)));
    const server = await startServe(renv, dir);
    try {
      const ids = await createSessions(server.url);
      await load(server.url, ids, 1); // warm-up
      return { local, one: await load(server.url, ids, 1), ten: await load(server.url, ids, 10) };
    } finally {
      await server.stop();
      await Promise.all(pool.map((w) => w.stop()));
    }
  } finally {
    redis.stop();
  }
}

/** LangGraph's API server (in-memory, as `langgraphjs dev` runs it) on the same model server. */
async function langgraphServer(modelUrl) {
  const { createServer } = await import('node:net');
  const port = await new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });
  const script = fileURLToPath(new URL('./peers/langgraph-server.mjs', import.meta.url));
  const child = spawn(process.execPath, [script], { env: { ...process.env, MODEL_URL: modelUrl, PORT: String(port), LOG_LEVEL: 'error' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => ((out += d), /started/.test(out) && resolve()));
    child.stderr.on('data', (d) => (out += d));
    child.once('exit', (code) => reject(new Error(`langgraph server exited ${code}: ${out.slice(-500)}`)));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => new Promise((r) => (child.once('exit', r), child.kill('SIGKILL'))) };
}

/** Turns through LangGraph's server, fewer than adk's: its in-memory run queue takes ~0.5 s a turn. */
const LANGGRAPH_TURNS = 40;

/** Whole turns through LangGraph's server: POST /threads/:id/runs/wait. */
function loadLangGraph(url, threads, connections) {
  return loadTurns(url, connections, LANGGRAPH_TURNS, {
    path: (n) => `/threads/${threads[n % threads.length]}/runs/wait`,
    body: (n) => ({ assistant_id: 'agent', input: { messages: [{ role: 'user', content: `turn ${n}` }] } }),
  });
}

async function langgraphRows(modelUrl) {
  const server = await langgraphServer(modelUrl);
  try {
    const threads = [];
    for (let i = 0; i < SESSIONS; i++) threads.push((await (await fetch(`${server.url}/threads`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json()).thread_id);
    return { one: await loadLangGraph(server.url, threads, 1), ten: await loadLangGraph(server.url, threads, 10) };
  } finally {
    await server.stop();
  }
}

/** Threads on adk serve's LangGraph API, and the assistant (team) they run. */
async function createThreads(url) {
  const [assistant] = await (await fetch(`${url}/assistants/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json();
  const threads = [];
  for (let i = 0; i < SESSIONS; i++) threads.push((await (await fetch(`${url}/threads`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json()).thread_id);
  return { assistant: assistant.assistant_id, threads };
}

/** The same turns through adk serve's LangGraph API: POST /threads/:id/runs/wait (what `client.runs.wait` sends). */
function loadAdkLangGraph(url, { assistant, threads }, connections) {
  return loadTurns(url, connections, TURNS, {
    path: (n) => `/threads/${threads[n % threads.length]}/runs/wait`,
    body: (n) => ({ assistant_id: assistant, input: { messages: [{ type: 'human', content: `turn ${n}` }] } }),
  });
}

/**
 * The LangGraph API's cost over /v1, precisely: one /v1 turn and one LangGraph turn alternated, TURNS
 * of each on the same server, each timed (sub-millisecond; autocannon's latencies are whole ms), so
 * the machine's load drifts over both alike.
 */
async function alternated(url, ids, lg) {
  const post = async (path, body, accept) => {
    const res = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(accept ? { accept } : {}) }, body: JSON.stringify(body) });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${path}: ${res.status}`);
  };
  const v1 = [], viaLg = [];
  for (let i = 0; i < TURNS; i++) {
    let s = performance.now();
    await post(`/v1/sessions/${ids[i % ids.length]}/messages`, { content: `alt ${i}` }, 'application/json');
    v1.push(performance.now() - s);
    s = performance.now();
    await post(`/threads/${lg.threads[i % lg.threads.length]}/runs/wait`, { assistant_id: lg.assistant, input: { messages: [{ type: 'human', content: `alt ${i}` }] } });
    viaLg.push(performance.now() - s);
  }
  return { v1: summary(v1), lg: summary(viaLg) };
}

/** Whole turns through adk serve: POST /v1/sessions/:id/messages, Accept: application/json. */
function load(url, ids, connections) {
  return loadTurns(url, connections, TURNS, { path: (n) => `/v1/sessions/${ids[n % ids.length]}/messages`, body: (n) => ({ content: `turn ${n}` }), accept: 'application/json' });
}

/** `amount` POSTs over `connections` connections with autocannon, each to the next path and body. */
async function loadTurns(url, connections, amount, { path, body, accept }) {
  let n = 0;
  // autocannon replaces the url's path with each request's: keep adk serve's `/t/<token>` prefix.
  const prefix = new URL(url).pathname.replace(/\/$/, '');
  const headers = { 'content-type': 'application/json', ...(accept ? { accept } : {}) };
  const result = await autocannon({
    url,
    connections,
    amount,
    requests: [{ method: 'POST', headers, setupRequest: (req) => ({ ...req, path: prefix + path(n), body: JSON.stringify(body(n++)) }) }],
  });
  if (result.non2xx || result.errors) throw new Error(`${url}: ${result.non2xx} non-2xx and ${result.errors} errors of ${result.requests.total}`);
  return { turnsPerSec: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

async function library(modelUrl, dir) {
  const { ChatModelAgent, OpenAIChatModel } = await import('../dist/core/index.js');
  const { Conversation, openAdkStores } = await import('../dist/core/entries/conversation.js');
  const stores = await openAdkStores(`sqlite://${join(dir, 'lib.db')}`);
  const agent = new ChatModelAgent({ name: 'assistant', description: 'helps', model: new OpenAIChatModel({ model: 'bench-model', baseURL: modelUrl, apiKey: 'bench-key' }) });
  const convs = [];
  for (let i = 0; i < 10; i++) convs.push(await Conversation.start({ agent, stores }));
  const times = [];
  const t0 = performance.now();
  for (let i = 0; i < TURNS; i++) {
    const s = performance.now();
    await convs[i % convs.length].send(`turn ${i}`).result;
    times.push(performance.now() - s);
  }
  const elapsed = performance.now() - t0;
  for (const c of convs) await c.close();
  await stores.close();
  const sorted = [...times].sort((a, b) => a - b);
  return { turnsPerSec: (TURNS / elapsed) * 1000, p50: summary(times).median, p99: sorted[Math.floor(sorted.length * 0.99) - 1] };
}

/** Rows for W9: serve with 1 and 10 connections, and the library in-process. */
export async function benchServe({ log = () => {} } = {}) {
  log('W9 serve …');
  const model = await startSseServer();
  const dir = mkdtempSync(join(tmpdir(), 'adk-bench-serve-'));
  const env = { PATH: process.env.PATH, HOME: dir, ADK_HOME: join(dir, 'adk'), OPENAI_BASE_URL: model.url, OPENAI_API_KEY: 'bench-key', ADK_MODEL: 'bench-model' };
  const rows = [];
  const title = `W9 serve: ${TURNS} turns over ${SESSIONS} sessions (SQLite, instant model)`;
  try {
    const lib = await library(model.url, dir);
    const server = await startServe(env, dir);
    try {
      const ids = await createSessions(server.url);
      const lgThreads = await createThreads(server.url);
      await load(server.url, ids, 1); // warm-up
      await loadAdkLangGraph(server.url, lgThreads, 1); // warm-up
      const one = await load(server.url, ids, 1);
      const lgOne = await loadAdkLangGraph(server.url, lgThreads, 1);
      const ten = await load(server.url, ids, 10);
      const lgTen = await loadAdkLangGraph(server.url, lgThreads, 10);
      const alt = await alternated(server.url, ids, lgThreads);
      const row = (impl, r, note) => ({ id: 'W9', workload: title, impl, value: r.p50, min: r.p50, max: r.p99, unit: 'ms p50 (max = p99)', note: `${r.turnsPerSec.toFixed(0)} turns/s; p99 ${r.p99.toFixed(1)} ms${note ? `; ${note}` : ''}` });
      rows.push(row('adk', one, `adk serve, 1 connection; overhead vs the library in-process: p50 +${(one.p50 - lib.p50).toFixed(1)} ms`));
      rows.push(row('adk', ten, 'adk serve, 10 connections'));
      // Issue 34: the same server and turns through its LangGraph API (threads, run records, LangChain messages).
      rows.push(row('adk langgraph-api', lgOne, `adk serve's LangGraph API, POST /threads/:id/runs/wait, 1 connection; vs its own /v1: p50 ${lgOne.p50 >= one.p50 ? '+' : ''}${(lgOne.p50 - one.p50).toFixed(1)} ms`));
      rows.push(row('adk langgraph-api', lgTen, `adk serve's LangGraph API, 10 connections; vs its own /v1: p50 ${lgTen.p50 >= ten.p50 ? '+' : ''}${(lgTen.p50 - ten.p50).toFixed(1)} ms`));
      const altTitle = `W9 serve, /v1 vs LangGraph API: ${TURNS} turns of each, alternated one by one, each timed (SQLite, instant model)`;
      const arow = (impl, r, note) => ({ id: 'W9lg', workload: altTitle, impl, value: r.median, min: r.min, max: r.max, unit: 'ms median', note });
      rows.push(arow('adk', alt.v1, 'POST /v1/sessions/:id/messages (Accept: application/json)'));
      rows.push(arow('adk langgraph-api', alt.lg, `POST /threads/:id/runs/wait; vs /v1: median ${alt.lg.median >= alt.v1.median ? '+' : ''}${(alt.lg.median - alt.v1.median).toFixed(2)} ms`));
      rows.push(row('baseline', lib, 'the same turns through Conversation.send in-process (no HTTP)'));
      const lg = await langgraphRows(model.url).catch((e) => (log(`W9 langgraph server: ${e.message}`), undefined));
      if (lg) {
        rows.push(row('langgraph', lg.one, `LangGraph API server (@langchain/langgraph-api 1.5, in-memory, as \`langgraphjs dev\`), createReactAgent, POST /threads/:id/runs/wait, ${LANGGRAPH_TURNS} turns, 1 connection`));
        rows.push(row('langgraph', lg.ten, `the same, ${LANGGRAPH_TURNS} turns, 10 connections`));
      }
    } finally {
      await server.stop();
    }
    const workers = 2;
    const redis = await overRedis(env, dir, workers);
    const redisTitle = `W9 serve on Redis: ${TURNS} turns over ${SESSIONS} sessions (instant model)`;
    const rrow = (impl, r, note) => ({ id: 'W9', workload: redisTitle, impl, value: r.p50, min: r.p50, max: r.p99, unit: 'ms p50 (max = p99)', note: `${r.turnsPerSec.toFixed(0)} turns/s; p99 ${r.p99.toFixed(1)} ms; ${note}` });
    if (redis) {
      rows.push(rrow('adk', redis.one, `adk serve + ${workers} adk worker processes (BullMQ), 1 connection; vs in-process on Redis: p50 +${(redis.one.p50 - redis.local.one.p50).toFixed(1)} ms`));
      rows.push(rrow('adk', redis.ten, `adk serve + ${workers} adk worker processes (BullMQ, 4 turns each at once), 10 connections`));
      rows.push(rrow('baseline', redis.local.one, 'adk serve --in-process on the same Redis store, 1 connection'));
      rows.push(rrow('baseline', redis.local.ten, 'adk serve --in-process on the same Redis store, 10 connections'));
    }
  } finally {
    await model.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
