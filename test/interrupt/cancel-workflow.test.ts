import { describe, expect, it } from 'vitest';
import type { Agent, AgentEvent } from '../../src/core/agents/types.js';
import type { ScriptStep } from '../../src/core/models/scripted.js';
import { carryCheckpoint, checkpointJson, collect, errorsOf, loadRuntime, messagesOf, type Runtime } from './helpers.js';

const slowStream = (text: string): ScriptStep => ({ content: text, chunks: text.split(/(?<= )/), chunkDelayMs: 40 });

function chat(rt: Runtime, name: string, script: ScriptStep[]) {
  const model = new rt.ScriptedChatModel(script);
  return { model, agent: new rt.ChatModelAgent({ name, description: name, model }) };
}

/** Runs `agent` streaming with a checkpoint id, aborting once `when` sees an event. */
async function runAndAbort(rt: Runtime, agent: Agent, when: (e: AgentEvent) => boolean) {
  const store = new rt.InMemoryCheckpointStore();
  const ctrl = new AbortController();
  const events: AgentEvent[] = [];
  for await (const e of new rt.Runner({ agent, checkpointStore: store, enableStreaming: true }).query('go', { checkpointId: 'cp', signal: ctrl.signal })) {
    events.push(e);
    if (!ctrl.signal.aborted && when(e)) ctrl.abort();
  }
  return { store, events };
}

const assistantOf = (name: string) => (e: AgentEvent) => e.agentName === name && e.output?.message?.role === 'assistant';

describe('cancellation inside workflows', () => {
  it('inside Sequential: the checkpoint keeps the sequence, so resume finishes the cancelled child and runs the rest', async () => {
    const rt1 = await loadRuntime();
    const first1 = chat(rt1, 'first', [{ content: 'one' }]);
    const second1 = chat(rt1, 'second', [slowStream('a long second answer')]);
    const third1 = chat(rt1, 'third', []);
    const seq1 = new rt1.SequentialAgent({ name: 'seq', subAgents: [first1.agent, second1.agent, third1.agent] });
    const { store, events } = await runAndAbort(rt1, seq1, assistantOf('second'));

    const interrupt = events.find((e) => e.action?.interrupted)!;
    expect(interrupt.action!.interrupted!.cancelled).toBe(true);
    expect(errorsOf(events).map((e) => e.name)).toEqual(['CancelledError']);
    // The Sequential wrapped the cancellation with its own position.
    const points = Object.values(checkpointJson(store, 'cp').interrupts as Record<string, any>);
    expect(points.find((p) => p.address === 'agent:seq')?.state).toEqual({ interruptIndex: 1 });

    const rt2 = await loadRuntime();
    const first2 = chat(rt2, 'first', []);
    const second2 = chat(rt2, 'second', [{ content: 'two' }]);
    const third2 = chat(rt2, 'third', [{ content: 'three' }]);
    const seq2 = new rt2.SequentialAgent({ name: 'seq', subAgents: [first2.agent, second2.agent, third2.agent] });
    const resumed = await collect(new rt2.Runner({ agent: seq2, checkpointStore: carryCheckpoint(store, 'cp', rt2) }).resume('cp'));
    expect(errorsOf(resumed)).toEqual([]);
    expect(first2.model.calls).toHaveLength(0);
    expect((await messagesOf(resumed)).map((m) => m.content)).toEqual(['two', 'three']);
  });

  it('inside Loop: resume continues the cancelled iteration and the loop goes on', async () => {
    const rt1 = await loadRuntime();
    const w1 = chat(rt1, 'worker', [{ content: 'w0' }, slowStream('w1 is slow')]);
    const loop1 = new rt1.LoopAgent({ name: 'loop', subAgents: [w1.agent], maxIterations: 3 });
    let n = 0;
    const { store, events } = await runAndAbort(rt1, loop1, (e) => assistantOf('worker')(e) && ++n === 2);
    expect(events.find((e) => e.action?.interrupted)?.action?.interrupted?.cancelled).toBe(true);
    const points = Object.values(checkpointJson(store, 'cp').interrupts as Record<string, any>);
    expect(points.find((p) => p.address === 'agent:loop')?.state).toEqual({ iteration: 1, subAgentIndex: 0 });

    const rt2 = await loadRuntime();
    const w2 = chat(rt2, 'worker', [{ content: 'w1' }, { content: 'w2' }]);
    const loop2 = new rt2.LoopAgent({ name: 'loop', subAgents: [w2.agent], maxIterations: 3 });
    const resumed = await collect(new rt2.Runner({ agent: loop2, checkpointStore: carryCheckpoint(store, 'cp', rt2) }).resume('cp'));
    expect(errorsOf(resumed)).toEqual([]);
    expect((await messagesOf(resumed)).map((m) => m.content)).toEqual(['w1', 'w2']);
    expect(resumed.filter((e) => e.output).map((e) => e.runPath.length)).toEqual([3, 4]);
  });

  it('inside Parallel: both cancelled children resume, the finished one is not re-run', async () => {
    const rt1 = await loadRuntime();
    const quick1 = chat(rt1, 'quick', [{ content: 'quick done' }]);
    const left1 = chat(rt1, 'left', [slowStream('left is slow')]);
    const right1 = chat(rt1, 'right', [slowStream('right is slow')]);
    const par1 = new rt1.ParallelAgent({ name: 'par', subAgents: [quick1.agent, left1.agent, right1.agent] });
    const seen = new Set<string>();
    const { store, events } = await runAndAbort(rt1, par1, (e) => {
      if (assistantOf('left')(e) || assistantOf('right')(e)) seen.add(e.agentName);
      return seen.size === 2;
    });
    const interrupt = events.find((e) => e.action?.interrupted)!;
    expect(interrupt.action!.interrupted!.cancelled).toBe(true);
    expect(interrupt.action!.interrupted!.contexts.map((c) => c.address).sort()).toEqual(['agent:par;agent:left', 'agent:par;agent:right']);
    expect(interrupt.action!.interrupted!.contexts.every((c) => c.cancelled)).toBe(true);

    const rt2 = await loadRuntime();
    const quick2 = chat(rt2, 'quick', []);
    const left2 = chat(rt2, 'left', [{ content: 'left done' }]);
    const right2 = chat(rt2, 'right', [{ content: 'right done' }]);
    const par2 = new rt2.ParallelAgent({ name: 'par', subAgents: [quick2.agent, left2.agent, right2.agent] });
    const resumed = await collect(new rt2.Runner({ agent: par2, checkpointStore: carryCheckpoint(store, 'cp', rt2) }).resume('cp'));
    expect(errorsOf(resumed)).toEqual([]);
    expect(resumed.some((e) => e.action?.interrupted)).toBe(false);
    expect(quick2.model.calls).toHaveLength(0);
    expect((await messagesOf(resumed)).map((m) => m.content).sort()).toEqual(['left done', 'right done']);
  });
});
