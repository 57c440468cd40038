// W10: a turn's first words over ACP against `adk run --json`, on the same local model server.
//  - ACP: `adk acp` started once, one session; the time from sending `session/prompt` to the first
//    `agent_message_chunk`, through the ACP SDK's own client (what an editor waits for).
//  - run --json: the time from its `session` line (the turn starts right after it) to its first
//    `delta` line: the same span of a turn, without the process start both pay differently.
import { client, ndJsonStream } from '@agentclientprotocol/sdk';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { summary } from './harness.mjs';
import { startSseServer } from './sse-server.mjs';

const ADK = fileURLToPath(new URL('../bin/adk.js', import.meta.url));
const RUNS = 15;

/** ms from the `session` line to the first `delta` line of one `adk run --json`. */
function runJsonTurn(env, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [ADK, 'run', '--json', 'hi'], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let session;
    let first;
    child.stdout.setEncoding('utf8').on('data', (d) => {
      const now = performance.now();
      out += d;
      if (session === undefined && out.includes('"type":"session"')) session = now;
      if (first === undefined && out.includes('"type":"delta"')) first = now;
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 && first !== undefined ? resolve(first - session) : reject(new Error(`adk run exited ${code}: ${out.slice(0, 300)}`))));
  });
}

/** An ACP session over `adk acp`; `turn()` resolves with ms from session/prompt to the first message chunk. */
async function acpSession(env, cwd) {
  const child = spawn(process.execPath, [ADK, 'acp'], { env, cwd, stdio: ['pipe', 'pipe', 'inherit'] });
  let waiting;
  const app = client({ name: 'bench' }).onNotification('session/update', ({ params }) => {
    if (params.update.sessionUpdate === 'agent_message_chunk' && waiting) {
      waiting(performance.now());
      waiting = undefined;
    }
  });
  const conn = app.connect(ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout)));
  await conn.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
  const { sessionId } = await conn.agent.request('session/new', { cwd, mcpServers: [] });
  return {
    async turn() {
      const first = new Promise((r) => (waiting = r));
      const t0 = performance.now();
      const done = conn.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hi' }] });
      const t1 = await first;
      await done;
      return t1 - t0;
    },
    async close() {
      child.stdin.end();
      await new Promise((r) => child.once('exit', r));
    },
  };
}

export async function benchAcp({ log = () => {} } = {}) {
  log('W10 ACP …');
  const server = await startSseServer();
  const cwd = mkdtempSync(join(tmpdir(), 'adk-bench-acp-'));
  const home = mkdtempSync(join(tmpdir(), 'adk-bench-acp-home-'));
  const env = { ...process.env, ADK_HOME: home, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'bench-key', ADK_MODEL: 'bench-model', NO_COLOR: '1' };
  const acp = await acpSession(env, cwd);
  try {
    const a = [];
    const r = [];
    for (let i = 0; i < 2; i++) {
      await acp.turn();
      await runJsonTurn(env, cwd);
    }
    for (let i = 0; i < RUNS; i++) {
      a.push(await acp.turn());
      r.push(await runJsonTurn(env, cwd));
    }
    const sa = summary(a);
    const sr = summary(r);
    const title = 'W10 a turn to its first words: ACP prompt → first chunk vs `adk run --json` session → first delta';
    return [
      { id: 'W10', workload: title, impl: 'adk run --json', value: sr.median, min: sr.min, max: sr.max, runs: sr.samples.length, unit: 'ms', note: 'same local SSE server' },
      { id: 'W10', workload: title, impl: 'adk acp', value: sa.median, min: sa.min, max: sa.max, runs: sa.samples.length, unit: 'ms', note: 'one `adk acp` process, one session' },
    ];
  } finally {
    await acp.close();
    await server.close();
    rmSync(cwd, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
}
