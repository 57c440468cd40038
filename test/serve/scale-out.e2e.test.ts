import { mkdtempSync, readFileSync, readlinkSync, realpathSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { signTurnJob } from '../../src/serve/queue/turn-job.js';
import { useServer } from '../cli/helpers.js';
import { trustAgentsFile } from '../support/trust.js';
import { serveEnv, startServeProcess, startWorkerProcess, useRedisAndChildren } from './serve-process.js';
import { readSse } from './sse.js';

// Issue 17: `adk serve` + 3 `adk worker` processes on one Redis. 100 sessions × 3 turns with a
// scripted model: every turn completes exactly once, the work is spread, and SIGKILL of the worker
// running a turn (after its tool finished) loses no turn and runs no finished tool again.
const model = useServer();
const { redis: redisServer, children } = useRedisAndChildren();

const SESSIONS = 100;
const TURNS = 3;
const CLIENTS = 20;
const VICTIM = 's0-t2';

/** A team whose one tool appends its line to a file: the file counts every run of the tool, across processes. */
function recordingTeam(dir: string, log: string): string {
  writeFileSync(
    join(dir, 'tools.mjs'),
    `import { appendFileSync } from 'node:fs';
export const record = {
  name: 'record', description: 'Records a line.',
  parameters: { type: 'object', properties: { line: { type: 'string' } }, required: ['line'] },
  execute: ({ line }) => { appendFileSync(${JSON.stringify(log)}, line + '\\n'); return 'recorded ' + line; },
};
`,
  );
  const file = join(dir, 'agents.yaml');
  writeFileSync(file, 'version: 1\ndefault: r\nagents:\n  r:\n    description: Records.\n    instruction: Record the line.\n    tools: [{ module: ./tools.mjs, export: record }]\n');
  return realpathSync(file);
}

/** Whether a worker's log shows a turn of the session started and not ended: the worker running it. */
function runningTurnOf(log: string, session: string): boolean {
  const started = [...log.matchAll(new RegExp(`starting turn (\\S+) of session ${session}`, 'g'))].map((m) => m[1]);
  return started.some((turn) => !log.includes(`ended turn ${turn} `));
}

describe('adk serve + adk worker on Redis (scale-out)', () => {
  it('100 sessions × 3 turns over 3 workers: each turn once, spread, and a SIGKILLed worker loses nothing', async () => {
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'adk-scale-')));
    const toolLog = join(home, 'tool-runs.log');
    writeFileSync(toolLog, '');
    const agents = recordingTeam(home, toolLog);
    const env = serveEnv(home, model().url, { ADK_STORE: redisServer().url, ADK_WORKER_LOCK_MS: '2000' });
    trustAgentsFile(env.ADK_HOME!, agents);

    const workers = await Promise.all([0, 1, 2].map(() => startWorkerProcess(home, env, children)));
    let killed: (typeof workers)[number] | undefined;
    const userText = (messages: Array<{ role: string; content: unknown }>) => String([...messages].reverse().find((m) => m.role === 'user')?.content ?? '');
    model().onRequest(async (req) => {
      const messages = req.body.messages as Array<{ role: string; content: unknown }>;
      const line = userText(messages);
      if (messages.at(-1)!.role === 'user') return { toolCalls: [{ id: 'call_1', name: 'record', arguments: { line } }] };
      if (line === VICTIM && !killed) {
        // The tool has run; the worker running this turn now dies while the model answers.
        killed = workers.find((w) => runningTurnOf(w.log(), victimSession))!;
        killed.child.kill('SIGKILL');
        await new Promise((r) => killed!.child.once('exit', r));
        return { content: 'lost with its worker' };
      }
      return { content: `done ${line}` };
    });

    const { url } = await startServeProcess(home, env, children, ['--agents', agents]);
    const post = (path: string, body: unknown, accept = 'application/json') =>
      fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', accept }, body: JSON.stringify(body) });
    const ids: string[] = [];
    for (let i = 0; i < SESSIONS; i++) ids.push(((await (await post('/v1/sessions', {})).json()) as { id: string }).id);
    const victimSession = ids[0]!;

    // A second client watches the victim's session live while its turn is handed over.
    const watched = fetch(`${url}/v1/sessions/${victimSession}/events?after=0`).then((r) =>
      readSse(r, (e) => e.event === 'done' && String(e.data.output).includes(VICTIM)),
    );
    watched.catch(() => {});

    const results: Array<{ line: string; status: string; output: string }> = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (next < SESSIONS) {
          const i = next++;
          for (let t = 1; t <= TURNS; t++) {
            const line = `s${i}-t${t}`;
            const r = (await (await post(`/v1/sessions/${ids[i]}/messages`, { content: line })).json()) as { status: string; output: string };
            results.push({ line, status: r.status, output: r.output });
          }
        }
      }),
    );

    // Every turn completed, with its own answer.
    expect(results).toHaveLength(SESSIONS * TURNS);
    expect(results.filter((r) => r.status !== 'completed' || r.output !== `done ${r.line}`)).toEqual([]);
    // Each tool ran exactly once, the victim's included.
    const runs = readFileSync(toolLog, 'utf8').trim().split('\n');
    expect(runs).toHaveLength(SESSIONS * TURNS);
    expect(new Set(runs).size).toBe(SESSIONS * TURNS);
    // The victim's turn was taken over: the model was asked for its tool call once (the journal replayed it).
    expect(killed).toBeDefined();
    const firstAsks = model().chatRequests.filter((r) => r.body.messages.at(-1).role === 'user' && r.body.messages.at(-1).content === VICTIM);
    expect(firstAsks).toHaveLength(1);
    const takers = workers.filter((w) => w !== killed && w.log().includes('taking over turn'));
    expect(takers).toHaveLength(1);
    // The work was spread: every worker ran turns (the killed one until it died).
    // (a worker logs a turn's end just after its clients hear of it: give the last lines a moment)
    const endedCounts = () => workers.map((w) => (w.log().match(/ended turn/g) ?? []).length);
    for (let wait = 0; wait < 50 && endedCounts().reduce((a, b) => a + b, 0) < SESSIONS * TURNS; wait++) await new Promise((r) => setTimeout(r, 100));
    const ended = endedCounts();
    for (const n of ended) expect(n).toBeGreaterThan(0);
    expect(ended.reduce((a, b) => a + b, 0)).toBe(SESSIONS * TURNS);

    // The watcher saw the handover and one end of the turn; the session holds its three turns once each.
    const seen = await watched;
    const doneForVictim = seen.filter((e) => e.event === 'done' && String(e.data.output).includes(VICTIM));
    expect(doneForVictim).toHaveLength(1);
    expect(seen.some((e) => e.event === 'retry')).toBe(true);
    const ids2 = seen.map((e) => Number(e.id));
    expect(ids2).toEqual([...ids2].sort((a, b) => a - b));
    const history = (await (await fetch(`${url}/v1/sessions/${victimSession}`)).json()) as { messages: Array<{ role: string; content: string }> };
    expect(history.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['s0-t1', 's0-t2', 's0-t3']);
    expect(history.messages.filter((m) => m.role === 'tool')).toHaveLength(3);
  }, 120_000);

  it('two servers, one worker: either server streams the session from any event id, and a cancel sent to the other stops the turn', async () => {
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'adk-scale2-')));
    const env = serveEnv(home, model().url, { ADK_STORE: redisServer().url });
    model().onRequest(() => ({ content: 'one two three four five six seven eight nine ten', chunkSize: 4, chunkDelayMs: 150 }));
    await startWorkerProcess(home, env, children);
    const [a, b] = await Promise.all([startServeProcess(home, env, children), startServeProcess(home, env, children)]);
    const post = (base: string, path: string, body: unknown) => fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const { id } = (await (await post(a.url, '/v1/sessions', {})).json()) as { id: string };

    // The turn starts on A; after its third event B is asked for what follows it, and cancels it.
    let cancelled = false;
    const onA = await readSse(await post(a.url, `/v1/sessions/${id}/messages`, { content: 'count' }), (e) => {
      if (Number(e.id) === 3 && !cancelled) {
        cancelled = true;
        void post(b.url, `/v1/sessions/${id}/cancel`, {});
      }
      return e.event === 'done';
    });
    expect(onA.at(-1)!.data.status).toBe('cancelled');
    const onB = await readSse(await fetch(`${b.url}/v1/sessions/${id}/events`, { headers: { 'last-event-id': '2' } }), (e) => e.event === 'done');
    expect(onB.map((e) => e.id)).toEqual(onA.slice(2).map((e) => e.id));
    expect(onB.map((e) => e.data)).toEqual(onA.slice(2).map((e) => e.data));

    // The cancelled turn is saved resumable; B reads it as A does.
    const read = async (base: string) => (await (await fetch(`${base}/v1/sessions/${id}`)).json()) as { status: string; lastEventId: number; turnFrom: number };
    const [fromA, fromB] = await Promise.all([read(a.url), read(b.url)]);
    expect(fromA).toEqual(fromB);
    expect(fromA).toMatchObject({ status: 'cancelled', lastEventId: Number(onA.at(-1)!.id), turnFrom: 1 });
  }, 60_000);

  it('a turn no worker can run ends with an error for its client and frees the session; a stale copy of a job is dropped', async () => {
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'adk-scale3-')));
    const toolLog = join(home, 'tool-runs.log');
    writeFileSync(toolLog, '');
    const agents = recordingTeam(home, toolLog);
    const env = serveEnv(home, model().url, { ADK_STORE: redisServer().url });
    trustAgentsFile(env.ADK_HOME!, agents);
    model().onRequest(() => ({ content: 'fine' }));
    const worker = await startWorkerProcess(home, env, children);
    const { url } = await startServeProcess(home, env, children, ['--agents', agents]);
    const post = (path: string, body: unknown) => fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) });
    const { id } = (await (await post('/v1/sessions', {})).json()) as { id: string };
    expect(((await (await post(`/v1/sessions/${id}/messages`, { content: 'first' })).json()) as any).status).toBe('completed');

    // The agents file changes under the session: no worker will run it on the new file (a worker
    // that has not built its team yet; the one that has keeps it, as one adk serve process does).
    worker.child.kill('SIGTERM');
    await new Promise((r) => worker.child.once('exit', r));
    writeFileSync(agents, readFileSync(agents, 'utf8').replace('Record the line.', 'Record the line, changed.'));
    const fresh = await startWorkerProcess(home, env, children);
    const failed = (await (await post(`/v1/sessions/${id}/messages`, { content: 'second' })).json()) as any;
    expect(failed.status).toBe('error');
    expect(failed.error).toMatch(/could not be run/);
    expect(((await (await fetch(`${url}/v1/sessions/${id}`)).json()) as any).status).not.toBe('running');

    // A copy of a job whose turn no longer holds the session (delivered again) is not run.
    const { Queue } = await import('bullmq');
    const { Redis } = await import('ioredis');
    const connection = new Redis(redisServer().url, { maxRetriesPerRequest: null });
    const queue = new Queue('adk-turns', { connection });
    // (signed with the queue key serve and the worker share: an unsigned one would not get this far)
    const key = Buffer.from(readFileSync(join(env.ADK_HOME!, 'queue-key'), 'utf8').trim());
    await queue.add('turn', signTurnJob({ sessionId: id, turnId: 'stale-copy', step: { content: 'ghost' }, claim: 'stale-copy@0', after: '' }, key), { jobId: 'stale-copy' });
    for (let i = 0; i < 100 && !fresh.log().includes('dropping turn stale-copy'); i++) await new Promise((r) => setTimeout(r, 50));
    await queue.close();
    connection.disconnect();
    expect(fresh.log()).toContain('dropping turn stale-copy');
    const shown = (await (await fetch(`${url}/v1/sessions/${id}`)).json()) as { messages: Array<{ content: string }> };
    expect(shown.messages.map((m) => m.content)).not.toContain('ghost');
    expect(model().chatRequests.some((r) => JSON.stringify(r.body).includes('ghost'))).toBe(false);
  }, 60_000);

  it("a server whose Redis subscription drops mid-turn reads back what it missed: the client's stream has no gap", async () => {
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'adk-scale4-')));
    const env = serveEnv(home, model().url, { ADK_STORE: redisServer().url });
    // Hundreds of events in a burst, so some are published while the subscription is down.
    const text = Array.from({ length: 400 }, (_, i) => `w${i}`).join(" ");
    model().onRequest(() => ({ content: text, chunkSize: 3, chunkDelayMs: 2 }));
    await startWorkerProcess(home, env, children);
    const { url } = await startServeProcess(home, env, children);
    const post = (path: string, body: unknown) => fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const { id } = (await (await post('/v1/sessions', {})).json()) as { id: string };
    const { Redis } = await import('ioredis');
    const admin = new Redis(redisServer().url);
    let kill: Promise<unknown> | undefined;
    const events = await readSse(await post(`/v1/sessions/${id}/messages`, { content: 'count' }), (e) => {
      // Every subscribed connection (the server's) is cut, while the worker goes on publishing.
      if (e.event === 'delta' && Number(e.id) >= 5) kill ??= admin.client('KILL', 'TYPE', 'pubsub');
      return e.event === 'done';
    });
    const killed = Number(await kill);
    admin.disconnect();
    expect(killed).toBeGreaterThan(0);
    expect(events.map((e) => Number(e.id))).toEqual(events.map((_, i) => i + 1));
    expect(events.filter((e) => e.event === 'delta').map((e) => e.data.content).join('')).toBe(text);
  }, 60_000);

  it('a worker that loses the session lease mid-turn hands the turn to its next attempt: the client still gets it done', async () => {
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'adk-scale5-')));
    const env = serveEnv(home, model().url, { ADK_STORE: redisServer().url });
    let calls = 0;
    // The first answer is slow enough for a lease renewal (every 5 s) to find the lease gone.
    model().onRequest(() => (++calls === 1 ? { content: 'x '.repeat(60), chunkSize: 2, chunkDelayMs: 150 } : { content: 'answered on the next attempt' }));
    const worker = await startWorkerProcess(home, env, children);
    const { url } = await startServeProcess(home, env, children);
    const post = (path: string, body: unknown) => fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) });
    const { id } = (await (await post('/v1/sessions', {})).json()) as { id: string };
    const { Redis } = await import('ioredis');
    const admin = new Redis(redisServer().url);
    const result = post(`/v1/sessions/${id}/messages`, { content: 'slow one' }).then((r) => r.json() as Promise<any>);
    // The lease lapses and another process takes it (one since gone: a pid that no longer runs here).
    for (let i = 0; i < 100 && !worker.log().includes('starting turn'); i++) await new Promise((r) => setTimeout(r, 50));
    const holder = { owner: 'someone-else', pid: 2 ** 22 + 7, host: hostname(), pidns: readlinkSync('/proc/self/ns/pid'), since: new Date().toISOString() };
    expect(await admin.set(`adk:lease:session:${id}`, `someone-else\n${JSON.stringify(holder)}`, 'PX', 15_000)).toBe('OK');
    admin.disconnect();
    const r = await result;
    expect(r).toMatchObject({ status: 'completed', output: 'answered on the next attempt' });
    expect(worker.log()).toContain('taking over turn');
  }, 60_000);
});
