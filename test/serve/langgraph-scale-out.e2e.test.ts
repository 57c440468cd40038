import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@langchain/langgraph-sdk';
import { describe, expect, it } from 'vitest';
import { shellApprovalAgents, useServer, writeAgentsFile } from '../cli/helpers.js';
import { serveEnv, startServeProcess, startWorkerProcess, useRedisAndChildren } from './serve-process.js';

// Issue 34: LangGraph runs go through the same queue, journal and lease as adk's own turns: two
// `adk serve` and one `adk worker` on one Redis; a run made on one server is followed on the other.
const model = useServer();
const { redis, children } = useRedisAndChildren();

const collect = async <T>(it: AsyncIterable<T>): Promise<T[]> => {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
};
const lastUser = (req: any) => [...req.body.messages].reverse().find((m: any) => m.role === 'user' || m.role === 'tool');
const human = (content: string) => ({ messages: [{ type: 'human', content }] });

describe('the LangGraph API on two servers and a worker (Redis)', () => {
  it('a run created on one server is streamed and joined on the other, run once by the worker; its interrupt is resumed across servers', async () => {
    const LONG = Array.from({ length: 24 }, (_, i) => `part${i}`).join(' ');
    model().onRequest((req) => {
      const last = lastUser(req);
      if (last.role === 'tool') return { content: `tool said ${String(last.content).split('\n')[0]}` };
      if (last.content === 'stream') return { content: LONG, chunkSize: 5, chunkDelayMs: 20 };
      return { toolCalls: [{ name: 'shell', arguments: { command: 'echo ran-once' } }] };
    });
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'adk-lg-scale-')));
    writeAgentsFile(home, shellApprovalAgents());
    const env = serveEnv(home, model().url, { ADK_STORE: redis().url, ADK_SHELL_SANDBOX: 'off' });
    const worker = await startWorkerProcess(home, env, children);
    const [a, b] = await Promise.all([startServeProcess(home, env, children, ['--agents', 'agents.yaml']), startServeProcess(home, env, children, ['--agents', 'agents.yaml'])]);
    const one = new Client({ apiUrl: a.url });
    const two = new Client({ apiUrl: b.url });

    // Made on one, streamed and joined on the other.
    const thread = (await one.threads.create({ metadata: { from: 'one' } })).thread_id;
    expect((await two.threads.get(thread)).metadata).toMatchObject({ from: 'one' });
    const run = await one.runs.create(thread, 'chat', { input: human('stream'), streamMode: ['messages-tuple', 'values'] });
    const [streamed, joined] = await Promise.all([collect(two.runs.joinStream(thread, run.run_id)), two.runs.join(thread, run.run_id)]);
    expect(streamed[0]!.event).toBe('metadata');
    const chunks = streamed.filter((p) => p.event === 'messages').map((p) => (p.data as any)[0].content);
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.join('')).toBe(LONG);
    expect(streamed.at(-1)).toMatchObject({ event: 'end', data: { status: 'success' } });
    expect((joined as any).messages.map((m: any) => m.content)).toEqual(['stream', LONG]);
    expect((await two.runs.get(thread, run.run_id)).status).toBe('success');
    expect((await one.runs.get(thread, run.run_id)).status).toBe('success');

    // An approval asked through one server, answered through the other.
    const asked = await collect(one.runs.stream(thread, 'chat', { input: human('shell please'), streamMode: 'updates' }));
    expect(asked.at(-1)).toMatchObject({ event: 'end', data: { status: 'interrupted' } });
    const state = await two.threads.getState(thread);
    expect(state.tasks[0]!.interrupts[0]!.value).toMatchObject({ kind: 'approval', tool: 'shell', arguments: { command: 'echo ran-once' } });
    const resumed = (await two.runs.wait(thread, 'chat', { command: { resume: 'approve' } })) as any;
    expect(resumed.messages.filter((m: any) => m.type === 'tool').map((m: any) => m.content.split('\n')[0])).toEqual(['ran-once']);
    expect(resumed.messages.at(-1).content).toBe('tool said ran-once');
    expect((await one.threads.get(thread)).status).toBe('idle');

    // Exactly once: the model was asked once per step, by the worker.
    expect(model().chatRequests.map((r) => lastUser(r).content.split('\n')[0])).toEqual(['stream', 'shell please', 'ran-once']);
    expect(worker.log().match(/starting turn/g)).toHaveLength(3);
    expect((await two.runs.list(thread)).map((r) => r.status)).toEqual(['success', 'interrupted', 'success']);
  }, 60_000);
});
