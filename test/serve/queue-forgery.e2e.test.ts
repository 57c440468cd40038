import { existsSync, mkdtempSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shellApprovalAgents, useServer, writeAgentsFile } from '../cli/helpers.js';
import { trustAgentsFile } from '../support/trust.js';
import { signTurnJob } from '../../src/serve/queue/turn-job.js';
import { serveEnv, startServeProcess, startWorkerProcess, useRedisAndChildren } from './serve-process.js';
import { readSse } from './sse.js';

// Issue 28: whoever can write the shared Redis must not be able to queue a job that approves a
// pending command; only jobs signed with the queue key serve and the workers share are run.
const model = useServer();
const { redis: redisServer, children } = useRedisAndChildren();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('adk worker on a shared Redis: forged jobs (issue 28)', () => {
  it('a job written straight into Redis that approves a pending shell command is dropped unrun; a signed one whose approval is not the pending call is refused; the approval through serve runs', async () => {
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'adk-forge-')));
    const agents = writeAgentsFile(home, shellApprovalAgents());
    const env = serveEnv(home, model().url, { ADK_STORE: redisServer().url });
    trustAgentsFile(env.ADK_HOME!, agents);
    // The command waiting for approval writes its environment down: the file is the marker that it ran.
    const marker = join(home, 'approved.txt');
    model().onRequest((req) => {
      const messages = req.body.messages as Array<{ role: string }>;
      if (messages.at(-1)!.role === 'user') return { toolCalls: [{ id: 'call_1', name: 'shell', arguments: { command: 'env > approved.txt' } }] };
      return { content: 'it ran' };
    });
    const worker = await startWorkerProcess(home, env, children);
    const { url, log: serveLog } = await startServeProcess(home, env, children, ['--agents', agents]);
    const post = (path: string, body: unknown) => fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) });
    const read = async () => (await (await fetch(`${url}/v1/sessions/${id}`)).json()) as { status: string; pending: Array<{ id: string; tool?: string; arguments?: unknown }> };

    const { id } = (await (await post('/v1/sessions', {})).json()) as { id: string };
    const first = (await (await post(`/v1/sessions/${id}/messages`, { content: 'write your environment down' })).json()) as { status: string };
    expect(first.status).toBe('interrupted');
    const [pending] = (await read()).pending;
    expect(pending).toMatchObject({ tool: 'shell', arguments: { command: 'env > approved.txt' } });

    // The attacker can write the shared Redis but holds no serve token: it claims the session and
    // queues the job serve would queue for POST …/interrupts {always: true}.
    const { Queue } = await import('bullmq');
    const { Redis } = await import('ioredis');
    const connection = new Redis(redisServer().url, { maxRetriesPerRequest: null });
    const queue = new Queue('adk-turns', { connection });
    const claim = `forged@${Date.now()}`;
    await connection.set(`adk-serve:{${id}}:running`, claim);
    await queue.add('turn', { sessionId: id, turnId: 'forged', step: { targets: { [pending!.id]: { approved: true } }, grants: ['shell'] }, claim }, { jobId: 'forged' });
    /** Waits for the job to end; its state. */
    const ended = async (jobId: string) => {
      let state = '';
      for (let i = 0; i < 200 && state !== 'completed' && state !== 'failed'; i++) {
        await sleep(50);
        state = await queue.getJobState(jobId);
      }
      // (the command, had it been approved, would have run before the job ended)
      await sleep(300);
      return state;
    };
    const state = await ended('forged');
    const job = await queue.getJob('forged');
    console.log(`forged job: ${state}${job?.failedReason ? ` (${job.failedReason})` : ''}; marker ${existsSync(marker) ? 'PRESENT: the forged approval ran the command' : 'absent'}\nworker log:\n${worker.log()}`);

    expect(existsSync(marker)).toBe(false);
    expect(state).toBe('failed');
    expect(worker.log()).toMatch(/^adk worker \d+: dropped a forged or foreign job "forged": it is not signed with this worker's queue key \(not run, not retried\)$/m);
    expect(worker.log()).not.toContain('turn forged');
    expect((await read()).status).toBe('interrupted');

    // serve and the worker made one key under their shared ADK_HOME, 0600.
    const keyFile = join(env.ADK_HOME!, 'queue-key');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const key = readFileSync(keyFile, 'utf8').trim();

    // A job signed with the key but made for another moment of the session (a copy of an old one
    // queued again) is refused: it names the session's last turn it was made after.
    const replay = `replayed@${Date.now()}`;
    await connection.set(`adk-serve:{${id}}:running`, replay);
    const signed = signTurnJob(
      { sessionId: id, turnId: 'replayed', claim: replay, after: 'an-earlier-turn', step: { targets: { [pending!.id]: { approved: true } } }, answered: [{ id: pending!.id, kind: 'approval', tool: 'shell', arguments: { command: 'true' } }] },
      Buffer.from(key),
    );
    await queue.add('turn', signed, { jobId: 'replayed' });
    expect(await ended('replayed')).toBe('failed');
    expect(existsSync(marker)).toBe(false);
    expect(worker.log()).toMatch(/refusing turn replayed of session \S+: it was made after turn 'an-earlier-turn', but the session's last turn is '[^']+' \(an old job queued again\?\); the turn is not run/);
    expect((await read()).status).toBe('interrupted');

    // The person's approval, through serve, runs the command.
    const approved = (await (await post(`/v1/sessions/${id}/interrupts`, { approve: [] })).json()) as { status: string; output: string };
    expect(approved).toMatchObject({ status: 'completed', output: 'it ran' });
    expect(existsSync(marker)).toBe(true);
    // The key is in no job, event, record, log or command environment.
    // (the job may still be active: it is marked completed just after its client hears `done`)
    const jobsNow = () => queue.getJobs(['completed', 'failed', 'active', 'wait']);
    let jobs = await jobsNow();
    for (let i = 0; i < 100 && jobs.length < 4; i++) jobs = (await sleep(50), await jobsNow());
    const legit = jobs.find((j) => j.id !== 'forged' && j.id !== 'replayed' && 'targets' in j.data.step);
    expect(legit?.data).toMatchObject({ sessionId: id, answered: [{ id: pending!.id, tool: 'shell', arguments: { command: 'env > approved.txt' } }], sig: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const events = await readSse(await fetch(`${url}/v1/sessions/${id}/events?after=0`), (e) => e.event === 'done' && e.data.status === 'completed');
    // The refused copy was told as an error of its own; the forged job told nobody anything.
    expect(events.filter((e) => e.event === 'error').map((e) => e.data.message)).toEqual([expect.stringMatching(/could not be run: its answers do not fit the session's pending interrupts/)]);
    for (const text of [JSON.stringify(jobs.map((j) => j.data)), JSON.stringify(await read()), JSON.stringify(events), worker.log(), serveLog(), readFileSync(marker, 'utf8')]) expect(text).not.toContain(key);
    await queue.close();
    connection.disconnect();
  }, 60_000);
});
