import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Client } from '@langchain/langgraph-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir, useServer, writeAgentsFile } from '../cli/helpers.js';
import { serveEnv, startServeProcess } from './serve-process.js';

// Issue 34: the parts of the LangGraph API the first tests left out: multitask strategies, joinStream,
// the other stream modes, stateless runs, if_not_exists and the /api/langgraph mount.
const model = useServer();
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

/** `chat` (one agent), `crew` (a boss that hands over to a helper) and `ops` (a shell that asks first). */
const AGENTS = `version: 1
default: chat
agents:
  chat:
    description: A test agent.
    instruction: CHAT answers.
  crew:
    type: supervisor
    supervisor: boss
    sub_agents: [helper]
  boss:
    instruction: BOSS decides.
  helper:
    description: Helps.
    instruction: HELPER helps.
  ops:
    description: Runs commands, with approval.
    instruction: OPS runs commands.
    tools: [shell]
    approval: [shell]
`;

async function serve(): Promise<{ client: Client; url: string }> {
  const home = tempDir('adk-langgraph-runs-');
  writeAgentsFile(home, AGENTS);
  const s = await startServeProcess(home, serveEnv(home, model().url, { ADK_SHELL_SANDBOX: 'off' }), children, ['--agents', 'agents.yaml']);
  return { client: new Client({ apiUrl: s.url }), url: s.url };
}

const collect = async <T>(it: AsyncIterable<T>, stop?: (x: T) => boolean): Promise<T[]> => {
  const out: T[] = [];
  for await (const x of it) {
    out.push(x);
    if (stop?.(x)) break;
  }
  return out;
};
const lastUser = (req: any) => [...req.body.messages].reverse().find((m: any) => m.role === 'user' || m.role === 'tool');
const human = (content: string) => ({ messages: [{ type: 'human', content }] });
const contents = (v: any) => v.messages.map((m: any) => m.content);
const until = async (ok: () => boolean) => {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 25));
  expect(ok()).toBe(true);
};

/** A model that holds back answers to messages starting with "slow" until `release()`. */
function gatedModel() {
  let release!: () => void;
  let gate = new Promise<void>((r) => (release = r));
  model().onRequest(async (req) => {
    const text = String(lastUser(req).content);
    if (text.startsWith('slow')) await gate;
    return { content: `answer to ${text}` };
  });
  const waiting = (text: string) => model().chatRequests.some((r) => lastUser(r).content === text);
  return {
    release: () => release(),
    rearm: () => (gate = new Promise<void>((r) => (release = r))),
    /** Resolves once the model has been asked about `text` (the run is inside the model). */
    asked: (text: string) => until(() => waiting(text)),
  };
}

describe('LangGraph API: multitask strategies, joinStream, stream modes, stateless runs', () => {
  it('multitask interrupt stops the running run; rollback deletes it; enqueue returns a pending run that runs next', async () => {
    const { client } = await serve();
    const gate = gatedModel();
    const thread = (await client.threads.create()).thread_id;

    const a = await client.runs.create(thread, 'chat', { input: human('slow a') });
    await gate.asked('slow a');
    const b = (await client.runs.wait(thread, 'chat', { input: human('b'), multitaskStrategy: 'interrupt' })) as any;
    expect(contents(b).at(-1)).toBe('answer to b');
    expect(await client.runs.get(thread, a.run_id)).toMatchObject({ status: 'interrupted', multitask_strategy: 'reject' });

    const c = await client.runs.create(thread, 'chat', { input: human('slow c') });
    await gate.asked('slow c');
    const d = await client.runs.create(thread, 'chat', { input: human('d'), multitaskStrategy: 'rollback' });
    expect(contents(await client.runs.join(thread, d.run_id)).at(-1)).toBe('answer to d');
    await expect(client.runs.get(thread, c.run_id)).rejects.toThrow(/404/);
    expect((await client.runs.list(thread)).map((r) => r.run_id)).not.toContain(c.run_id);

    // enqueue: create answers at once with a pending run; it starts when the running one ends.
    const e = await client.runs.create(thread, 'chat', { input: human('slow e') });
    await gate.asked('slow e');
    const asked = model().chatRequests.length;
    const f = await client.runs.create(thread, 'chat', { input: human('f'), multitaskStrategy: 'enqueue' });
    expect(f.status).toBe('pending');
    expect((await client.runs.get(thread, f.run_id)).status).toBe('pending');
    expect(model().chatRequests.length).toBe(asked);
    gate.release();
    const joined = (await client.runs.join(thread, f.run_id)) as any;
    expect(contents(joined).slice(-4)).toEqual(['slow e', 'answer to slow e', 'f', 'answer to f']);
    expect((await client.runs.get(thread, e.run_id)).status).toBe('success');
    expect((await client.runs.get(thread, f.run_id)).status).toBe('success');
    // One model request per run, none twice.
    expect(model().chatRequests.slice(asked).map((r) => lastUser(r).content)).toEqual(['f']);
  });

  it('runs.joinStream replays the run from its start in its own stream modes, resumes after Last-Event-ID, and "-1" is this run only', async () => {
    const { client } = await serve();
    const long = Array.from({ length: 30 }, (_, i) => `w${i}`).join(' ');
    model().onRequest((req) => (lastUser(req).content === 'first' ? { content: 'FIRST ANSWER' } : { content: long, chunkSize: 4, chunkDelayMs: 25 }));
    const thread = (await client.threads.create()).thread_id;
    await client.runs.wait(thread, 'chat', { input: human('first') });

    const run = await client.runs.create(thread, 'chat', { input: human('second'), streamMode: ['messages-tuple', 'values'] });
    // Joined once part of it has streamed: no stream_mode given, so the run's own (messages-tuple) apply.
    await until(() => model().chatRequests.length === 2);
    await new Promise((r) => setTimeout(r, 150));
    const head = await collect(client.runs.joinStream(thread, run.run_id), (p) => p.event === 'messages' && String((p.data as any)[0].content).includes('w1'));
    expect(head[0]!.event).toBe('metadata');
    // useStream rejoins with Last-Event-ID "-1": the whole run again, and nothing of the thread's earlier runs.
    const again = collect(client.runs.joinStream(thread, run.run_id, { lastEventId: '-1' }));
    const cut = head.at(-1)!.id!;
    expect(Number(cut)).toBeGreaterThan(0);
    const tail = await collect(client.runs.joinStream(thread, run.run_id, { lastEventId: cut }));
    expect(tail.some((p) => p.event === 'metadata')).toBe(false);
    expect(tail.at(-1)).toMatchObject({ event: 'end', data: { status: 'success' } });
    const text = (parts: any[]) => parts.filter((p) => p.event === 'messages').map((p) => p.data[0].content).join('');
    expect(text(head) + text(tail)).toBe(long);
    // The state after the resume has the whole message (the events before Last-Event-ID count too).
    expect(contents(tail.filter((p) => p.event === 'values').at(-1)!.data)).toEqual(['first', 'FIRST ANSWER', 'second', long]);

    const rejoined = await again;
    expect(rejoined[0]!.event).toBe('metadata');
    expect(text(rejoined)).toBe(long);
    expect(contents(rejoined.filter((p) => p.event === 'values').at(-1)!.data)).toEqual(['first', 'FIRST ANSWER', 'second', long]);
  });

  it('stream modes messages, events, custom and debug on a hand-over', async () => {
    const { client } = await serve();
    let handed = false;
    model().onRequest((req) => {
      const sys = String(req.body.messages[0].content);
      if (sys.includes('BOSS') && !handed) {
        handed = true;
        return { toolCalls: [{ name: 'transfer_to_agent', arguments: { agent_name: 'helper' } }] };
      }
      return { content: sys.includes('HELPER') ? 'helper did it' : 'boss wraps up', chunkSize: 4 };
    });
    const thread = (await client.threads.create()).thread_id;
    const parts = (await collect(client.runs.stream(thread, 'crew', { input: human('go'), streamMode: ['messages', 'events', 'custom', 'debug'] }))) as Array<{ event: string; data: any }>;
    const names = new Set(parts.map((p) => p.event));
    expect(names.has('values')).toBe(false);
    expect(parts.at(-1)).toMatchObject({ event: 'end', data: { status: 'success' } });

    // messages: metadata first for each message, partials growing to the whole text, then complete.
    const seen = new Set<string>();
    for (const p of parts) {
      if (p.event === 'messages/metadata') for (const id of Object.keys(p.data)) seen.add(id);
      if (p.event === 'messages/partial') expect(seen.has(p.data[0].id)).toBe(true);
    }
    const complete = parts.filter((p) => p.event === 'messages/complete').map((p) => p.data[0]);
    const helper = complete.find((m) => m.type === 'ai' && m.content === 'helper did it');
    expect(helper).toMatchObject({ name: 'helper' });
    const partials = parts.filter((p) => p.event === 'messages/partial' && p.data[0].id === helper.id).map((p) => p.data[0].content);
    expect(partials.length).toBeGreaterThan(1);
    expect(partials.at(-1)).toBe('helper did it');
    expect(complete.some((m) => m.type === 'ai' && m.tool_calls?.[0]?.name === 'transfer_to_agent')).toBe(true);

    // events: the helper's chunks add up to its message; each model turn ends once.
    const events = parts.filter((p) => p.event === 'events').map((p) => p.data);
    expect(events.filter((e) => e.event === 'on_chat_model_stream' && e.name === 'helper').map((e) => e.data.chunk.content).join('')).toBe('helper did it');
    expect(events.filter((e) => e.event === 'on_chat_model_end').map((e) => e.name)).toEqual(expect.arrayContaining(['boss', 'helper']));

    // custom: adk's own events, the hand-over among them.
    expect(parts.filter((p) => p.event === 'custom').map((p) => p.data)).toContainEqual(expect.objectContaining({ type: 'transfer', to: 'helper' }));

    // debug: one task_result per step, numbered in order, naming the node.
    const debug = parts.filter((p) => p.event === 'debug').map((p) => p.data);
    expect(debug.map((d) => d.step)).toEqual(debug.map((_, i) => i + 1));
    expect(debug.map((d) => d.payload.name)).toEqual(expect.arrayContaining(['boss', 'helper']));
    expect(debug.every((d) => d.type === 'task_result')).toBe(true);
  });

  it('stateless runs, if_not_exists, and the same API under /api/langgraph', async () => {
    const { client, url } = await serve();
    model().onRequest((req) => ({ content: `answer to ${lastUser(req).content}` }));
    let made: { thread_id?: string } = {};
    const waited = (await client.runs.wait(null, 'chat', { input: human('stateless'), onRunCreated: (m) => (made = m) })) as any;
    expect(contents(waited)).toEqual(['stateless', 'answer to stateless']);
    expect(made.thread_id).toBeTruthy();
    // Its thread is gone once the run has ended (on_completion defaults to delete).
    await expect(client.threads.get(made.thread_id!)).rejects.toThrow(/404/);
    const streamed = await collect(client.runs.stream(null, 'chat', { input: human('streamed'), streamMode: 'values' }));
    expect(contents(streamed.filter((p) => p.event === 'values').at(-1)!.data)).toEqual(['streamed', 'answer to streamed']);
    // A stateless run kept with on_completion: keep. The SDK types onCompletion as complete|continue,
    // but sends it as is, and LangGraph's own server (langgraph-api's schemas) takes delete|keep.
    const kept = await client.runs.create(null, 'chat', { input: human('keep me'), onCompletion: 'keep' as never });
    await client.runs.join(kept.thread_id, kept.run_id);
    expect(contents((await client.threads.getState(kept.thread_id)).values)).toEqual(['keep me', 'answer to keep me']);
    expect((await client.threads.search()).map((t) => t.thread_id)).toEqual([kept.thread_id]);

    // if_not_exists: an unknown thread is 404, or made with "create".
    const id = randomUUID();
    await expect(client.runs.wait(id, 'chat', { input: human('x') })).rejects.toThrow(/404/);
    await client.runs.wait(id, 'chat', { input: human('made'), ifNotExists: 'create' });
    expect(await client.threads.get(id)).toMatchObject({ thread_id: id, status: 'idle', metadata: { graph_id: 'chat' } });

    // The mount DeerFlow 2 and agent-chat-ui deployments use: the same threads, the same runs.
    const mounted = new Client({ apiUrl: `${url}/api/langgraph` });
    expect((await mounted.assistants.search()).map((a) => a.assistant_id)).toContain('chat');
    expect(contents((await mounted.threads.getState(id)).values)).toEqual(['made', 'answer to made']);
    const parts = await collect(mounted.runs.stream(id, 'chat', { input: human('mounted'), streamMode: ['updates'] }));
    expect(parts.find((p) => p.event === 'updates')!.data).toEqual({ chat: { messages: [expect.objectContaining({ type: 'ai', content: 'answer to mounted' })] } });
    expect((await client.runs.list(id)).length).toBe(2);
  });

  it("agent-chat-ui's needs: /info, threads searched by graph_id, LangChain v1 approvals answered with {decisions}", async () => {
    const { client, url } = await serve();
    model().onRequest((req) => {
      const last = lastUser(req);
      if (last.role === 'tool') return { content: `shell: ${String(last.content).split('\n')[0]}` };
      return { toolCalls: [{ name: 'shell', arguments: { command: `echo ${last.content}` } }] };
    });
    const info = await fetch(`${url}/info`);
    expect(info.status).toBe(200);
    expect(await info.json()).toMatchObject({ flags: { assistants: true } });

    const thread = (await client.threads.create()).thread_id;
    await client.runs.wait(thread, 'ops', { input: human('original') });
    expect((await client.threads.search({ metadata: { graph_id: 'ops' } })).map((t) => t.thread_id)).toEqual([thread]);
    expect(await client.threads.search({ metadata: { graph_id: 'chat' } })).toEqual([]);
    const [waiting] = (await client.threads.getState(thread)).tasks[0]!.interrupts as any[];
    expect(waiting.value).toMatchObject({ action_requests: [{ name: 'shell', args: { command: 'echo original' } }], review_configs: [{ action_name: 'shell', allowed_decisions: ['approve', 'edit', 'reject'] }] });
    // An edit runs the edited command, not the one asked for.
    const edited = (await client.runs.wait(thread, 'ops', { command: { resume: { decisions: [{ type: 'edit', edited_action: { name: 'shell', args: { command: 'echo edited' } } }] } } })) as any;
    const ran = edited.messages.filter((m: any) => m.type === 'tool').at(-1).content.split('\n');
    expect(ran).toContain('edited');
    expect(ran).not.toContain('original');
    // A rejection with a message: the model is told, nothing runs.
    await client.runs.wait(thread, 'ops', { input: human('again') });
    const rejected = (await client.runs.wait(thread, 'ops', { command: { resume: { decisions: [{ type: 'reject', message: 'not today' }] } } })) as any;
    expect(rejected.messages.filter((m: any) => m.type === 'tool').at(-1).content).toContain('not today');
    expect(rejected.messages.filter((m: any) => m.type === 'tool').at(-1).content).not.toContain('again');
  });

  // Issue 43, item 3: `on_disconnect: "cancel"` was read and ignored; the run went on after the client left.
  it('onDisconnect: "cancel": the client aborting its stream stops the run within a second; the thread then answers', async () => {
    const { client } = await serve();
    const long = Array.from({ length: 300 }, (_, i) => `w${i}`).join(' ');
    model().enqueue({ content: long, chunkSize: 4, chunkDelayMs: 50 }, { content: 'after the stop' });
    const { thread_id: thread } = await client.threads.create();
    const leave = new AbortController();
    const aborted = model().abortedRequests;
    const stream = client.runs.stream(thread, 'chat', { input: human('talk'), streamMode: 'messages-tuple', onDisconnect: 'cancel', signal: leave.signal });
    let parts = 0;
    await collect(stream, () => ++parts >= 4).catch(() => []);
    const stoppedAt = Date.now();
    leave.abort();
    await model().waitForAborted(aborted + 1, 1000);
    expect(Date.now() - stoppedAt).toBeLessThan(1000);
    let answer: any;
    for (let i = 0; i < 20 && !answer; i++) answer = await client.runs.wait(thread, 'chat', { input: human('still there?') }).catch(() => new Promise((r) => setTimeout(() => r(undefined), 100)));
    expect(contents(answer).at(-1)).toBe('after the stop');
  });
});
