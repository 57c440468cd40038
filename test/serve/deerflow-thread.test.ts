import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { allowInProject } from '../support/cli.js';
import { DeerFlowStore } from '../support/deerflow-store.js';
import { lastUser, researchStep, scriptResearchModel, system, type ResearchScript } from '../support/research-model.js';
import { serveEnv, startServeProcess } from './serve-process.js';
import { readSse, type SseEvent } from './sse.js';

// Issue 33: the bundled research team as Deer-Go's graph behind DeerFlow 1.x's protocol, across a
// whole thread, replayed through DeerFlow's own front-end message rules (test/support/deerflow-store.ts).
const model = useServer();
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

/** The bundled research team's roles, scripted (test/support/research-model.ts). */
const researchModel = (o: ResearchScript = {}) => scriptResearchModel(model(), o);
const requestsOf = (marker: string) => model().chatRequests.filter((r) => system(r.body).includes(marker));

async function startServe(home: string) {
  return startServeProcess(home, serveEnv(home, model().url), children);
}

const chat = (url: string, body: Record<string, unknown>) =>
  fetch(`${url}/api/chat/stream`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ enable_background_investigation: false, ...body }) }).then((r) => readSse(r));

const agentsOf = (events: SseEvent[]) => [...new Set(events.filter((e) => e.event === 'message_chunk' && e.data.content).map((e) => `${e.data.agent}:${e.data.id}`))].map((s) => s.split(':')[0]);

describe('DeerFlow 1.x: a whole thread through the front end\'s message store', () => {
  it('greeting, question, edit_plan, second plan, accepted: one card per plan, review buttons after each, findings in their own messages', async () => {
    researchModel();
    const url = (await startServe(mkdtempSync(join(tmpdir(), 'adk-df33-')))).url;
    const store = new DeerFlowStore();
    const thread = 'thread-33';

    store.send('hello', await chat(url, { messages: [{ role: 'user', content: 'hello' }], thread_id: thread }));
    const greeting = store.list().at(-1)!;
    expect(greeting).toMatchObject({ agent: 'coordinator', content: 'Hello! What shall we research?' });

    store.send('why is the sky blue', await chat(url, { messages: [{ role: 'user', content: 'why is the sky blue' }], thread_id: thread }));
    expect(store.lastInterrupt()?.options).toEqual([{ text: 'Edit plan', value: 'edit_plan' }, { text: 'Start research', value: 'accepted' }]);

    store.send('add a comparison', await chat(url, { messages: [{ role: 'user', content: 'add a comparison' }], thread_id: thread, interrupt_feedback: 'edit_plan' }), 'edit_plan');
    expect(store.lastInterrupt()).not.toBeNull();
    expect(lastUser(requestsOf('professional deep researcher')[1]!.body)).toContain('[EDIT_PLAN] add a comparison');

    store.send('[accepted]', await chat(url, { messages: [{ role: 'user', content: '[accepted]' }], thread_id: thread, interrupt_feedback: 'accepted' }), 'accepted');

    const list = store.list();
    // One plan card per plan, each a whole plan; the review buttons follow each.
    const plans = list.filter((m) => m.agent === 'planner');
    expect(plans.map((p) => JSON.parse(p.content).steps.length)).toEqual([2, 3]);
    for (const p of plans) expect(list[list.indexOf(p) + 1]).toMatchObject({ finishReason: 'interrupt', options: [{ value: 'edit_plan' }, { value: 'accepted' }] });
    // The greeting is untouched; each step's findings are a message of their own, in the plan's order and role.
    expect(store.messages.get(greeting.id)!.content).toBe('Hello! What shall we research?');
    const work = list.filter((m) => m.agent === 'researcher' || m.agent === 'coder');
    expect(work.map((m) => [m.agent, m.content])).toEqual([
      ['researcher', 'Findings for Gather facts: blue (https://example.org/2)'],
      ['coder', 'Computed Compute totals: 42'],
      ['researcher', 'Findings for Compare sources: blue (https://example.org/2)'],
    ]);
    expect(list.at(-1)).toMatchObject({ agent: 'reporter', content: '# Report\n\nThe sky is blue.', finishReason: 'stop' });
    // The research panel opened on the second plan and holds the findings and the report.
    expect(store.researchPlanIds.get(store.researchIds[0]!)).toBe(plans[1]!.id);
    expect(store.researchIds).toHaveLength(1);
    // The reporter saw every step's result.
    expect(system(requestsOf('professional reporter')[0]!.body)).toContain('Computed Compute totals: 42');
  }, 60_000);

  it('message ids stay unique across a server restart in the middle of a thread', async () => {
    researchModel();
    const home = mkdtempSync(join(tmpdir(), 'adk-df33-'));
    const first = await startServe(home);
    const before = await chat(first.url, { messages: [{ role: 'user', content: 'why is the sky blue' }], thread_id: 't-restart' });
    first.child.kill('SIGTERM');
    await new Promise((r) => first.child.once('exit', r));
    const second = await startServe(home);
    const after = await chat(second.url, { messages: [{ role: 'user', content: '[accepted]' }], thread_id: 't-restart', interrupt_feedback: 'accepted' });
    expect(agentsOf(after)).toContain('reporter');
    const ids = (events: SseEvent[]) => new Set(events.filter((e) => e.data.id).map((e) => e.data.id));
    const shared = [...ids(before)].filter((id) => ids(after).has(id));
    expect(shared).toEqual([]);
  }, 60_000);

  it('__default__: a new thread id comes back, and accepting on it continues that thread', async () => {
    researchModel();
    const url = (await startServe(mkdtempSync(join(tmpdir(), 'adk-df33-')))).url;
    const first = await chat(url, { messages: [{ role: 'user', content: 'why is the sky blue' }], thread_id: '__default__' });
    const thread = first[0]!.data.thread_id;
    expect(thread).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.at(-1)!.event).toBe('interrupt');
    const next = await chat(url, { messages: [{ role: 'user', content: '[accepted]' }], thread_id: thread, interrupt_feedback: 'accepted' });
    expect(next.every((e) => e.data.thread_id === thread)).toBe(true);
    expect(agentsOf(next)).toEqual(['researcher', 'coder', 'reporter']);
  }, 60_000);

  it('a plain message while the plan waits asks again and runs nothing', async () => {
    researchModel();
    const url = (await startServe(mkdtempSync(join(tmpdir(), 'adk-df33-')))).url;
    await chat(url, { messages: [{ role: 'user', content: 'why is the sky blue' }], thread_id: 't-plain' });
    const calls = model().chatRequests.length;
    const again = await chat(url, { messages: [{ role: 'user', content: 'hmm, not sure' }], thread_id: 't-plain' });
    expect(again.map((e) => e.event)).toEqual(['interrupt']);
    expect(again[0]!.data.options.map((x: any) => x.value)).toEqual(['edit_plan', 'accepted']);
    expect(model().chatRequests.length).toBe(calls);
    const done = await chat(url, { messages: [{ role: 'user', content: '[accepted]' }], thread_id: 't-plain', interrupt_feedback: 'accepted' });
    expect(agentsOf(done)).toEqual(['researcher', 'coder', 'reporter']);
  }, 60_000);

  it('auto_accepted_plan: plan card, no interrupt, research and report in one stream', async () => {
    researchModel();
    const url = (await startServe(mkdtempSync(join(tmpdir(), 'adk-df33-')))).url;
    const events = await chat(url, { messages: [{ role: 'user', content: 'why is the sky blue' }], thread_id: 't-auto', auto_accepted_plan: true });
    expect(events.some((e) => e.event === 'interrupt')).toBe(false);
    expect(agentsOf(events)).toEqual(['planner', 'researcher', 'coder', 'reporter']);
    const store = new DeerFlowStore();
    store.send('why is the sky blue', events);
    expect(store.list().at(-1)).toMatchObject({ agent: 'reporter', finishReason: 'stop' });
  }, 60_000);

  it('has_enough_context: true goes straight to the reporter', async () => {
    researchModel({ enough: true });
    const url = (await startServe(mkdtempSync(join(tmpdir(), 'adk-df33-')))).url;
    const events = await chat(url, { messages: [{ role: 'user', content: 'why is the sky blue' }], thread_id: 't-enough' });
    expect(events.some((e) => e.event === 'interrupt')).toBe(false);
    expect(agentsOf(events)).toEqual(['planner', 'reporter']);
  }, 60_000);

  it('request options reach the team: max_step_num, locale, report_style, resources, background investigation, max_plan_iterations', async () => {
    researchModel();
    const url = (await startServe(mkdtempSync(join(tmpdir(), 'adk-df33-')))).url;
    const opts = { max_step_num: 1, locale: 'zh-CN', report_style: 'news', enable_background_investigation: true, resources: [{ uri: 'rag://docs/sky.pdf', title: 'Sky notes' }], max_plan_iterations: 1 };
    await chat(url, { messages: [{ role: 'user', content: 'why is the sky blue' }], thread_id: 't-opts', ...opts });
    const planner = system(requestsOf('professional deep researcher')[0]!.body);
    expect(planner).toContain('plan at most 1 steps');
    expect(planner).toContain('locale zh-CN');
    expect(planner).toContain('Sky notes (rag://docs/sky.pdf)');
    expect(planner).toContain('background: the sky is blue');
    expect(requestsOf('Search the web for:')).toHaveLength(1);
    // max_plan_iterations 1: one re-plan, then the next edit goes to the reporter without planning.
    await chat(url, { messages: [{ role: 'user', content: 'more' }], thread_id: 't-opts', interrupt_feedback: 'edit_plan', ...opts });
    expect(requestsOf('professional deep researcher')).toHaveLength(2);
    const last = await chat(url, { messages: [{ role: 'user', content: 'even more' }], thread_id: 't-opts', interrupt_feedback: 'edit_plan', ...opts });
    expect(requestsOf('professional deep researcher')).toHaveLength(2);
    expect(agentsOf(last)).toEqual(['reporter']);
    expect(system(requestsOf('professional reporter')[0]!.body)).toMatch(/locale zh-CN[\s\S]*in the\s+news style/);

    // max_step_num 1: only the first step of a longer plan is worked.
    const cut = await chat(url, { messages: [{ role: 'user', content: 'again' }], thread_id: 't-cut', max_step_num: 1, auto_accepted_plan: true });
    expect(agentsOf(cut)).toEqual(['planner', 'researcher', 'reporter']);
    // Issue 43, item 9: the plan card holds exactly the step that runs (the page only appends chunks:
    // a step streamed past the limit stayed on the card).
    const card = cut.filter((e) => e.event === 'message_chunk' && e.data.agent === 'planner').map((e) => e.data.content ?? '').join('');
    expect(JSON.parse(card).steps).toHaveLength(1);
    // Without background investigation the investigator is not asked.
    expect(requestsOf('Search the web for:')).toHaveLength(1);
  }, 60_000);

  it('a coder step that needs approval: an interrupt with Approve/Reject; accepted runs the command, rejected does not', async () => {
    // The bundled coder asks before shell (agents.yaml `approval: [shell, write_file]`). DeerFlow's
    // page shows option buttons only under a plan card, so this answer comes from an API client.
    researchModel({ plans: [[researchStep('Compute totals', 'processing')]], coderShell: 'echo computed-$((6*7))' });
    const url = (await startServe(mkdtempSync(join(tmpdir(), 'adk-df33-')))).url;
    for (const [thread, feedback] of [['t-shell-yes', 'accepted'], ['t-shell-no', 'rejected']] as const) {
      const asked = await chat(url, { messages: [{ role: 'user', content: 'add up the totals' }], thread_id: thread, auto_accepted_plan: true });
      expect(asked.at(-1)!.event).toBe('interrupt');
      expect(asked.at(-1)!.data).toMatchObject({ thread_id: thread, finish_reason: 'interrupt', options: [{ text: 'Approve', value: 'accepted' }, { text: 'Reject', value: 'rejected' }] });
      expect(asked.at(-1)!.data.content).toContain('echo computed-$((6*7))');
      expect(asked.filter((e) => e.event === 'tool_calls').map((e) => [e.data.agent, e.data.tool_calls[0].name])).toEqual([['coder', 'shell']]);
      expect(asked.some((e) => e.event === 'tool_call_result')).toBe(false);

      const answered = await chat(url, { messages: [{ role: 'user', content: feedback }], thread_id: thread, interrupt_feedback: feedback });
      const [result] = answered.filter((e) => e.event === 'tool_call_result');
      expect(result!.data.tool_call_id).toBe(asked.find((e) => e.event === 'tool_calls')!.data.tool_calls[0].id);
      const coderSaid = answered.filter((e) => e.event === 'message_chunk' && e.data.agent === 'coder').map((e) => e.data.content).join('');
      if (feedback === 'accepted') {
        // The arithmetic is the shell's: the command ran, and the coder reported its output.
        expect(result!.data.content).toContain('computed-42');
        expect(coderSaid).toContain('shell said: computed-42');
      } else {
        expect(result!.data.content).not.toContain('computed-42');
        expect(coderSaid).not.toContain('computed-42');
      }
      expect(agentsOf(answered)).toEqual(['coder', 'reporter']);
      expect(answered.some((e) => e.event === 'interrupt')).toBe(false);
    }
  }, 60_000);

  it('a coder command allowed in the served folder runs unasked: no interrupt, as DeerFlow\'s page needs (it cannot answer one)', async () => {
    researchModel({ plans: [[researchStep('Compute totals', 'processing')]], coderShell: 'expr 6 + 36' });
    const home = mkdtempSync(join(tmpdir(), 'adk-df33-'));
    allowInProject(join(home, 'adk'), home, ['shell(expr *)']);
    const url = (await startServe(home)).url;
    const events = await chat(url, { messages: [{ role: 'user', content: 'add up the totals' }], thread_id: 't-allowed', auto_accepted_plan: true });
    expect(events.some((e) => e.event === 'interrupt')).toBe(false);
    expect(events.find((e) => e.event === 'tool_call_result')!.data.content).toContain('42');
    expect(agentsOf(events)).toEqual(['planner', 'coder', 'reporter']);
  }, 60_000);

  it('enable_deep_thinking streams the model\'s reasoning; without it none is sent; mcp_settings is refused', async () => {
    model().onRequest((req) => {
      const sys = system(req.body);
      if (sys.includes('friendly research assistant')) return { reasoning: 'thinking about it', content: 'Hello!' };
      return { content: 'x' };
    });
    const url = (await startServe(mkdtempSync(join(tmpdir(), 'adk-df33-')))).url;
    const on = await chat(url, { messages: [{ role: 'user', content: 'hello' }], thread_id: 't-think', enable_deep_thinking: true });
    expect(on.map((e) => e.data.reasoning_content ?? '').join('')).toBe('thinking about it');
    const off = await chat(url, { messages: [{ role: 'user', content: 'hello' }], thread_id: 't-think2' });
    expect(off.some((e) => e.data.reasoning_content)).toBe(false);
    const mcp = await fetch(`${url}/api/chat/stream`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ messages: [{ role: 'user', content: 'hi' }], thread_id: 't-mcp', mcp_settings: { servers: { x: { transport: 'stdio', command: 'sh' } } } }) });
    expect(mcp.status).toBe(403);
  }, 60_000);
});
