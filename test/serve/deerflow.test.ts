import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { serveEnv, startServeProcess } from './serve-process.js';
import { readSse, type SseEvent } from './sse.js';

// Issue 17: DeerFlow 1.x's protocol (POST /api/chat/stream, GET /api/config) over the bundled
// research team: plan review as DeerFlow's interrupt, then researchers and the reporter.
const model = useServer();
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

const system = (body: any): string => String(body.messages[0]?.content ?? '');

function researchModel() {
  let plans = 0;
  model().onRequest((req) => {
    const body = req.body;
    const sys = system(body);
    const last = body.messages.at(-1);
    if (sys.includes('friendly research assistant')) {
      return last.role === 'tool' ? { content: '' } : { toolCalls: [{ name: 'handoff_to_planner', arguments: { research_topic: 'the topic', locale: 'en-US' } }] };
    }
    if (sys.includes('professional deep researcher')) {
      plans++;
      const steps = [{ need_search: true, title: 'Find the facts', description: 'on the web', step_type: 'research' }];
      if (plans > 1) steps.push({ need_search: true, title: 'Compare them', description: 'side by side', step_type: 'research' });
      return { content: JSON.stringify({ locale: 'en-US', has_enough_context: false, thought: `Plan ${plans}.`, title: 'research the topic', steps }) };
    }
    if (sys.includes('professional reporter')) return { content: '# Report\n\nAll found.', chunkSize: 6 };
    return { content: '- web: nothing needed' };
  });
}

async function startServe(home: string): Promise<string> {
  return (await startServeProcess(home, serveEnv(home, model().url), children)).url;
}

const chat = (url: string, body: unknown) => fetch(`${url}/api/chat/stream`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => readSse(r));
const FIELDS = new Set(['thread_id', 'agent', 'id', 'role', 'content', 'reasoning_content', 'finish_reason', 'tool_calls', 'tool_call_chunks', 'tool_call_id', 'options', 'error']);

function expectDeerFlowShape(events: SseEvent[]) {
  for (const e of events) {
    expect(['message_chunk', 'tool_calls', 'tool_call_chunks', 'tool_call_result', 'interrupt', 'error']).toContain(e.event);
    for (const k of Object.keys(e.data)) expect(FIELDS.has(k), `${e.event} has field ${k}`).toBe(true);
    expect(e.data.thread_id).toBe('thread-1');
    if (e.event !== 'error' && e.event !== 'interrupt') expect(['coordinator', 'planner', 'researcher', 'coder', 'reporter']).toContain(e.data.agent);
  }
}

describe('DeerFlow 1.x protocol', () => {
  it('a research turn: plan card and interrupt; edit_plan re-plans; accepted runs the researchers, then the reporter', async () => {
    researchModel();
    const url = await startServe(mkdtempSync(join(tmpdir(), 'adk-deerflow-')));
    expect(await (await fetch(`${url}/api/config`)).json()).toEqual({ rag: { provider: null }, models: { basic: ['gpt-test'], reasoning: [] } });

    const first = await chat(url, { messages: [{ role: 'user', content: 'research the topic' }], thread_id: 'thread-1', auto_accepted_plan: false });
    expectDeerFlowShape(first);
    expect(first.map((e) => e.event).slice(-3)).toEqual(['message_chunk', 'message_chunk', 'interrupt']);
    const [card, end, interrupt] = first.slice(-3).map((e) => e.data);
    expect(card.agent).toBe('planner');
    // The planner's reply streams as the plan card, chunk by chunk under one id (as DeerFlow's planner does).
    const cardText = first.filter((e) => e.data.agent === 'planner').map((e) => e.data.content ?? '').join('');
    expect(JSON.parse(cardText)).toMatchObject({ title: 'research the topic', thought: 'Plan 1.', steps: [{ title: 'Find the facts', description: 'on the web', step_type: 'research' }] });
    expect(end).toMatchObject({ agent: 'planner', id: card.id, finish_reason: 'stop' });
    expect(interrupt).toMatchObject({ role: 'assistant', finish_reason: 'interrupt', options: [{ text: 'Edit plan', value: 'edit_plan' }, { text: 'Start research', value: 'accepted' }] });
    // No tool-call rows for the plan or the hand-over: DeerFlow shows the plan card.
    expect(first.some((e) => e.event === 'tool_calls')).toBe(false);
    // DeerFlow's page opens a research panel for the first researcher/coder/reporter message and
    // needs a plan before it: the coordinator ('research') is the coordinator, and the only planner
    // message is the plan card (no empty one for the review call).
    const roles = first.filter((e) => e.event === 'message_chunk').map((e) => e.data.agent);
    expect(roles.every((r) => r === 'coordinator' || r === 'planner')).toBe(true);
    expect(new Set(first.filter((e) => e.data.agent === 'planner').map((e) => e.data.id))).toEqual(new Set([card.id]));

    const edited = await chat(url, { messages: [{ role: 'user', content: 'add a comparison step' }], thread_id: 'thread-1', interrupt_feedback: 'edit_plan' });
    expectDeerFlowShape(edited);
    expect(edited.at(-1)!.event).toBe('interrupt');
    const plan2 = edited.filter((e) => e.data.agent === 'planner').map((e) => e.data.content).join('');
    expect(JSON.parse(plan2).steps).toHaveLength(2);
    const feedbackRequest = model().chatRequests.findLast((r) => system(r.body).includes('professional deep researcher'))!;
    expect(JSON.stringify(feedbackRequest.body.messages.at(-1))).toContain('add a comparison step');

    const accepted = await chat(url, { messages: [{ role: 'user', content: '[accepted]' }], thread_id: 'thread-1', interrupt_feedback: 'accepted' });
    expectDeerFlowShape(accepted);
    const agents = accepted.filter((e) => e.event === 'message_chunk' && e.data.content).map((e) => e.data.agent);
    expect(agents).toContain('researcher');
    expect(agents.lastIndexOf('researcher')).toBeLessThan(agents.indexOf('reporter'));
    const report = accepted.filter((e) => e.data.agent === 'reporter' && e.event === 'message_chunk').map((e) => e.data.content).join('');
    expect(report).toBe('# Report\n\nAll found.');
    expect(accepted.at(-1)!.data).toMatchObject({ agent: 'reporter', finish_reason: 'stop' });
    expect(accepted.some((e) => e.event === 'interrupt')).toBe(false);
    // Once accepted, nothing more from the planner (DeerFlow would parse it as a plan), and no
    // result for the review call, whose call it never saw.
    expect(accepted.some((e) => e.data.agent === 'planner')).toBe(false);
    const callIds = new Set(accepted.flatMap((e) => (e.event === 'tool_calls' ? e.data.tool_calls.map((c: any) => c.id) : [])));
    for (const r of accepted.filter((e) => e.event === 'tool_call_result')) expect(callIds.has(r.data.tool_call_id)).toBe(true);
  }, 60_000);

  it('a request that cannot start anything creates no session', async () => {
    researchModel();
    const home = mkdtempSync(join(tmpdir(), 'adk-deerflow-'));
    const url = await startServe(home);
    const post = (body: string) => fetch(`${url}/api/chat/stream`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect((await post('{"messages":')).status).toBe(400);
    expect((await post('{}')).status).toBe(400);
    expect((await post('{"messages":[{"role":"user","content":[null]}],"thread_id":"t9"}')).status).toBe(400);
    expect(((await (await fetch(`${url}/v1/sessions`)).json()) as any).sessions).toEqual([]);
  }, 30_000);

  it('auto_accepted_plan runs straight through to the report', async () => {
    researchModel();
    const url = await startServe(mkdtempSync(join(tmpdir(), 'adk-deerflow-')));
    const events = await chat(url, { messages: [{ role: 'user', content: 'research it' }], thread_id: 'thread-1', auto_accepted_plan: true });
    expectDeerFlowShape(events);
    // DeerFlow and Deer-Go send no interrupt when the plan is accepted for the person (issue 33).
    expect(events.filter((e) => e.event === 'interrupt').length).toBe(0);
    expect(events.at(-1)!.data).toMatchObject({ agent: 'reporter', finish_reason: 'stop' });
  }, 60_000);

  it('a thread whose session was deleted starts afresh instead of failing', async () => {
    researchModel();
    const url = await startServe(mkdtempSync(join(tmpdir(), 'adk-deerflow-')));
    const first = await chat(url, { messages: [{ role: 'user', content: 'research it' }], thread_id: 'thread-1', auto_accepted_plan: true });
    expect(first.at(-1)!.data).toMatchObject({ agent: 'reporter', finish_reason: 'stop' });
    const [session] = ((await (await fetch(`${url}/v1/sessions`)).json()) as any).sessions;
    expect((await fetch(`${url}/v1/sessions/${session.id}`, { method: 'DELETE' })).status).toBe(204);
    const again = await chat(url, { messages: [{ role: 'user', content: 'research it again' }], thread_id: 'thread-1', auto_accepted_plan: true });
    expectDeerFlowShape(again);
    expect(again.at(-1)!.data).toMatchObject({ agent: 'reporter', finish_reason: 'stop' });
  }, 60_000);

  // Issue 43, item 3: DeerFlow's Stop aborts the page's fetch; the turn went on on the server and the
  // thread answered 409 session_busy (which the page swallows) until it ended.
  it("Stop (the page aborting its fetch) stops the turn within a second; the thread's next message is answered", async () => {
    let stop = false;
    model().onRequest((req) => {
      const sys = system(req.body);
      if (!stop && sys.includes('friendly research assistant')) {
        stop = true;
        return { content: Array.from({ length: 300 }, (_, i) => `w${i}`).join(' '), chunkSize: 4, chunkDelayMs: 50 };
      }
      return { content: 'Hello again.' };
    });
    const url = await startServe(mkdtempSync(join(tmpdir(), 'adk-deerflow-stop-')));
    const page = new AbortController();
    const res = await fetch(`${url}/api/chat/stream`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ messages: [{ role: 'user', content: 'hi' }], thread_id: 'thread-stop', auto_accepted_plan: true }), signal: page.signal });
    const reader = res.body!.getReader();
    await reader.read();
    const aborted = model().abortedRequests;
    const stoppedAt = Date.now();
    page.abort();
    await model().waitForAborted(aborted + 1, 1000);
    expect(Date.now() - stoppedAt).toBeLessThan(1000);
    let next: SseEvent[] | undefined;
    for (let i = 0; i < 20 && !next; i++) {
      const r = await fetch(`${url}/api/chat/stream`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ messages: [{ role: 'user', content: 'hello?' }], thread_id: 'thread-stop', auto_accepted_plan: true }) });
      if (r.status === 200) next = await readSse(r);
      else await new Promise((x) => setTimeout(x, 100));
    }
    expect(next!.filter((e) => e.event === 'message_chunk').map((e) => e.data.content ?? '').join('')).toContain('Hello again.');
  }, 60_000);
});
