import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/core/agents/types.js';
import type { ScriptStep } from '../../src/core/models/scripted.js';
import type { ToolContext } from '../../src/core/tools/tool.js';
import { askingTool, carryCheckpoint, collect, errorsOf, interruptOf, loadRuntime, messagesOf, type Runtime } from './helpers.js';

type ResumeLog = Array<{ call: string; resume: ToolContext['resume'] }>;

const ask = (content = ''): ScriptStep => ({ content, toolCalls: [{ name: 'ask', arguments: {}, id: 'call_1' }] });

function chat(rt: Runtime, name: string, script: ScriptStep[], log?: ResumeLog) {
  const model = new rt.ScriptedChatModel(script);
  const agent = new rt.ChatModelAgent({ name, description: name, model, tools: log ? [askingTool('ask', 'custom', log)] : [] });
  return { model, agent };
}

const contents = async (events: AgentEvent[]) => (await messagesOf(events)).map((m) => m.content);
const paths = (events: AgentEvent[]) => events.filter((e) => e.output).map((e) => e.runPath.join('/'));

describe('an interrupt inside Sequential', () => {
  it('resumes the interrupted child and does not re-run the child that had finished', async () => {
    const log: ResumeLog = [];
    const rt1 = await loadRuntime();
    const store1 = new rt1.InMemoryCheckpointStore();
    const a1 = chat(rt1, 'first', [{ content: 'one' }]);
    const b1 = chat(rt1, 'second', [ask('asking')], log);
    const c1 = chat(rt1, 'third', []);
    const seq1 = new rt1.SequentialAgent({ name: 'seq', subAgents: [a1.agent, b1.agent, c1.agent] });
    const events1 = await collect(new rt1.Runner({ agent: seq1, checkpointStore: store1 }).query('go', { checkpointId: 'cp' }));
    expect(errorsOf(events1)).toEqual([]);
    const [point] = interruptOf(events1).contexts;
    expect(point.address).toBe('agent:seq;agent:second;tool:ask:call_1');
    expect(a1.model.calls).toHaveLength(1);
    expect(c1.model.calls).toHaveLength(0);

    const rt2 = await loadRuntime();
    const a2 = chat(rt2, 'first', []);
    const b2 = chat(rt2, 'second', [{ content: 'two' }], log);
    const c2 = chat(rt2, 'third', [{ content: 'three' }]);
    const seq2 = new rt2.SequentialAgent({ name: 'seq', subAgents: [a2.agent, b2.agent, c2.agent] });
    const events2 = await collect(new rt2.Runner({ agent: seq2, checkpointStore: carryCheckpoint(store1, 'cp', rt2) }).resume('cp', { targets: { [point.id]: 'yes' } }));

    expect(errorsOf(events2)).toEqual([]);
    expect(events2.some((e) => e.action?.interrupted)).toBe(false);
    expect(a2.model.calls).toHaveLength(0);
    expect(b2.model.calls).toHaveLength(1);
    expect(await contents(events2)).toEqual([expect.stringContaining('answer for call_1: "yes"'), 'two', 'three']);
    expect(paths(events2)).toEqual(['seq/first/second', 'seq/first/second', 'seq/first/second/third']);
    // The third child sees the whole history, restored from the checkpoint.
    expect(c2.model.calls[0].messages.map((m) => m.content)).toEqual([
      'go',
      'For context: [first] said: one.',
      'For context: [second] said: asking. [second] called tool: `ask` with arguments: {}.',
      'For context: [second] `ask` tool returned result: answer for call_1: "yes" (state {"step":"waiting","callId":"call_1"}).',
      'For context: [second] said: two.',
    ]);
  });
});

describe('an interrupt inside Loop', () => {
  it('resumes at the right iteration, keeps the run path, and a later run at the same address starts fresh', async () => {
    const log: ResumeLog = [];
    const rt1 = await loadRuntime();
    const store1 = new rt1.InMemoryCheckpointStore();
    const counter1 = chat(rt1, 'counter', [{ content: 'c0' }, { content: 'c1' }]);
    const asker1 = chat(rt1, 'asker', [{ content: 'a0' }, ask()], log);
    const loop1 = new rt1.LoopAgent({ name: 'loop', subAgents: [counter1.agent, asker1.agent], maxIterations: 3 });
    const events1 = await collect(new rt1.Runner({ agent: loop1, checkpointStore: store1 }).query('go', { checkpointId: 'cp' }));
    expect(errorsOf(events1)).toEqual([]);
    const [p1] = interruptOf(events1).contexts;
    expect(p1.address).toBe('agent:loop;agent:asker;tool:ask:call_1');
    expect(events1.find((e) => e.action?.interrupted)!.runPath).toEqual(['loop', 'counter', 'asker', 'counter', 'asker']);

    // Process 2: iteration 1's asker finishes, iteration 2 runs, and its asker asks again.
    const rt2 = await loadRuntime();
    const store2 = carryCheckpoint(store1, 'cp', rt2);
    const counter2 = chat(rt2, 'counter', [{ content: 'c2' }]);
    const asker2 = chat(rt2, 'asker', [{ content: 'a1' }, ask()], log);
    const loop2 = new rt2.LoopAgent({ name: 'loop', subAgents: [counter2.agent, asker2.agent], maxIterations: 3 });
    const events2 = await collect(new rt2.Runner({ agent: loop2, checkpointStore: store2 }).resume('cp', { targets: { [p1.id]: 'first answer' } }));
    expect(errorsOf(events2)).toEqual([]);
    expect(counter2.model.calls).toHaveLength(1);
    expect(await contents(events2)).toEqual([expect.stringContaining('"first answer"'), 'a1', 'c2', '']);
    expect(paths(events2)).toEqual([
      'loop/counter/asker/counter/asker',
      'loop/counter/asker/counter/asker',
      'loop/counter/asker/counter/asker/counter',
      'loop/counter/asker/counter/asker/counter/asker',
    ]);
    const [p2] = interruptOf(events2).contexts;
    // The model repeats its call id each iteration; adk gives the second call an id of its own.
    expect(p2.address).toMatch(/^agent:loop;agent:asker;tool:ask:call_\w+$/);
    expect(p2.address).not.toBe(p1.address);
    expect(p2.id).not.toBe(p1.id);
    expect(log.at(-1)!.resume.wasInterrupted).toBe(false);
    expect(events2.find((e) => e.action?.interrupted)!.runPath).toEqual(['loop', 'counter', 'asker', 'counter', 'asker', 'counter', 'asker']);

    // Process 3: the last iteration finishes and the loop stops at maxIterations.
    const rt3 = await loadRuntime();
    const counter3 = chat(rt3, 'counter', []);
    const asker3 = chat(rt3, 'asker', [{ content: 'a2' }], log);
    const loop3 = new rt3.LoopAgent({ name: 'loop', subAgents: [counter3.agent, asker3.agent], maxIterations: 3 });
    const events3 = await collect(new rt3.Runner({ agent: loop3, checkpointStore: carryCheckpoint(store2, 'cp', rt3) }).resume('cp', { targets: { [p2.id]: 'second answer' } }));
    expect(errorsOf(events3)).toEqual([]);
    expect(events3.some((e) => e.action?.interrupted)).toBe(false);
    expect(counter3.model.calls).toHaveLength(0);
    expect(await contents(events3)).toEqual([expect.stringContaining('"second answer"'), 'a2']);
  });
});

describe('an interrupt inside Parallel', () => {
  function build(rt: Runtime, scripts: { quick: ScriptStep[]; left: ScriptStep[]; right: ScriptStep[] }, log: ResumeLog) {
    const quick = chat(rt, 'quick', scripts.quick);
    const left = chat(rt, 'left', scripts.left, log);
    const right = chat(rt, 'right', scripts.right, log);
    const par = new rt.ParallelAgent({ name: 'par', subAgents: [quick.agent, left.agent, right.agent] });
    return { quick, left, right, par };
  }

  it('both children interrupt; the finished child is not re-run; resume one, then the other', async () => {
    const log: ResumeLog = [];
    const rt1 = await loadRuntime();
    const store1 = new rt1.InMemoryCheckpointStore();
    const w1 = build(rt1, { quick: [{ content: 'quick done' }], left: [ask('left asks')], right: [ask('right asks')] }, log);
    const events1 = await collect(new rt1.Runner({ agent: w1.par, checkpointStore: store1 }).query('go', { checkpointId: 'cp' }));
    expect(errorsOf(events1)).toEqual([]);
    const pending = interruptOf(events1).contexts;
    const byAgent = Object.fromEntries(pending.map((c) => [c.address.split(';')[1], c]));
    expect(Object.keys(byAgent).sort()).toEqual(['agent:left', 'agent:right']);
    expect(byAgent['agent:left'].address).toBe('agent:par;agent:left;tool:ask:call_1');
    // Both models said call_1: ids are unique in the run, so the second gets adk's own.
    const rightAddress = byAgent['agent:right'].address;
    expect(rightAddress).toMatch(/^agent:par;agent:right;tool:ask:call_\w+$/);
    expect(rightAddress).not.toBe('agent:par;agent:right;tool:ask:call_1');

    const rt2 = await loadRuntime();
    const store2 = carryCheckpoint(store1, 'cp', rt2);
    const w2 = build(rt2, { quick: [], left: [{ content: 'left done' }], right: [] }, log);
    const events2 = await collect(new rt2.Runner({ agent: w2.par, checkpointStore: store2 }).resume('cp', { targets: { [byAgent['agent:left'].id]: 'L' } }));
    expect(errorsOf(events2)).toEqual([]);
    expect(w2.quick.model.calls).toHaveLength(0);
    expect(w2.right.model.calls).toHaveLength(0);
    expect(interruptOf(events2).contexts.map((c) => [c.id, c.address])).toEqual([[byAgent['agent:right'].id, rightAddress]]);
    expect(await contents(events2)).toEqual([expect.stringContaining('"L"'), 'left done']);

    const rt3 = await loadRuntime();
    const w3 = build(rt3, { quick: [], left: [], right: [{ content: 'right done' }] }, log);
    const events3 = await collect(new rt3.Runner({ agent: w3.par, checkpointStore: carryCheckpoint(store2, 'cp', rt3) }).resume('cp', { targets: { [byAgent['agent:right'].id]: 'R' } }));
    expect(errorsOf(events3)).toEqual([]);
    expect(events3.some((e) => e.action?.interrupted)).toBe(false);
    expect(w3.quick.model.calls).toHaveLength(0);
    expect(w3.left.model.calls).toHaveLength(0);
    expect(await contents(events3)).toEqual([expect.stringContaining('"R"'), 'right done']);
    expect(log.filter((l) => l.resume.hasData).map((l) => l.resume.data)).toEqual(['L', 'R']);
  });

  it('after resumes in new processes, the joined history keeps each branch in the order it happened', async () => {
    const log: ResumeLog = [];
    const pipeline = (rt: Runtime, scripts: Parameters<typeof build>[1], summary: ScriptStep[]) => {
      const w = build(rt, scripts, log);
      const sum = chat(rt, 'summary', summary);
      return { ...w, sum, root: new rt.SequentialAgent({ name: 'pipeline', subAgents: [w.par, sum.agent] }) };
    };
    const rt1 = await loadRuntime();
    const store1 = new rt1.InMemoryCheckpointStore();
    const w1 = pipeline(rt1, { quick: [{ content: 'quick done' }], left: [ask('left asks')], right: [ask('right asks')] }, []);
    const pending = interruptOf(await collect(new rt1.Runner({ agent: w1.root, checkpointStore: store1 }).query('go', { checkpointId: 'cp' }))).contexts;
    const idOf = (agent: string) => pending.find((c) => c.address.includes(`agent:${agent};`))!.id;
    expect(pending.map((c) => c.address).sort()).toEqual([
      expect.stringMatching(/^agent:pipeline;agent:par;agent:left;tool:ask:call_\w+$/),
      expect.stringMatching(/^agent:pipeline;agent:par;agent:right;tool:ask:call_\w+$/),
    ]);

    const rt2 = await loadRuntime();
    const store2 = carryCheckpoint(store1, 'cp', rt2);
    const w2 = pipeline(rt2, { quick: [], left: [{ content: 'left done' }], right: [] }, []);
    await collect(new rt2.Runner({ agent: w2.root, checkpointStore: store2 }).resume('cp', { targets: { [idOf('left')]: 'L' } }));

    const rt3 = await loadRuntime();
    const w3 = pipeline(rt3, { quick: [], left: [], right: [{ content: 'right done' }] }, [{ content: 'summary' }]);
    const events3 = await collect(new rt3.Runner({ agent: w3.root, checkpointStore: carryCheckpoint(store2, 'cp', rt3) }).resume('cp', { targets: { [idOf('right')]: 'R' } }));
    expect(errorsOf(events3)).toEqual([]);
    expect(w3.sum.model.calls).toHaveLength(1);
    const seen = w3.sum.model.calls[0].messages.map((m) => m.content);
    expect(seen).toHaveLength(8);
    expect(seen[0]).toBe('go');
    // Within a branch, a tool call comes before its result, and the result before the final answer;
    // and what happened in a later process comes after what happened in an earlier one.
    const at = (text: string) => seen.findIndex((s) => s.includes(text));
    expect(at('[quick] said: quick done')).toBeGreaterThan(0);
    expect(at('[left] said: left asks')).toBeLessThan(at('[left] `ask` tool returned'));
    expect(at('[left] `ask` tool returned')).toBeLessThan(at('[left] said: left done'));
    expect(at('[right] said: right asks')).toBeLessThan(at('[right] `ask` tool returned'));
    expect(at('[right] `ask` tool returned')).toBeLessThan(at('[right] said: right done'));
    expect(at('[right] said: right asks')).toBeLessThan(at('[left] `ask` tool returned'));
    expect(at('[left] said: left done')).toBeLessThan(at('[right] `ask` tool returned'));
  });
});
