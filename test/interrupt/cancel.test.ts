import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/core/agents/types.js';
import type { ScriptStep } from '../../src/core/models/scripted.js';
import type { Tool } from '../../src/core/tools/tool.js';
import { carryCheckpoint, checkpointJson, collect, countingTool, errorsOf, interruptOf, loadRuntime, messagesOf, toolMessagesSent, type Runtime } from './helpers.js';

const slowStream: ScriptStep = { content: 'the final answer', chunks: ['the ', 'final ', 'answer'], chunkDelayMs: 40 };

function agentA(rt: Runtime, script: ScriptStep[], tools: Tool[], approval?: string[]) {
  const model = new rt.ScriptedChatModel(script);
  return { model, agent: new rt.ChatModelAgent({ name: 'a', description: 'd', model, tools, approval }) };
}

/** Runs with a checkpoint id and aborts the run as soon as `when` sees an event. */
async function runAndAbort(rt: Runtime, agent: InstanceType<Runtime['ChatModelAgent']>, when: (e: AgentEvent) => boolean, enableStreaming = false) {
  const store = new rt.InMemoryCheckpointStore();
  const ctrl = new AbortController();
  const events: AgentEvent[] = [];
  for await (const e of new rt.Runner({ agent, checkpointStore: store, enableStreaming }).query('go', { checkpointId: 'cp', signal: ctrl.signal })) {
    events.push(e);
    if (!ctrl.signal.aborted && when(e)) ctrl.abort();
  }
  return { store, events };
}

/** A cancelled run ends with the cancellation interrupt (saved as a checkpoint) and then CancelledError. */
function expectCancelled(rt: Runtime, events: AgentEvent[]) {
  const [interrupt, error] = events.slice(-2);
  expect(interrupt.action?.interrupted?.cancelled).toBe(true);
  expect(interrupt.agentName).toBe('a');
  expect(interrupt.runPath).toEqual(['a']);
  expect(error.error).toBeInstanceOf(rt.CancelledError);
  expect(errorsOf(events)).toHaveLength(1);
  return interrupt.action!.interrupted!;
}

const isAssistant = (e: AgentEvent) => e.output?.message?.role === 'assistant';
const isToolResult = (id: string) => (e: AgentEvent) => e.output?.message?.toolCallId === id;

describe('cancellation saves a checkpoint at the last safe point', () => {
  it('during a slow model stream: resumes before that model call, and the finished tool is not re-run', async () => {
    const counts: Record<string, number> = {};
    const rt1 = await loadRuntime();
    const p1 = agentA(rt1, [{ toolCalls: [{ name: 'work', arguments: {}, id: 'call_1' }] }, slowStream], [countingTool('work', counts)]);
    let assistants = 0;
    const { store, events } = await runAndAbort(rt1, p1.agent, (e) => isAssistant(e) && ++assistants === 2, true);

    const action = expectCancelled(rt1, events);
    expect(action.contexts).toEqual([{ id: expect.any(String), address: 'agent:a', info: { kind: 'custom', message: 'cancelled' }, cancelled: true }]);
    expect(counts.work).toBe(1);
    expect(p1.model.calls).toHaveLength(2);

    const cp = checkpointJson(store, 'cp');
    const point = cp.interrupts[action.contexts[0].id];
    expect(point).toMatchObject({ address: 'agent:a', isRootCause: true, cancelled: true });
    // The safe point is after the tool call: the unfinished model call is not kept, nor counted.
    expect(point.state.messages.map((m: any) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(point.state.remainingIterations).toBe(19);
    // Nor is its partial text kept in the recorded history.
    expect(cp.session.events.map((e: any) => [e.role, e.message.content])).toEqual([
      ['assistant', ''],
      ['tool', 'work ran with {}'],
    ]);

    // A new process resumes with no targets: the cancellation point needs no answer.
    const rt2 = await loadRuntime();
    const p2 = agentA(rt2, [{ content: 'done after resume' }], [countingTool('work', counts)]);
    const resumed = await collect(new rt2.Runner({ agent: p2.agent, checkpointStore: carryCheckpoint(store, 'cp', rt2) }).resume('cp'));
    expect(errorsOf(resumed)).toEqual([]);
    expect(resumed.some((e) => e.action?.interrupted)).toBe(false);
    expect(counts.work).toBe(1);
    expect(p2.model.calls).toHaveLength(1);
    expect(p2.model.calls[0].messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'go'],
      ['assistant', ''],
      ['tool', 'work ran with {}'],
    ]);
    expect((await messagesOf(resumed)).map((m) => m.content)).toEqual(['done after resume']);
  });

  it('during a non-streaming model call', async () => {
    const rt1 = await loadRuntime();
    const store = new rt1.InMemoryCheckpointStore();
    const p1 = agentA(rt1, [{ content: 'never', delayMs: 5_000 }], []);
    const ctrl = new AbortController();
    setTimeout(() => ctrl.abort(), 30);
    const events = await collect(new rt1.Runner({ agent: p1.agent, checkpointStore: store }).query('go', { checkpointId: 'cp', signal: ctrl.signal }));
    expectCancelled(rt1, events);

    const rt2 = await loadRuntime();
    const p2 = agentA(rt2, [{ content: 'answered' }], []);
    const resumed = await collect(new rt2.Runner({ agent: p2.agent, checkpointStore: carryCheckpoint(store, 'cp', rt2) }).resume('cp'));
    expect(errorsOf(resumed)).toEqual([]);
    expect(p2.model.calls[0].messages.map((m) => m.content)).toEqual(['go']);
    expect((await messagesOf(resumed)).map((m) => m.content)).toEqual(['answered']);
  });

  it('during a tool batch: the calls that finished are kept, the cancelled one runs on resume', async () => {
    const counts: Record<string, number> = {};
    const tools = () => [countingTool('fast', counts), countingTool('slow', counts, { delayMs: 2_000 })];
    const rt1 = await loadRuntime();
    const batch: ScriptStep = { toolCalls: [{ name: 'slow', arguments: {}, id: 'call_1' }, { name: 'fast', arguments: {}, id: 'call_2' }] };
    const p1 = agentA(rt1, [batch], tools());
    const { store, events } = await runAndAbort(rt1, p1.agent, isToolResult('call_2'));
    expectCancelled(rt1, events);
    expect(counts).toEqual({ fast: 1 });
    const state = Object.values(checkpointJson(store, 'cp').interrupts as Record<string, any>)[0].state;
    expect(Object.keys(state.done)).toEqual(['call_2']);

    const rt2 = await loadRuntime();
    const p2 = agentA(rt2, [{ content: 'both done' }], [countingTool('fast', counts), countingTool('slow', counts, { delayMs: 5 })]);
    const resumed = await collect(new rt2.Runner({ agent: p2.agent, checkpointStore: carryCheckpoint(store, 'cp', rt2) }).resume('cp'));
    expect(errorsOf(resumed)).toEqual([]);
    expect(counts).toEqual({ fast: 1, slow: 1 });
    expect(toolMessagesSent(p2.model, 0).map((m) => [m.toolCallId, m.content])).toEqual([
      ['call_1', 'slow ran with {}'],
      ['call_2', 'fast ran with {}'],
    ]);
  });

  it('keeps a pending approval pending: resume runs the cancelled call and asks again with the same id', async () => {
    const counts: Record<string, number> = {};
    const batch: ScriptStep = { toolCalls: [{ name: 'shell', arguments: { c: 'ls' }, id: 'call_1' }, { name: 'slow', arguments: {}, id: 'call_2' }] };
    const rt1 = await loadRuntime();
    const p1 = agentA(rt1, [batch], [countingTool('shell', counts), countingTool('slow', counts, { delayMs: 2_000 })], ['shell']);
    const ctrl = new AbortController();
    setTimeout(() => ctrl.abort(), 50);
    const store = new rt1.InMemoryCheckpointStore();
    const events = await collect(new rt1.Runner({ agent: p1.agent, checkpointStore: store }).query('go', { checkpointId: 'cp', signal: ctrl.signal }));
    const action = expectCancelled(rt1, events);
    // The cancellation wraps the approval, which is still the point to answer.
    expect(action.contexts.map((c) => [c.address, (c.info as any).kind, c.cancelled])).toEqual([['agent:a;tool:shell:call_1', 'approval', undefined]]);
    expect(counts).toEqual({});

    const rt2 = await loadRuntime();
    const store2 = carryCheckpoint(store, 'cp', rt2);
    const p2 = agentA(rt2, [{ content: 'done' }], [countingTool('shell', counts), countingTool('slow', counts, { delayMs: 5 })], ['shell']);
    const runner2 = new rt2.Runner({ agent: p2.agent, checkpointStore: store2 });
    const again = await collect(runner2.resume('cp'));
    const pending = interruptOf(again);
    expect(pending.cancelled).toBeUndefined();
    expect(pending.contexts.map((c) => c.id)).toEqual([action.contexts[0].id]);
    expect(counts).toEqual({ slow: 1 });

    const done = await collect(runner2.resume('cp', { targets: { [action.contexts[0].id]: { approved: true } } }));
    expect(errorsOf(done)).toEqual([]);
    expect(counts).toEqual({ slow: 1, shell: 1 });
    expect(p2.model.calls).toHaveLength(1);
  });

  it('a signal aborted before the run starts saves the start as the safe point', async () => {
    const rt1 = await loadRuntime();
    const store = new rt1.InMemoryCheckpointStore();
    const p1 = agentA(rt1, [], []);
    const events = await collect(new rt1.Runner({ agent: p1.agent, checkpointStore: store }).query('go', { checkpointId: 'cp', signal: AbortSignal.abort() }));
    expectCancelled(rt1, events);
    expect(p1.model.calls).toHaveLength(0);

    const rt2 = await loadRuntime();
    const p2 = agentA(rt2, [{ content: 'hello' }], []);
    const resumed = await collect(new rt2.Runner({ agent: p2.agent, checkpointStore: carryCheckpoint(store, 'cp', rt2) }).resume('cp'));
    expect(errorsOf(resumed)).toEqual([]);
    expect((await messagesOf(resumed)).map((m) => m.content)).toEqual(['hello']);
  });

  it('a resumed run can be cancelled again and resumed again', async () => {
    const counts: Record<string, number> = {};
    const rt1 = await loadRuntime();
    const script = [{ toolCalls: [{ name: 'work', arguments: {}, id: 'call_1' }] }, slowStream];
    const p1 = agentA(rt1, script, [countingTool('work', counts)]);
    let n = 0;
    const first = await runAndAbort(rt1, p1.agent, (e) => isAssistant(e) && ++n === 2, true);
    expectCancelled(rt1, first.events);

    const rt2 = await loadRuntime();
    const store2 = carryCheckpoint(first.store, 'cp', rt2);
    const p2 = agentA(rt2, [slowStream], [countingTool('work', counts)]);
    const ctrl = new AbortController();
    const events2: AgentEvent[] = [];
    for await (const e of new rt2.Runner({ agent: p2.agent, checkpointStore: store2 }).resume('cp', {}, { signal: ctrl.signal })) {
      events2.push(e);
      if (isAssistant(e)) ctrl.abort();
    }
    expectCancelled(rt2, events2);

    const rt3 = await loadRuntime();
    const p3 = agentA(rt3, [{ content: 'third time' }], [countingTool('work', counts)]);
    const resumed = await collect(new rt3.Runner({ agent: p3.agent, checkpointStore: carryCheckpoint(store2, 'cp', rt3) }).resume('cp'));
    expect(errorsOf(resumed)).toEqual([]);
    expect(counts.work).toBe(1);
    expect(p3.model.calls[0].messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect((await messagesOf(resumed)).map((m) => m.content)).toEqual(['third time']);
  });
});
