import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClientFactory, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { Role, TaskState, type Message } from '@a2a-js/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { shellApprovalAgents, useServer } from '../cli/helpers.js';
import { serveEnv, startServeProcess } from './serve-process.js';

// Issue 34: `adk serve --a2a`, driven by the A2A SDK's own client.
const model = useServer();
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

const userMessage = (text: string, extra: Partial<Message> = {}): Message =>
  ({ messageId: crypto.randomUUID(), role: Role.ROLE_USER, parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }], contextId: '', taskId: '', metadata: undefined, extensions: [], referenceTaskIds: [], ...extra }) as Message;

async function serve() {
  const home = mkdtempSync(join(tmpdir(), 'adk-a2a-'));
  writeFileSync(join(home, 'agents.yaml'), shellApprovalAgents(['shell']));
  return startServeProcess(home, serveEnv(home, model().url), children, ['--a2a']);
}

describe('A2A server (adk serve --a2a)', () => {
  it('publishes the card publicly; message/send answers; an approval is input-required, answered on the same task', async () => {
    model().enqueue({ content: 'Hello from adk.' }, { toolCalls: [{ name: 'shell', arguments: { command: 'echo a2a-ok' } }] }, { content: 'It printed a2a-ok.' });
    const { base, token } = await serve();
    const card = (await (await fetch(`${base}/.well-known/agent-card.json`)).json()) as any;
    expect(card.name).toBe('chat');
    expect(JSON.stringify(card.supportedInterfaces)).toContain('/a2a/chat');
    expect((await fetch(`${base}/a2a/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(401);

    const fetchWithToken: typeof fetch = (url, init) => fetch(url, { ...init, headers: { ...headerObject(new Headers(init?.headers)), authorization: `Bearer ${token}` } });
    const client = await new ClientFactory({ transports: [new JsonRpcTransportFactory({ fetchImpl: fetchWithToken })] }).createFromUrl(base);
    const first: any = await client.sendMessage({ message: userMessage('hi') } as any);
    const task1 = first.id ? first : first.task;
    expect(task1.status.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(JSON.stringify(task1)).toContain('Hello from adk.');

    const asked: any = await client.sendMessage({ message: userMessage('run echo a2a-ok', { contextId: task1.contextId }) } as any);
    expect(asked.status.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(JSON.stringify(asked.status.message)).toContain('shell');
    expect(model().chatRequests).toHaveLength(2);

    const events: any[] = [];
    for await (const e of client.sendMessageStream({ message: userMessage('yes', { contextId: asked.contextId, taskId: asked.id }) } as any)) events.push(e);
    // The stream carries the answer as it is written (artifact updates), then the task's end.
    expect(JSON.stringify(events)).toContain('It printed');
    const got: any = await client.getTask({ id: asked.id } as any);
    expect(got.status.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(JSON.stringify(got)).toContain('It printed a2a-ok.');
    expect(JSON.stringify(model().chatRequests[2]!.body.messages)).toContain('a2a-ok');
  }, 60_000);

  it('speaks v0.3 method names: message/send, message/stream, tasks/get; tasks/cancel stops a running turn, saved as cancelled', async () => {
    const { base, token } = await serve();
    // No A2A-Version header: a v0.3 client, with v0.3 shapes (kind-tagged parts, lower-case states).
    const rpc = async (method: string, params: unknown, id = 1) => {
      const res = await fetch(`${base}/a2a/chat`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ jsonrpc: '2.0', id, method, params }) });
      return { res, text: await res.text() };
    };
    const v03 = (text: string, extra: Record<string, unknown> = {}) => ({ kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text }], ...extra });

    model().enqueue({ content: 'Answer over v0.3.' });
    const sent = JSON.parse((await rpc('message/send', { message: v03('hello') })).text);
    expect(sent.error).toBeUndefined();
    expect(sent.result).toMatchObject({ kind: 'task', status: { state: 'completed' } });
    const got = JSON.parse((await rpc('tasks/get', { id: sent.result.id })).text);
    expect(got.result).toMatchObject({ id: sent.result.id, status: { state: 'completed' } });
    expect(JSON.stringify(got.result)).toContain('Answer over v0.3.');

    model().enqueue({ content: 'Streamed over v0.3.' });
    const streamed = await rpc('message/stream', { message: v03('again', { contextId: sent.result.contextId }) });
    expect(streamed.res.headers.get('content-type')).toContain('text/event-stream');
    const events = streamed.text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)).result);
    expect(events.map((e) => e.kind)).toContain('artifact-update');
    expect(events.at(-1)).toMatchObject({ kind: 'status-update', status: { state: 'completed' } });
    expect(JSON.stringify(events)).toContain('Streamed over v0.3.');

    // A turn whose model never finishes: cancelled through A2A, it ends as canceled and is saved so.
    model().enqueue({ content: 'Never ', hang: 'after-first-chunk' });
    const running = JSON.parse((await rpc('message/send', { message: v03('take your time'), configuration: { blocking: false } })).text).result;
    expect(running.kind).toBe('task');
    await expect.poll(() => model().chatRequests.length, { timeout: 10_000 }).toBe(3);
    const cancelled = JSON.parse((await rpc('tasks/cancel', { id: running.id })).text);
    expect(cancelled.error).toBeUndefined();
    await expect.poll(async () => JSON.parse((await rpc('tasks/get', { id: running.id })).text).result?.status?.state, { timeout: 10_000 }).toBe('canceled');
    const session = running.metadata?.adkSession as string;
    expect(session).toBeTruthy();
    const saved = await (await fetch(`${base}/v1/sessions/${session}`, { headers: { authorization: `Bearer ${token}` } })).json();
    expect(saved).toMatchObject({ id: session, status: 'cancelled' });
  }, 60_000);
});

function headerObject(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => (out[name] = value));
  return out;
}
