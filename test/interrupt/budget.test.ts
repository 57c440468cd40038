import { describe, expect, it } from 'vitest';
import { BudgetExceededError } from '../../src/core/errors.js';
import { RunBudget } from '../../src/core/agents/run-budget.js';
import type { ScriptStep } from '../../src/core/models/scripted.js';
import { carryCheckpoint, collect, countingTool, errorsOf, interruptOf, loadRuntime, messagesOf } from './helpers.js';

// Issue 44: a budget reached is an interrupt of the agent that reached it, before its next model call:
// its state is saved as a checkpoint; resumed (in a new process) with `{ raise }` it counts on from where
// it stood, with `{ stop: true }` it ends incomplete. Library users get this from `Runner({ budget })`.
const tick = (i: number): ScriptStep => ({ toolCalls: [{ name: 'tick', arguments: {}, id: `t${i}` }] });

async function stopped(script: ScriptStep[], limits: { maxModelCalls: number }) {
  const rt = await loadRuntime();
  const store = new rt.InMemoryCheckpointStore();
  const counts: Record<string, number> = {};
  const model = new rt.ScriptedChatModel(script);
  const agent = new rt.ChatModelAgent({ name: 'a', description: 'd', model, tools: [countingTool('tick', counts)] });
  const budget = new RunBudget(limits);
  const events = await collect(new rt.Runner({ agent, checkpointStore: store }).query('go', { checkpointId: 'cp', budget }));
  return { store, events, budget, counts, model };
}

async function resumed(store: { data: Map<string, string> }, budget: { state(): unknown }, script: ScriptStep[], targets: Record<string, unknown>) {
  const rt = await loadRuntime();
  const next = carryCheckpoint(store, 'cp', rt);
  const model = new rt.ScriptedChatModel(script);
  const counts: Record<string, number> = {};
  const agent = new rt.ChatModelAgent({ name: 'a', description: 'd', model, tools: [countingTool('tick', counts)] });
  // As a session does: the budget's state goes with the checkpoint to the next process.
  const carried = RunBudget.restore(JSON.parse(JSON.stringify(budget.state())));
  const events = await collect(new rt.Runner({ agent, checkpointStore: next }).resume('cp', { targets }, { budget: carried }));
  return { events, model, budget: carried, counts };
}

describe('budget interrupts', () => {
  it('stops before the call past the limit, saying which budget, what was spent and the limit', async () => {
    const { events, counts, model } = await stopped([tick(1), tick(2), tick(3)], { maxModelCalls: 2 });
    expect(errorsOf(events)).toEqual([]);
    expect(model.calls).toHaveLength(2);
    expect(counts.tick).toBe(2);
    const action = interruptOf(events);
    expect(action.contexts).toHaveLength(1);
    expect(action.contexts[0]!.address).toBe('agent:a');
    expect(action.contexts[0]!.info).toMatchObject({ kind: 'budget', budget: { name: 'max_model_calls', spent: 2, limit: 2 }, message: 'budget reached: max_model_calls (2 spent of 2); the run stopped before the next call' });
  });

  it('raised: the run goes on from its saved state and keeps counting; reached again, it stops again', async () => {
    const { store, events, budget } = await stopped([tick(1), tick(2)], { maxModelCalls: 2 });
    const id = interruptOf(events).contexts[0]!.id;
    const next = await resumed(store, budget, [tick(3), tick(4)], { [id]: { raise: { max_model_calls: 4 } } });
    expect(errorsOf(next.events)).toEqual([]);
    expect(next.model.calls).toHaveLength(2);
    // The first request after the raise carries the two earlier calls' results.
    expect(next.model.calls[0]!.messages.filter((m) => m.role === 'tool')).toHaveLength(2);
    expect(next.budget.modelCalls).toBe(4);
    expect(interruptOf(next.events).contexts[0]!.info).toMatchObject({ kind: 'budget', budget: { spent: 4, limit: 4 } });
  });

  it('stop: the run ends with BudgetExceededError (incomplete, reason budget); no call starts', async () => {
    const { store, events, budget } = await stopped([tick(1)], { maxModelCalls: 1 });
    const id = interruptOf(events).contexts[0]!.id;
    const next = await resumed(store, budget, [{ content: 'never' }], { [id]: { stop: true } });
    expect(next.model.calls).toHaveLength(0);
    const [error] = errorsOf(next.events);
    expect(error).toBeInstanceOf(Error);
    expect((error as BudgetExceededError).code).toBe('incomplete');
    expect(error!.message).toContain('budget reached: max_model_calls (1 spent of 1)');
  });

  it('resumed without an answer, it asks again; a raise with a bad figure is refused', async () => {
    const { store, events, budget } = await stopped([tick(1)], { maxModelCalls: 1 });
    const id = interruptOf(events).contexts[0]!.id;
    const again = await resumed(store, budget, [{ content: 'never' }], {});
    expect(again.model.calls).toHaveLength(0);
    expect(interruptOf(again.events).contexts[0]!.info).toMatchObject({ kind: 'budget' });
    // A bad figure (a face let it through) changes nothing: the run stops at the same budget again, still resumable.
    const bad = await resumed(store, budget, [{ content: 'never' }], { [id]: { raise: { max_model_calls: 0 } } });
    expect(errorsOf(bad.events)).toEqual([]);
    expect(bad.model.calls).toHaveLength(0);
    expect(interruptOf(bad.events).contexts[0]!.info).toMatchObject({ kind: 'budget', budget: { limit: 1 } });
    const done = await resumed(store, budget, [{ content: 'finished' }], { [id]: { raise: { max_model_calls: 2 } } });
    expect((await messagesOf(done.events)).at(-1)?.content).toBe('finished');
  });
});
