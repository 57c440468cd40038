import { describe, expect, it } from 'vitest';
import { CallIds } from '../../src/core/agents/call-ids.js';
import type { ScriptStep } from '../../src/core/models/scripted.js';
import type { Tool } from '../../src/core/tools/tool.js';
import { carryCheckpoint, collect, errorsOf, interruptOf, loadRuntime, type Runtime } from '../interrupt/helpers.js';

// Issue 11, items 9 and 10 at the library level: a Runner never runs an approved tool twice.
function shellTool(ran: string[], crashAfterRun?: () => Promise<never>): Tool {
  return {
    name: 'shell',
    description: 'runs a command',
    parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
    async execute(args: { command: string }) {
      ran.push(args.command);
      if (crashAfterRun) await crashAfterRun();
      return `ran: ${args.command}`;
    },
  };
}

const oneCall: ScriptStep = { content: '', toolCalls: [{ name: 'shell', arguments: { command: 'deploy' }, id: 'call_1' }] };

function runner(rt: Runtime, store: InstanceType<Runtime['InMemoryCheckpointStore']>, script: ScriptStep[], ran: string[], crash?: () => Promise<never>) {
  const agent = new rt.ChatModelAgent({ name: 'a', description: 'd', model: new rt.ScriptedChatModel(script), tools: [shellTool(ran, crash)], approval: ['shell'] });
  return new rt.Runner({ agent, checkpointStore: store });
}

async function waitingForApproval(ran: string[]) {
  const rt = await loadRuntime();
  const store = new rt.InMemoryCheckpointStore();
  const events = await collect(runner(rt, store, [oneCall], ran).query('go', { checkpointId: 'cp' }));
  return { store, point: interruptOf(events).contexts[0] };
}

describe('Runner.resume of a finished checkpoint (item 10)', () => {
  it('is an error, never a second execution of the approved tool', async () => {
    const ran: string[] = [];
    const { store, point } = await waitingForApproval(ran);
    const rt = await loadRuntime();
    const next = carryCheckpoint(store, 'cp', rt);
    const first = await collect(runner(rt, next, [{ content: 'deployed' }], ran).resume('cp', { targets: { [point.id]: { approved: true } } }));
    expect(errorsOf(first)).toEqual([]);
    expect(ran).toEqual(['deploy']);

    const again = await collect(runner(rt, next, [{ content: 'deployed again' }], ran).resume('cp', { targets: { [point.id]: { approved: true } } }));
    expect(ran).toEqual(['deploy']);
    const [err] = errorsOf(again);
    expect(err).toMatchObject({ code: 'checkpoint_consumed' });
    expect(err.message).toContain('resuming it again would run its tools twice');
  });
});

describe('a crash after an approved tool started (item 9)', () => {
  it('the next resume asks again, marked "may have run"; only an approval of that warning runs it again', async () => {
    const ran: string[] = [];
    const { store, point } = await waitingForApproval(ran);

    // Process 2 runs the approved tool, then dies (its events are never read again) before it saves anything more.
    const rt2 = await loadRuntime();
    const store2 = carryCheckpoint(store, 'cp', rt2);
    let died!: () => void;
    const dead = new Promise<void>((resolve) => (died = resolve));
    const crashed = runner(rt2, store2, [{ content: 'never' }], ran, () => {
      died();
      return new Promise<never>(() => {});
    }).resume('cp', { targets: { [point.id]: { approved: true } } });
    const reading = (async () => {
      for await (const _ of crashed);
    })();
    await dead;
    void reading;
    expect(ran).toEqual(['deploy']);
    expect(JSON.parse(store2.data.get('cp')!).started).toEqual(['agent:a;tool:shell:call_1']);

    // Process 3 replays the same approval: it is not run again, it is asked again with a warning.
    const rt3 = await loadRuntime();
    const store3 = carryCheckpoint(store2, 'cp', rt3);
    const warned = await collect(runner(rt3, store3, [], ran).resume('cp', { targets: { [point.id]: { approved: true } } }));
    expect(ran).toEqual(['deploy']);
    const [again] = interruptOf(warned).contexts;
    expect(again.id).toBe(point.id);
    expect(again.info).toMatchObject({ kind: 'approval', mayHaveRun: true, callId: 'call_1' });
    expect((again.info as { message: string }).message).toContain('may already have run');

    // A grant made ahead of time does not answer a warned call either.
    const rt4 = await loadRuntime();
    const store4 = carryCheckpoint(store3, 'cp', rt4);
    const granted = await collect(runner(rt4, store4, [], ran).resume('cp', {}, { approvalPolicy: { allows: () => true } }));
    expect(ran).toEqual(['deploy']);
    expect(interruptOf(granted).contexts[0].info).toMatchObject({ mayHaveRun: true });

    // The person approves the warning knowingly: it runs once more and the run completes.
    const rt5 = await loadRuntime();
    const store5 = carryCheckpoint(store4, 'cp', rt5);
    const done = await collect(runner(rt5, store5, [{ content: 'deployed' }], ran).resume('cp', { targets: { [point.id]: { approved: true } } }));
    expect(errorsOf(done)).toEqual([]);
    expect(ran).toEqual(['deploy', 'deploy']);
  });
});

describe('CallIds (item 3)', () => {
  it('keeps a new provider id, replaces repeated, empty and missing ones, and never reuses an id of the conversation', () => {
    const ids = new CallIds();
    ids.reserve([{ role: 'assistant', content: '', toolCalls: [{ id: 'old', function: { name: 't', arguments: '{}' } }] }]);
    const assign = ids.streamAssigner();
    const chunks = [
      { toolCalls: [{ index: 0, id: 'dup', function: { name: 'shell', arguments: '' } }] },
      { toolCalls: [{ index: 0, function: { arguments: '{"a":1}' } }] },
      { toolCalls: [{ index: 1, id: 'dup', function: { name: 'shell', arguments: '{}' } }] },
      { toolCalls: [{ index: 2, id: '', function: { name: 'shell', arguments: '{}' } }] },
      { toolCalls: [{ index: 3, function: { name: 'shell', arguments: '{}' } }] },
      { toolCalls: [{ index: 4, id: 'old', function: { name: 'shell', arguments: '{}' } }] },
    ].map(assign);
    const got = chunks.map((c) => c.toolCalls![0].id);
    expect(got[0]).toBe('dup');
    expect(got[1]).toBeUndefined();
    expect(new Set([got[0], got[2], got[3], got[4], got[5], 'old']).size).toBe(6);
    expect(chunks[2].toolCalls![0]).toMatchObject({ providerId: 'dup' });
    expect(chunks[5].toolCalls![0]).toMatchObject({ providerId: 'old' });
    // Ids become parts of interrupt addresses: one that could forge an address is replaced.
    const forged = ids.claim('x;agent:b;tool:shell:y');
    expect(forged).toMatch(/^call_[A-Za-z0-9]{16}$/);
  });
});
