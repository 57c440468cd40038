import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpAgent } from '@ag-ui/client';
import { EventType, type BaseEvent } from '@ag-ui/core';
import { afterEach, describe, expect, it } from 'vitest';
import { shellApprovalAgents, toolMessagesOf, useServer } from '../cli/helpers.js';
import { serveEnv, startServeProcess } from './serve-process.js';

// Issue 34: AG-UI on `adk serve` (POST /ag-ui/:agent), driven by AG-UI's own client.
const model = useServer();
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

async function serve() {
  const home = mkdtempSync(join(tmpdir(), 'adk-agui-'));
  writeFileSync(join(home, 'agents.yaml'), shellApprovalAgents(['shell']));
  return startServeProcess(home, serveEnv(home, model().url), children);
}

/** Runs the agent once, collecting every event it receives. */
async function runOnce(agent: HttpAgent, params: Parameters<HttpAgent['runAgent']>[0] = {}) {
  const events: BaseEvent[] = [];
  const result = await agent.runAgent(params, { onEvent: ({ event }) => void events.push(event) });
  return { events, result, types: events.map((e) => e.type) };
}

describe('AG-UI (POST /ag-ui/:agent)', () => {
  it('a streamed turn with reasoning and a tool call stops for approval; resume approves it and the turn ends', async () => {
    model().enqueue(
      { reasoning: 'The user wants a shell command.', content: 'Running it now.', toolCalls: [{ name: 'shell', arguments: { command: 'echo agui-ok' } }] },
      { content: 'The command printed agui-ok.', chunkSize: 4 },
    );
    const { base, token } = await serve();
    const agent = new HttpAgent({ url: `${base}/ag-ui/chat`, headers: { authorization: `Bearer ${token}` }, threadId: 'thread-a' });
    agent.addMessage({ id: 'u1', role: 'user', content: 'run echo agui-ok' });

    const first = await runOnce(agent);
    expect(first.types[0]).toBe(EventType.RUN_STARTED);
    expect(first.types).toContain(EventType.STATE_SNAPSHOT);
    expect(first.types).toContain(EventType.STEP_STARTED);
    // Reasoning comes before the answer, each as start/content/end.
    const order = [EventType.REASONING_START, EventType.REASONING_MESSAGE_CONTENT, EventType.REASONING_END, EventType.TEXT_MESSAGE_START, EventType.TEXT_MESSAGE_CONTENT, EventType.TEXT_MESSAGE_END, EventType.TOOL_CALL_START, EventType.TOOL_CALL_ARGS, EventType.TOOL_CALL_END];
    const at = order.map((t) => first.types.indexOf(t));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    const text = first.events.filter((e) => e.type === EventType.TEXT_MESSAGE_CONTENT).map((e: any) => e.delta).join('');
    expect(text).toBe('Running it now.');
    const call: any = first.events.find((e) => e.type === EventType.TOOL_CALL_START);
    expect(call.toolCallName).toBe('shell');
    const args = first.events.filter((e) => e.type === EventType.TOOL_CALL_ARGS).map((e: any) => e.delta).join('');
    expect(JSON.parse(args)).toEqual({ command: 'echo agui-ok' });
    // Nothing ran: the run ends on AG-UI's interrupt outcome, naming the call to approve.
    expect(first.types).not.toContain(EventType.TOOL_CALL_RESULT);
    const finished: any = first.events.at(-1);
    expect(finished.type).toBe(EventType.RUN_FINISHED);
    expect(finished.outcome.type).toBe('interrupt');
    expect(agent.pendingInterrupts).toHaveLength(1);
    const interrupt = agent.pendingInterrupts[0]!;
    expect(interrupt).toMatchObject({ reason: 'tool_approval', toolCallId: call.toolCallId, metadata: { tool: 'shell', arguments: { command: 'echo agui-ok' } } });
    expect(model().chatRequests).toHaveLength(1);

    const second = await runOnce(agent, { resume: [{ interruptId: interrupt.id, status: 'resolved', payload: true }] });
    expect(second.types[0]).toBe(EventType.RUN_STARTED);
    const result: any = second.events.find((e) => e.type === EventType.TOOL_CALL_RESULT);
    expect(result.toolCallId).toBe(call.toolCallId);
    expect(result.content).toContain('agui-ok');
    const answer = second.events.filter((e) => e.type === EventType.TEXT_MESSAGE_CONTENT).map((e: any) => e.delta);
    expect(answer.length).toBeGreaterThan(1);
    expect(answer.join('')).toBe('The command printed agui-ok.');
    expect(second.events.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED, threadId: 'thread-a' });
    expect((second.events.at(-1) as any).outcome?.type ?? 'success').toBe('success');
    expect(agent.pendingInterrupts).toHaveLength(0);
    // The model was given the command's real output.
    expect(toolMessagesOf(model().chatRequests[1]!).map((m) => m.content).join('')).toContain('agui-ok');
    // The client's own message list now holds the tool call, its result and the answer.
    expect(agent.messages.some((m: any) => m.role === 'assistant' && m.toolCalls?.some((c: any) => c.id === call.toolCallId))).toBe(true);
    expect(agent.messages.some((m: any) => m.role === 'tool' && m.toolCallId === call.toolCallId)).toBe(true);
  }, 60_000);

  it('a rejected approval reaches the model as a refusal; the thread keeps its session', async () => {
    model().enqueue({ toolCalls: [{ name: 'shell', arguments: { command: 'rm -rf nothing' } }] }, { content: 'Understood, I will not.' }, { content: 'Second turn.' });
    const { base, token } = await serve();
    const agent = new HttpAgent({ url: `${base}/ag-ui/chat`, headers: { authorization: `Bearer ${token}` }, threadId: 'thread-b' });
    agent.addMessage({ id: 'u1', role: 'user', content: 'delete it' });
    await runOnce(agent);
    const [interrupt] = agent.pendingInterrupts;
    const second = await runOnce(agent, { resume: [{ interruptId: interrupt!.id, status: 'cancelled' }] });
    const result: any = second.events.find((e) => e.type === EventType.TOOL_CALL_RESULT);
    expect(result.content).toMatch(/reject|denied|declin|not approved/i);
    agent.addMessage({ id: 'u2', role: 'user', content: 'next' });
    const third = await runOnce(agent);
    expect(third.events.filter((e) => e.type === EventType.TEXT_MESSAGE_CONTENT).map((e: any) => e.delta).join('')).toBe('Second turn.');
    // One session for the thread: the third request carries the first turn's messages.
    expect(JSON.stringify(model().chatRequests[2]!.body.messages)).toContain('delete it');
  }, 60_000);

  it('needs the server token; a resume for a thread with nothing pending is refused', async () => {
    const { base, token } = await serve();
    const body = { threadId: 't', runId: 'r', messages: [{ id: 'u', role: 'user', content: 'hi' }], tools: [], context: [], state: {} };
    const post = (b: unknown, headers: Record<string, string> = {}) => fetch(`${base}/ag-ui/chat`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(b) });
    expect((await post(body)).status).toBe(401);
    const resumed = await post({ ...body, resume: [{ interruptId: 'x', status: 'resolved', payload: true }] }, { authorization: `Bearer ${token}` });
    expect(resumed.status).toBe(409);
    expect(((await resumed.json()) as any).error.code).toBe('no_interrupts');
    expect(model().chatRequests).toHaveLength(0);
  }, 30_000);

  // Issue 43, item 3: AG-UI's abortRun() (CopilotKit's Stop) left the turn running on the server; the
  // thread answered 409 session_busy to every new message until the abandoned turn ended.
  it('abortRun() stops the turn on the server within a second; the next message on the thread is answered', async () => {
    const words = Array.from({ length: 200 }, (_, i) => `w${i}`).join(' ');
    model().enqueue({ content: words, chunkSize: 4, chunkDelayMs: 50 }, { content: 'Answered after the stop.' });
    const { base, token } = await serve();
    const agent = new HttpAgent({ url: `${base}/ag-ui/chat`, headers: { authorization: `Bearer ${token}` }, threadId: 'thread-stop' });
    agent.addMessage({ id: 'u1', role: 'user', content: 'talk for a long time' });
    let seen = 0;
    const running = agent.runAgent({}, { onEvent: ({ event }) => void (event.type === EventType.TEXT_MESSAGE_CONTENT && seen++) }).catch(() => undefined);
    while (seen < 3) await new Promise((r) => setTimeout(r, 20));
    const aborted = model().abortedRequests;
    const stoppedAt = Date.now();
    agent.abortRun();
    await running;
    // The model request is cancelled: the server stopped the turn, not only the stream.
    await model().waitForAborted(aborted + 1, 1000);
    expect(Date.now() - stoppedAt).toBeLessThan(1000);
    agent.addMessage({ id: 'u2', role: 'user', content: 'are you there?' });
    let next: Awaited<ReturnType<typeof runOnce>> | undefined;
    for (let i = 0; i < 20 && !next; i++) next = await runOnce(agent).catch(() => new Promise<undefined>((r) => setTimeout(() => r(undefined), 100)));
    expect(next!.events.filter((e) => e.type === EventType.TEXT_MESSAGE_CONTENT).map((e: any) => e.delta).join('')).toBe('Answered after the stop.');
  }, 60_000);
});
