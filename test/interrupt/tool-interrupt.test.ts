import { describe, expect, it } from 'vitest';
import type { ScriptStep } from '../../src/core/models/scripted.js';
import type { Tool, ToolContext } from '../../src/core/tools/tool.js';
import {
  askingTool,
  carryCheckpoint,
  collect,
  countingTool,
  errorsOf,
  interruptOf,
  loadRuntime,
  messagesOf,
  toolMessagesSent,
  type Runtime,
} from './helpers.js';

type ResumeLog = Array<{ call: string; resume: ToolContext['resume'] }>;

function agentA(rt: Runtime, script: ScriptStep[], tools: Tool[], extra: { returnDirectly?: string[] } = {}) {
  const model = new rt.ScriptedChatModel(script);
  const agent = new rt.ChatModelAgent({ name: 'a', description: 'agent a', model, tools, ...extra });
  return { model, agent };
}

describe('a tool interrupt with a targeted resume', () => {
  it('gives the tool its data and state in a new process, and the run completes', async () => {
    const log: ResumeLog = [];
    const rt1 = await loadRuntime();
    const store1 = new rt1.InMemoryCheckpointStore();
    const first = agentA(rt1, [{ content: 'let me ask', toolCalls: [{ name: 'mytool', arguments: { q: 'color' }, id: 'call_1' }] }], [
      askingTool('mytool', 'custom', log),
    ]);
    const events1 = await collect(new rt1.Runner({ agent: first.agent, checkpointStore: store1 }).query('hi', { checkpointId: 'cp' }));

    expect(errorsOf(events1)).toEqual([]);
    const action = interruptOf(events1);
    expect(action.contexts).toHaveLength(1);
    const point = action.contexts[0];
    expect(point.address).toBe('agent:a;tool:mytool:call_1');
    expect(point.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(point.info).toEqual({ kind: 'custom', message: 'mytool needs a person' });
    expect(point.parent?.address).toBe('agent:a');
    const interruptEvent = events1.find((e) => e.action?.interrupted)!;
    expect(interruptEvent.agentName).toBe('a');
    expect(interruptEvent.runPath).toEqual(['a']);
    expect(log).toHaveLength(1);
    expect(log[0].resume.wasInterrupted).toBe(false);

    // A new process: fresh modules, runner, agent and model; only the checkpoint text survives.
    const rt2 = await loadRuntime();
    const second = agentA(rt2, [{ content: 'your color is blue' }], [askingTool('mytool', 'custom', log)]);
    const runner2 = new rt2.Runner({ agent: second.agent, checkpointStore: carryCheckpoint(store1, 'cp', rt2) });
    const events2 = await collect(runner2.resume('cp', { targets: { [point.id]: { color: 'blue' } } }));

    expect(errorsOf(events2)).toEqual([]);
    expect(events2.some((e) => e.action?.interrupted)).toBe(false);
    expect(log).toHaveLength(2);
    expect(log[1].call).toBe('call_1');
    expect(log[1].resume).toMatchObject({
      id: point.id,
      wasInterrupted: true,
      isResumeTarget: true,
      hasData: true,
      data: { color: 'blue' },
      state: { step: 'waiting', callId: 'call_1' },
    });
    const msgs = await messagesOf(events2);
    expect(msgs.map((m) => [m.role, m.content])).toEqual([
      ['tool', 'answer for call_1: {"color":"blue"} (state {"step":"waiting","callId":"call_1"})'],
      ['assistant', 'your color is blue'],
    ]);
    // The model continues from the saved ReAct state: the user turn, its own tool call, the answer.
    expect(second.model.calls).toHaveLength(1);
    expect(second.model.calls[0].messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(second.model.calls[0].messages[1].toolCalls?.[0].id).toBe('call_1');
  });

  it('an untargeted point interrupts again with the same id and state', async () => {
    const log: ResumeLog = [];
    const rt1 = await loadRuntime();
    const store1 = new rt1.InMemoryCheckpointStore();
    const first = agentA(rt1, [{ toolCalls: [{ name: 'mytool', arguments: {}, id: 'call_1' }] }], [askingTool('mytool', 'custom', log)]);
    const id = interruptOf(await collect(new rt1.Runner({ agent: first.agent, checkpointStore: store1 }).query('hi', { checkpointId: 'cp' })))
      .contexts[0].id;

    const rt2 = await loadRuntime();
    const store2 = carryCheckpoint(store1, 'cp', rt2);
    const second = agentA(rt2, [{ content: 'done' }], [askingTool('mytool', 'custom', log)]);
    const runner2 = new rt2.Runner({ agent: second.agent, checkpointStore: store2 });
    // No targets, then a target that is not this point: both ask again.
    for (const targets of [undefined, { 'not-an-interrupt-id': 1 }]) {
      const again = await collect(runner2.resume('cp', { targets }));
      const ctx = interruptOf(again).contexts;
      expect(ctx.map((c) => [c.id, c.address])).toEqual([[id, 'agent:a;tool:mytool:call_1']]);
      expect(log[log.length - 1].resume).toMatchObject({ wasInterrupted: true, isResumeTarget: false, hasData: false });
    }
    expect(second.model.calls).toHaveLength(0);
    const saved = JSON.parse(store2.data.get('cp')!);
    expect(saved.interrupts[id]).toMatchObject({ address: 'agent:a;tool:mytool:call_1', state: { step: 'waiting', callId: 'call_1' } });

    const done = await collect(runner2.resume('cp', { targets: { [id]: 'ok' } }));
    expect(errorsOf(done)).toEqual([]);
    expect((await messagesOf(done)).at(-1)?.content).toBe('done');
  });
});

describe('two parallel tool interrupts in one batch', () => {
  const batch: ScriptStep = {
    toolCalls: [
      { name: 'ask', arguments: { n: 1 }, id: 'call_1' },
      { name: 'ask', arguments: { n: 2 }, id: 'call_2' },
      { name: 'sibling', arguments: {}, id: 'call_3' },
    ],
  };

  it('are resumed one at a time; no finished call runs twice', async () => {
    const log: ResumeLog = [];
    const counts: Record<string, number> = {};

    const rt1 = await loadRuntime();
    const store1 = new rt1.InMemoryCheckpointStore();
    const p1 = agentA(rt1, [batch], [askingTool('ask', 'custom', log), countingTool('sibling', counts)]);
    const events1 = await collect(new rt1.Runner({ agent: p1.agent, checkpointStore: store1 }).query('go', { checkpointId: 'cp' }));
    const pending = interruptOf(events1).contexts;
    expect(pending.map((c) => c.address).sort()).toEqual(['agent:a;tool:ask:call_1', 'agent:a;tool:ask:call_2']);
    const id1 = pending.find((c) => c.address.endsWith('call_1'))!.id;
    const id2 = pending.find((c) => c.address.endsWith('call_2'))!.id;
    expect(id1).not.toBe(id2);
    expect(counts.sibling).toBe(1);
    // The sibling's result was shown in the run that executed it.
    expect((await messagesOf(events1)).filter((m) => m.role === 'tool').map((m) => m.toolCallId)).toEqual(['call_3']);

    // Process 2 answers only the first point.
    const rt2 = await loadRuntime();
    const store2 = carryCheckpoint(store1, 'cp', rt2);
    const p2 = agentA(rt2, [], [askingTool('ask', 'custom', log), countingTool('sibling', counts)]);
    const events2 = await collect(new rt2.Runner({ agent: p2.agent, checkpointStore: store2 }).resume('cp', { targets: { [id1]: 'first' } }));
    expect(errorsOf(events2)).toEqual([]);
    const still = interruptOf(events2).contexts;
    expect(still.map((c) => [c.id, c.address])).toEqual([[id2, 'agent:a;tool:ask:call_2']]);
    expect(p2.model.calls).toHaveLength(0);
    expect(counts.sibling).toBe(1);
    expect((await messagesOf(events2)).filter((m) => m.role === 'tool').map((m) => m.toolCallId)).toEqual(['call_1']);

    // Process 3 answers the second; the first and the sibling are not run again.
    const before = log.length;
    const rt3 = await loadRuntime();
    const p3 = agentA(rt3, [{ content: 'all answered' }], [askingTool('ask', 'custom', log), countingTool('sibling', counts)]);
    const store3 = carryCheckpoint(store2, 'cp', rt3);
    const events3 = await collect(new rt3.Runner({ agent: p3.agent, checkpointStore: store3 }).resume('cp', { targets: { [id2]: 'second' } }));
    expect(errorsOf(events3)).toEqual([]);
    expect(events3.some((e) => e.action?.interrupted)).toBe(false);
    expect(log.slice(before).map((l) => l.call)).toEqual(['call_2']);
    expect(counts.sibling).toBe(1);
    // Across the three runs call_1 ran twice (interrupt, answer) and call_2 three times (interrupt, again, answer).
    expect(log.map((l) => l.call).filter((c) => c === 'call_1')).toHaveLength(2);
    expect(log.map((l) => l.call).filter((c) => c === 'call_2')).toHaveLength(3);

    expect(p3.model.calls).toHaveLength(1);
    expect(toolMessagesSent(p3.model, 0).map((m) => [m.toolCallId, m.content])).toEqual([
      ['call_1', 'answer for call_1: "first" (state {"step":"waiting","callId":"call_1"})'],
      ['call_2', 'answer for call_2: "second" (state {"step":"waiting","callId":"call_2"})'],
      ['call_3', 'sibling ran with {}'],
    ]);
    expect((await messagesOf(events3)).at(-1)?.content).toBe('all answered');
  });

  it('are resumed together with one resume', async () => {
    const log: ResumeLog = [];
    const counts: Record<string, number> = {};
    const rt1 = await loadRuntime();
    const store1 = new rt1.InMemoryCheckpointStore();
    const p1 = agentA(rt1, [batch], [askingTool('ask', 'custom', log), countingTool('sibling', counts)]);
    const pending = interruptOf(await collect(new rt1.Runner({ agent: p1.agent, checkpointStore: store1 }).query('go', { checkpointId: 'cp' }))).contexts;

    const rt2 = await loadRuntime();
    const p2 = agentA(rt2, [{ content: 'ok' }], [askingTool('ask', 'custom', log), countingTool('sibling', counts)]);
    const targets = Object.fromEntries(pending.map((c) => [c.id, c.address.slice(-6)]));
    const events = await collect(new rt2.Runner({ agent: p2.agent, checkpointStore: carryCheckpoint(store1, 'cp', rt2) }).resume('cp', { targets }));
    expect(errorsOf(events)).toEqual([]);
    expect(events.some((e) => e.action?.interrupted)).toBe(false);
    expect(counts.sibling).toBe(1);
    expect(toolMessagesSent(p2.model, 0).map((m) => m.content)).toEqual([
      'answer for call_1: "call_1" (state {"step":"waiting","callId":"call_1"})',
      'answer for call_2: "call_2" (state {"step":"waiting","callId":"call_2"})',
      'sibling ran with {}',
    ]);
  });

  it('hold back a finished return-directly result until the batch completes after resume', async () => {
    const log: ResumeLog = [];
    const counts: Record<string, number> = {};
    const script: ScriptStep[] = [{ toolCalls: [{ name: 'ask', arguments: {}, id: 'call_1' }, { name: 'final', arguments: {}, id: 'call_2' }] }];
    const rt1 = await loadRuntime();
    const store1 = new rt1.InMemoryCheckpointStore();
    const p1 = agentA(rt1, script, [askingTool('ask', 'custom', log), countingTool('final', counts)], { returnDirectly: ['final'] });
    const events1 = await collect(new rt1.Runner({ agent: p1.agent, checkpointStore: store1 }).query('go', { checkpointId: 'cp' }));
    const id = interruptOf(events1).contexts[0].id;
    expect(counts.final).toBe(1);
    expect((await messagesOf(events1)).filter((m) => m.role === 'tool')).toEqual([]);

    const rt2 = await loadRuntime();
    const p2 = agentA(rt2, [], [askingTool('ask', 'custom', log), countingTool('final', counts)], { returnDirectly: ['final'] });
    const events2 = await collect(new rt2.Runner({ agent: p2.agent, checkpointStore: carryCheckpoint(store1, 'cp', rt2) }).resume('cp', { targets: { [id]: 'x' } }));
    expect(errorsOf(events2)).toEqual([]);
    expect(counts.final).toBe(1);
    expect(p2.model.calls).toHaveLength(0);
    const tools = (await messagesOf(events2)).filter((m) => m.role === 'tool');
    expect(tools.map((m) => m.toolCallId)).toEqual(['call_1', 'call_2']);
    expect(tools[1].content).toBe('final ran with {}');
  });
});

describe('an ask_user-style input interrupt', () => {
  const askUser: Tool = {
    name: 'ask_user',
    description: 'asks the user',
    parameters: { type: 'object', properties: { question: { type: 'string' } }, required: ['question'] },
    execute(args: { question: string }, ctx: ToolContext) {
      if (ctx.resume.isResumeTarget && typeof ctx.resume.data === 'string') return ctx.resume.data;
      return ctx.interrupt({ kind: 'input', message: args.question });
    },
  };

  it('shows the question and answers with the typed text', async () => {
    const rt1 = await loadRuntime();
    const store1 = new rt1.InMemoryCheckpointStore();
    const p1 = agentA(rt1, [{ toolCalls: [{ name: 'ask_user', arguments: { question: 'What is your name?' } }] }], [askUser]);
    const events1 = await collect(new rt1.Runner({ agent: p1.agent, checkpointStore: store1 }).query('greet me', { checkpointId: 's1' }));
    const [point] = interruptOf(events1).contexts;
    expect(point.address).toBe('agent:a;tool:ask_user:call_1');
    expect(point.info).toEqual({ kind: 'input', message: 'What is your name?' });

    const rt2 = await loadRuntime();
    const store2 = carryCheckpoint(store1, 's1', rt2);
    const p2 = agentA(rt2, [{ content: 'Hello, Ada!' }], [askUser]);
    const runner2 = new rt2.Runner({ agent: p2.agent, checkpointStore: store2 });
    // An answer that is not text asks again, with the same id.
    const again = await collect(runner2.resume('s1', { targets: { [point.id]: { approved: true } } }));
    expect(interruptOf(again).contexts.map((c) => c.id)).toEqual([point.id]);

    const events2 = await collect(runner2.resume('s1', { targets: { [point.id]: 'Ada' } }));
    expect(errorsOf(events2)).toEqual([]);
    expect(toolMessagesSent(p2.model, 0).map((m) => [m.toolName, m.content])).toEqual([['ask_user', 'Ada']]);
    expect((await messagesOf(events2)).at(-1)?.content).toBe('Hello, Ada!');
  });
});
