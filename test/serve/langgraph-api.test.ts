import type { ChildProcess } from 'node:child_process';
import { Client } from '@langchain/langgraph-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { shellApprovalAgents, tempDir, useServer, writeAgentsFile } from '../cli/helpers.js';
import { serveEnv, startServeProcess } from './serve-process.js';

// Issue 34: the Agent Protocol / LangGraph API on `adk serve`, driven by the real SDK Client.
const model = useServer();
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

async function serve(args: string[] = [], agents = shellApprovalAgents()): Promise<{ client: Client; bearer: Client; base: string }> {
  const home = tempDir('adk-langgraph-');
  writeAgentsFile(home, agents);
  const s = await startServeProcess(home, serveEnv(home, model().url), children, ['--agents', 'agents.yaml', ...args]);
  return { client: new Client({ apiUrl: s.url }), bearer: new Client({ apiUrl: s.base, defaultHeaders: { Authorization: `Bearer ${s.token}` } }), base: s.base };
}

const collect = async <T>(it: AsyncIterable<T>): Promise<T[]> => {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
};
const lastUser = (req: any) => [...req.body.messages].reverse().find((m: any) => m.role === 'user' || m.role === 'tool');

describe('LangGraph API (Agent Protocol) through @langchain/langgraph-sdk', () => {
  it('assistants, a thread, a run streamed in values/updates/messages-tuple, state and history', async () => {
    model().enqueue({ content: 'Hello from adk, streamed.', chunkSize: 5 });
    const { client, bearer, base } = await serve();
    expect((await fetch(`${base}/assistants/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(401);
    const assistants = await bearer.assistants.search();
    expect(assistants.map((a) => a.assistant_id)).toEqual(['chat']);
    const thread = await client.threads.create({ metadata: { owner: 'test' } });
    const parts = await collect(client.runs.stream(thread.thread_id, 'chat', { input: { messages: [{ type: 'human', content: 'hi' }] }, streamMode: ['values', 'updates', 'messages-tuple'] }));
    const events = parts.map((p) => p.event);
    expect(events[0]).toBe('metadata');
    expect(events.at(-1)).toBe('end');
    const tuples = parts.filter((p) => p.event === 'messages').map((p) => p.data as [any, any]);
    expect(tuples.length).toBeGreaterThan(2);
    expect(tuples.map(([m]) => m.content).join('')).toBe('Hello from adk, streamed.');
    expect(new Set(tuples.map(([m]) => m.id)).size).toBe(1);
    expect(tuples[0]![1]).toMatchObject({ langgraph_node: 'chat', thread_id: thread.thread_id });
    const updates = parts.filter((p) => p.event === 'updates').map((p) => p.data as any);
    expect(updates).toEqual([{ chat: { messages: [expect.objectContaining({ type: 'ai', content: 'Hello from adk, streamed.', id: tuples[0]![0].id })] } }]);
    const values = parts.filter((p) => p.event === 'values').map((p) => p.data as any);
    expect(values[0].messages.map((m: any) => [m.type, m.content])).toEqual([['human', 'hi']]);
    expect(values.at(-1).messages.map((m: any) => [m.type, m.content])).toEqual([['human', 'hi'], ['ai', 'Hello from adk, streamed.']]);
    // The state read later has the same messages under the same ids.
    const state = await client.threads.getState(thread.thread_id);
    expect((state.values as any).messages).toEqual(values.at(-1).messages.map((m: any) => expect.objectContaining({ id: m.id, type: m.type, content: m.content })));
    expect(state.next).toEqual([]);
    const t = await client.threads.get(thread.thread_id);
    expect(t).toMatchObject({ status: 'idle', metadata: { owner: 'test' } });
    expect((await client.threads.search({ metadata: { owner: 'test' } })).map((x) => x.thread_id)).toEqual([thread.thread_id]);
    const runs = await client.runs.list(thread.thread_id);
    expect(runs.map((r) => r.status)).toEqual(['success']);
    // A second turn: history has a state before and after each of the person's messages, newest first.
    model().enqueue({ content: 'Second answer.' });
    const done = await client.runs.wait(thread.thread_id, 'chat', { input: { messages: [{ type: 'human', content: 'again' }] } });
    expect((done as any).messages.map((m: any) => m.content)).toEqual(['hi', 'Hello from adk, streamed.', 'again', 'Second answer.']);
    const history = await client.threads.getHistory(thread.thread_id);
    expect(history.map((h) => (h.values as any).messages.length)).toEqual([4, 3, 2, 1, 0]);
    expect(history[0]!.parent_checkpoint).toEqual(history[1]!.checkpoint);
    expect(history[1]!.next).toEqual(['chat']);
  });

  // Issue 43, item 4: agent-chat-ui's Edit sends the new message with the checkpoint before the old
  // one, and Regenerate sends no input with the checkpoint after the person's message (useStream's
  // `parent_checkpoint` of where the message was first seen). adk ignored `checkpoint`: Edit appended,
  // Regenerate was a 400. LangGraph's server forks the thread there; so does adk now.
  it('a run with a checkpoint branches there: edit forks before a message, regenerate answers it again', async () => {
    const { client } = await serve();
    const thread = await client.threads.create();
    model().enqueue({ content: 'A1' }, { content: 'A2' });
    await client.runs.wait(thread.thread_id, 'chat', { input: { messages: [{ type: 'human', content: 'one' }] } });
    await client.runs.wait(thread.thread_id, 'chat', { input: { messages: [{ type: 'human', content: 'two' }] } });
    const history = await client.threads.getHistory(thread.thread_id);
    const at = (n: number) => history.find((h) => (h.values as any).messages.length === n)!;
    const contents = (v: any) => v.messages.map((m: any) => m.content);

    // Edit "two" into "deux": from the state before it (2 messages).
    model().enqueue({ content: 'A2 edited' });
    const edited = await client.runs.wait(thread.thread_id, 'chat', { input: { messages: [{ type: 'human', content: 'deux' }] }, checkpoint: at(2).checkpoint });
    expect(contents(edited)).toEqual(['one', 'A1', 'deux', 'A2 edited']);
    // The model saw the branch only: nothing of "two" or its answer.
    expect(JSON.stringify(model().chatRequests.at(-1)!.body)).not.toContain('A2"');
    expect(JSON.stringify(model().chatRequests.at(-1)!.body)).not.toContain('"two"');

    // Regenerate the last answer: no input, the checkpoint after "deux" (3 messages).
    const after = (await client.threads.getHistory(thread.thread_id)).find((h) => (h.values as any).messages.length === 3)!;
    expect(after.next).toEqual(['chat']);
    model().enqueue({ content: 'A2 again' });
    const again = await client.runs.wait(thread.thread_id, 'chat', { input: null, checkpoint: after.checkpoint });
    expect(contents(again)).toEqual(['one', 'A1', 'deux', 'A2 again']);
    expect(contents((await client.threads.getState(thread.thread_id)).values)).toEqual(['one', 'A1', 'deux', 'A2 again']);

    // Edit the first message: from the empty state.
    model().enqueue({ content: 'B1' });
    const first = await client.runs.wait(thread.thread_id, 'chat', { input: { messages: [{ type: 'human', content: 'uno' }] }, checkpoint: at(0).checkpoint });
    expect(contents(first)).toEqual(['uno', 'B1']);

    // A checkpoint the thread never had, and regenerate from a state that ends with no message of the person's.
    await expect(client.runs.wait(thread.thread_id, 'chat', { input: null, checkpoint: { checkpoint_id: `${thread.thread_id}:99`, checkpoint_ns: '' } as any })).rejects.toThrow(/no checkpoint/);
    await expect(client.runs.wait(thread.thread_id, 'chat', { input: null, checkpoint: at(0).checkpoint })).rejects.toThrow(/no human message/);
  });

  it('a shell approval is a LangGraph interrupt: resume approve runs the command, reject tells the model', async () => {
    const { client } = await serve();
    model().onRequest((req) => {
      const last = lastUser(req);
      if (last.role === 'user') return { toolCalls: [{ name: 'shell', arguments: { command: `echo ran-${last.content}` } }] };
      return { content: `tool said: ${last.content}` };
    });
    const thread = await client.threads.create();
    const first = await collect(client.runs.stream(thread.thread_id, 'chat', { input: { messages: [{ type: 'human', content: 'one' }] }, streamMode: ['values', 'updates', 'messages-tuple'] }));
    const call = first.filter((p) => p.event === 'messages').map((p) => (p.data as any)[0]).find((m) => m.tool_call_chunks?.length);
    expect(call.tool_call_chunks[0]).toMatchObject({ name: 'shell', args: JSON.stringify({ command: 'echo ran-one' }) });
    const interrupt = first.find((p) => p.event === 'updates' && (p.data as any).__interrupt__)!.data as any;
    expect(interrupt.__interrupt__[0].value).toMatchObject({ kind: 'approval', tool: 'shell', arguments: { command: 'echo ran-one' }, action_request: { action: 'shell' } });
    expect((first.filter((p) => p.event === 'values').at(-1)!.data as any).__interrupt__).toHaveLength(1);
    expect(first.at(-1)).toMatchObject({ event: 'end', data: { status: 'interrupted' } });
    const t = await client.threads.get(thread.thread_id);
    expect(t.status).toBe('interrupted');
    const state = await client.threads.getState(thread.thread_id);
    expect(state.tasks[0]!.interrupts[0]!.id).toBe(interrupt.__interrupt__[0].id);
    expect(state.next).toEqual(['chat']);
    // New input while it waits is refused: the interrupt is answered with command.resume.
    await expect(client.runs.wait(thread.thread_id, 'chat', { input: { messages: [{ type: 'human', content: 'x' }] } })).rejects.toThrow(/409/);

    const approved = await collect(client.runs.stream(thread.thread_id, 'chat', { command: { resume: 'approve' }, streamMode: 'updates' }));
    const tool = approved.find((p) => p.event === 'updates' && (p.data as any).tools)!.data as any;
    expect(tool.tools.messages[0]).toMatchObject({ type: 'tool', name: 'shell', content: expect.stringContaining('ran-one') });
    expect(approved.at(-1)).toMatchObject({ event: 'end', data: { status: 'success' } });
    expect((await client.threads.get(thread.thread_id)).status).toBe('idle');

    await client.runs.wait(thread.thread_id, 'chat', { input: { messages: [{ type: 'human', content: 'two' }] } });
    const rejected = (await client.runs.wait(thread.thread_id, 'chat', { command: { resume: { type: 'response', args: 'not that one' } } })) as any;
    const toolMsg = rejected.messages.filter((m: any) => m.type === 'tool').at(-1);
    expect(toolMsg.content).not.toContain('ran-two');
    expect(toolMsg.content).toContain('not that one');
    expect(model().chatRequests.at(-1)!.body.messages.at(-1).content).toContain('not that one');
  });

  it('a reached budget (adk serve --max-model-calls) is an interrupt; command.resume with a new limit goes on, "stop" ends the run', async () => {
    const { client } = await serve(['--max-model-calls', '1'], shellApprovalAgents(['shell', 'current_time']));
    let n = 0;
    model().onRequest((req) => (lastUser(req).role === 'tool' && n >= 2 ? { content: 'enough ticks' } : { toolCalls: [{ id: `t${++n}`, name: 'current_time', arguments: {} }] }));
    const thread = await client.threads.create();
    const first = await collect(client.runs.stream(thread.thread_id, 'chat', { input: { messages: [{ type: 'human', content: 'tick' }] }, streamMode: 'updates' }));
    const interrupt = first.find((p) => p.event === 'updates' && (p.data as any).__interrupt__)!.data as any;
    expect(interrupt.__interrupt__[0].value).toMatchObject({ kind: 'budget', budget: { name: 'max_model_calls', spent: 1, limit: 1 } });
    expect(model().chatRequests).toHaveLength(1);
    // The new limit as a number: two more calls, the second answers.
    const raised = (await client.runs.wait(thread.thread_id, 'chat', { command: { resume: 3 } })) as any;
    expect(raised.messages.at(-1)).toMatchObject({ type: 'ai', content: 'enough ticks' });
    expect(model().chatRequests).toHaveLength(3);
    // The next turn stops at its own budget of 1; "stop" ends it there, no call made.
    n = 0;
    await client.runs.wait(thread.thread_id, 'chat', { input: { messages: [{ type: 'human', content: 'again' }] } });
    expect((await client.threads.get(thread.thread_id)).status).toBe('interrupted');
    await client.runs.wait(thread.thread_id, 'chat', { command: { resume: 'stop' } });
    expect(model().chatRequests).toHaveLength(4);
    expect((await client.threads.get(thread.thread_id)).status).toBe('idle');
  });

  it('runs.create in the background, runs.join, multitask reject (409), runs.cancel', async () => {
    const { client } = await serve();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    model().onRequest(async (req) => {
      if (lastUser(req).content === 'slow') await gate;
      return { content: `answer to ${lastUser(req).content}` };
    });
    const thread = await client.threads.create();
    const run = await client.runs.create(thread.thread_id, 'chat', { input: { messages: [{ type: 'human', content: 'slow' }] } });
    expect(run.status).toBe('running');
    expect((await client.threads.get(thread.thread_id)).status).toBe('busy');
    await expect(client.runs.create(thread.thread_id, 'chat', { input: { messages: [{ type: 'human', content: 'second' }] }, multitaskStrategy: 'reject' })).rejects.toThrow(/409/);
    release();
    const joined = (await client.runs.join(thread.thread_id, run.run_id)) as any;
    expect(joined.messages.map((m: any) => m.content)).toEqual(['slow', 'answer to slow']);
    expect((await client.runs.get(thread.thread_id, run.run_id)).status).toBe('success');

    // Cancel: a run stuck in the model stops at its next safe point, as an interrupted run.
    let hang!: () => void;
    const stuck = new Promise<void>((r) => (hang = r));
    model().onRequest(async () => {
      await stuck;
      return { content: 'too late' };
    });
    const long = await client.runs.create(thread.thread_id, 'chat', { input: { messages: [{ type: 'human', content: 'long' }] } });
    await new Promise((r) => setTimeout(r, 300));
    await client.runs.cancel(thread.thread_id, long.run_id, true);
    hang();
    expect((await client.runs.get(thread.thread_id, long.run_id)).status).toBe('interrupted');
    expect((await client.threads.get(thread.thread_id)).status).not.toBe('busy');
    expect((await client.runs.list(thread.thread_id)).map((r) => r.status)).toContain('interrupted');
  });
});
