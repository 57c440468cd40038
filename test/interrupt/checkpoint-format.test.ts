import { describe, expect, it } from 'vitest';
import type { ScriptStep } from '../../src/core/models/scripted.js';
import { askingTool, carryCheckpoint, checkpointJson, collect, errorsOf, interruptOf, loadRuntime, messagesOf, type Runtime } from './helpers.js';

const ask: ScriptStep = { content: 'asking', toolCalls: [{ name: 'ask', arguments: { x: 1 }, id: 'call_1' }] };

function pipeline(rt: Runtime, first: ScriptStep[], second: ScriptStep[]) {
  const a = new rt.ChatModelAgent({ name: 'first', description: 'd', model: new rt.ScriptedChatModel(first), outputKey: 'draft' });
  const b = new rt.ChatModelAgent({
    name: 'second',
    description: 'd',
    instruction: 'Today is {Today}.',
    model: new rt.ScriptedChatModel(second),
    tools: [askingTool('ask', 'custom', [])],
  });
  return new rt.SequentialAgent({ name: 'seq', subAgents: [a, b] });
}

async function interruptedCheckpoint(enableStreaming = false) {
  const rt = await loadRuntime();
  const store = new rt.InMemoryCheckpointStore();
  const runner = new rt.Runner({ agent: pipeline(rt, [{ content: 'a draft' }], [ask]), checkpointStore: store, enableStreaming });
  const events = await collect(runner.query('write it', { checkpointId: 'cp', sessionValues: { Today: 'Friday' } }));
  return { rt, store, events, cp: checkpointJson(store, 'cp') };
}

describe('checkpoint format', () => {
  it('is versioned JSON with the root input, session values and events, run path, and every point with its state', async () => {
    const { cp, events } = await interruptedCheckpoint();
    const action = interruptOf(events);
    expect(cp.version).toBe(1);
    expect(cp.rootInput).toEqual({ messages: [{ role: 'user', content: 'write it' }] });
    expect(cp.enableStreaming).toBe(false);
    expect(cp.runPath).toEqual(['seq', 'first', 'second']);
    expect(cp.session.values).toEqual({ Today: 'Friday', draft: 'a draft' });
    expect(typeof cp.createdAt).toBe('string');
    // Recorded messages, materialized; the interrupt itself is never recorded.
    expect(cp.session.events.map((e: any) => [e.agentName, e.role, e.message.content])).toEqual([
      ['first', 'assistant', 'a draft'],
      ['second', 'assistant', 'asking'],
    ]);
    expect(cp.session.events[1].runPath).toEqual(['seq', 'first', 'second']);

    const points = Object.entries(cp.interrupts as Record<string, any>);
    const at = (address: string) => points.find(([, p]) => p.address === address);
    const [toolId, tool] = at('agent:seq;agent:second;tool:ask:call_1')!;
    expect(toolId).toBe(action.contexts[0].id);
    expect(tool).toMatchObject({ isRootCause: true, info: { kind: 'custom', message: 'ask needs a person' }, state: { step: 'waiting', callId: 'call_1' } });
    const agent = at('agent:seq;agent:second')![1];
    expect(agent.isRootCause).toBe(false);
    // The ReAct state: the messages so far (with the filled instruction) and the in-flight batch.
    expect(agent.state.messages.map((m: any) => [m.role, m.content])).toEqual([
      ['system', 'Today is Friday.'],
      ['user', 'write it'],
      ['user', 'For context: [first] said: a draft.'],
      ['assistant', 'asking'],
    ]);
    expect(agent.state.done).toEqual({});
    expect(agent.state.remainingIterations).toBe(19);
    expect(at('agent:seq')![1]).toMatchObject({ isRootCause: false, state: { interruptIndex: 1 } });
    expect(points).toHaveLength(3);
  });

  it('stores streamed messages as plain text, and a resume streams because the checkpoint did', async () => {
    const { store, cp, events } = await interruptedCheckpoint(true);
    expect(cp.enableStreaming).toBe(true);
    expect(cp.session.events.every((e: any) => e.stream === undefined && typeof e.message.content === 'string')).toBe(true);
    expect(cp.session.events.map((e: any) => e.message.content)).toEqual(['a draft', 'asking']);

    const rt2 = await loadRuntime();
    const runner = new rt2.Runner({ agent: pipeline(rt2, [], [{ content: 'final text' }]), checkpointStore: carryCheckpoint(store, 'cp', rt2) });
    const resumed = await collect(runner.resume('cp', { targets: { [interruptOf(events).contexts[0].id]: 'go' } }));
    expect(errorsOf(resumed)).toEqual([]);
    const final = resumed.filter((e) => e.output?.message?.role === 'assistant');
    expect(final.map((e) => e.output!.message!.isStreaming)).toEqual([true]);
    expect((await messagesOf(final))[0].content).toBe('final text');
  });

  it.each([
    ['an unknown version', (cp: any) => JSON.stringify({ ...cp, version: 2 }), 'checkpoint_version', /checkpoint cp has version 2; this adk reads version 1/],
    ['corrupt JSON', (cp: any) => JSON.stringify(cp).slice(0, 40), 'checkpoint_corrupt', /checkpoint cp is corrupt: /],
    ['a record that is not an object', () => 'null', 'checkpoint_corrupt', /checkpoint cp is corrupt: not an object/],
    ['a JSON array', () => '[]', 'checkpoint_corrupt', /checkpoint cp is corrupt: not an object/],
    ['a record without a version', (cp: any) => JSON.stringify({ ...cp, version: undefined }), 'checkpoint_corrupt', /checkpoint cp is corrupt: it has no version/],
    ['missing fields', (cp: any) => JSON.stringify({ ...cp, session: undefined }), 'checkpoint_corrupt', /checkpoint cp is corrupt: missing fields/],
  ])('%s gives a CheckpointError with a clear message', async (_label, damage, code, message) => {
    const { cp } = await interruptedCheckpoint();
    const rt = await loadRuntime();
    const text = damage(cp);
    let thrown: unknown;
    try {
      rt.parseCheckpoint('cp', text);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(rt.CheckpointError);
    expect(thrown).toMatchObject({ code, checkpointId: 'cp' });
    expect((thrown as Error).message).toMatch(message);

    // Through the Runner: one error event, no crash.
    const store = new rt.InMemoryCheckpointStore();
    await store.set('cp', text);
    const events = await collect(new rt.Runner({ agent: pipeline(rt, [], []), checkpointStore: store }).resume('cp'));
    expect(events).toHaveLength(1);
    expect(events[0].error).toBeInstanceOf(rt.CheckpointError);
    expect(events[0].error!.message).toMatch(message);
  });

  it('resuming a missing id gives a clear error event', async () => {
    const rt = await loadRuntime();
    const events = await collect(new rt.Runner({ agent: pipeline(rt, [], []), checkpointStore: new rt.InMemoryCheckpointStore() }).resume('nope'));
    expect(events).toHaveLength(1);
    expect(events[0].error).toBeInstanceOf(rt.CheckpointError);
    expect(events[0].error).toMatchObject({ code: 'checkpoint_not_found', message: 'checkpoint nope does not exist' });
    expect(events[0].agentName).toBe('seq');
  });

  it('resuming without a store gives a clear error event', async () => {
    const rt = await loadRuntime();
    const events = await collect(new rt.Runner({ agent: pipeline(rt, [], []) }).resume('cp'));
    expect(events.map((e) => e.error?.message)).toEqual(['failed to resume: no checkpoint store configured']);
  });

  it('a store that fails to save gives an error event after the interrupt', async () => {
    const rt = await loadRuntime();
    const store = { get: async () => undefined, set: async () => Promise.reject(new Error('disk full')) };
    const events = await collect(new rt.Runner({ agent: pipeline(rt, [{ content: 'x' }], [ask]), checkpointStore: store }).query('q', { checkpointId: 'cp', sessionValues: { Today: 'Friday' } }));
    expect(events.at(-2)?.action?.interrupted).toBeDefined();
    expect(events.at(-1)?.error?.message).toBe('failed to save checkpoint: disk full');
  });

  it('without a checkpoint id nothing is saved, but the interrupt is still shown', async () => {
    const rt = await loadRuntime();
    const store = new rt.InMemoryCheckpointStore();
    const events = await collect(new rt.Runner({ agent: pipeline(rt, [{ content: 'x' }], [ask]), checkpointStore: store }).query('q', { sessionValues: { Today: 'Friday' } }));
    expect(interruptOf(events).contexts).toHaveLength(1);
    expect(store.data.size).toBe(0);
  });
});
