import { describe, expect, it } from 'vitest';
import type { ScriptStep } from '../../src/core/models/scripted.js';
import type { Tool } from '../../src/core/tools/tool.js';
import { carryCheckpoint, collect, errorsOf, interruptOf, loadRuntime, messagesOf, toolMessagesSent, type Runtime } from './helpers.js';

/** A shell-like tool that records the arguments it actually ran with. */
function shellTool(ran: unknown[]): Tool {
  return {
    name: 'shell',
    description: 'runs a command',
    parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
    execute(args: { command: string }) {
      ran.push(args);
      return `ran: ${args.command}`;
    },
  };
}

const oneCall: ScriptStep = { content: 'cleaning up', toolCalls: [{ name: 'shell', arguments: { command: 'rm -rf build' }, id: 'call_1' }] };

function build(rt: Runtime, script: ScriptStep[], ran: unknown[]) {
  const model = new rt.ScriptedChatModel(script);
  const agent = new rt.ChatModelAgent({ name: 'a', description: 'd', model, tools: [shellTool(ran)], approval: ['shell'] });
  return { model, agent };
}

/** Runs until the approval interrupt, in its own "process". */
async function interrupted(ran: unknown[], script: ScriptStep[] = [oneCall]) {
  const rt = await loadRuntime();
  const store = new rt.InMemoryCheckpointStore();
  const { agent } = build(rt, script, ran);
  const events = await collect(new rt.Runner({ agent, checkpointStore: store }).query('clean', { checkpointId: 'cp' }));
  return { store, events, action: interruptOf(events) };
}

/** Resumes in a fresh "process" with `targets`. */
async function resumed(store: { data: Map<string, string> }, targets: Record<string, unknown> | undefined, ran: unknown[]) {
  const rt = await loadRuntime();
  const next = carryCheckpoint(store, 'cp', rt);
  const { agent, model } = build(rt, [{ content: 'finished' }], ran);
  const events = await collect(new rt.Runner({ agent, checkpointStore: next }).resume('cp', { targets }));
  return { events, model, store: next };
}

describe('approval', () => {
  it('stops before the tool runs and shows the tool and its arguments', async () => {
    const ran: unknown[] = [];
    const { action, events } = await interrupted(ran);
    expect(ran).toEqual([]);
    expect(errorsOf(events)).toEqual([]);
    expect(action.contexts).toHaveLength(1);
    expect(action.contexts[0].address).toBe('agent:a;tool:shell:call_1');
    // The approval names the call: its id and its command.
    expect(action.contexts[0].info).toEqual({ kind: 'approval', tool: 'shell', callId: 'call_1', arguments: { command: 'rm -rf build' }, message: 'Allow shell: rm -rf build?' });
  });

  it('approved: the tool runs with the model arguments and the model sees its result', async () => {
    const ran: unknown[] = [];
    const { store, action } = await interrupted(ran);
    const { events, model } = await resumed(store, { [action.contexts[0].id]: { approved: true } }, ran);
    expect(errorsOf(events)).toEqual([]);
    expect(ran).toEqual([{ command: 'rm -rf build' }]);
    expect(toolMessagesSent(model, 0).map((m) => [m.content, !!m.isError])).toEqual([['ran: rm -rf build', false]]);
    expect((await messagesOf(events)).at(-1)?.content).toBe('finished');
  });

  it('approved with edited arguments: the tool receives the edited arguments', async () => {
    const ran: unknown[] = [];
    const { store, action } = await interrupted(ran);
    const { events, model } = await resumed(store, { [action.contexts[0].id]: { approved: true, arguments: { command: 'rm -rf build/tmp' } } }, ran);
    expect(errorsOf(events)).toEqual([]);
    expect(ran).toEqual([{ command: 'rm -rf build/tmp' }]);
    // The model is told the person changed the call (issue 15, defect 3).
    expect(toolMessagesSent(model, 0)[0].content).toBe('[The user edited this call before approving it; it ran with {"command":"rm -rf build/tmp"}]\nran: rm -rf build/tmp');
  });

  it('edited arguments that break the schema become an error result, and the tool does not run', async () => {
    const ran: unknown[] = [];
    const { store, action } = await interrupted(ran);
    const { events, model } = await resumed(store, { [action.contexts[0].id]: { approved: true, arguments: { cmd: 1 } } }, ran);
    expect(errorsOf(events)).toEqual([]);
    expect(ran).toEqual([]);
    const [msg] = toolMessagesSent(model, 0);
    expect(msg.isError).toBe(true);
    expect(msg.content).toContain("invalid arguments for 'shell'");
  });

  it('rejected with a reason: the tool does not run and the model sees the reason as its result', async () => {
    const ran: unknown[] = [];
    const { store, action } = await interrupted(ran);
    const { events, model } = await resumed(store, { [action.contexts[0].id]: { approved: false, reason: 'not on a Friday' } }, ran);
    expect(errorsOf(events)).toEqual([]);
    expect(ran).toEqual([]);
    const [msg] = toolMessagesSent(model, 0);
    expect(msg).toMatchObject({ role: 'tool', toolCallId: 'call_1', toolName: 'shell', isError: true });
    expect(msg.content).toContain('not on a Friday');
    // The rejection is also a visible tool result event of the resumed run.
    const shown = (await messagesOf(events)).find((m) => m.role === 'tool');
    expect(shown?.content).toContain('not on a Friday');
  });

  it('rejected without a reason still tells the model', async () => {
    const ran: unknown[] = [];
    const { store, action } = await interrupted(ran);
    const { model } = await resumed(store, { [action.contexts[0].id]: { approved: false } }, ran);
    expect(ran).toEqual([]);
    expect(toolMessagesSent(model, 0)[0].content).toBe('The user rejected this shell call.');
  });

  it.each([
    ['a string', 'yes'],
    ['approved as a string', { approved: 'yes' }],
    ['an empty object', {}],
    ['null', null],
    ['true', true],
  ])('a malformed answer (%s) fails closed: it asks again with the same id and nothing runs', async (_label, answer) => {
    const ran: unknown[] = [];
    const { store, action } = await interrupted(ran);
    const id = action.contexts[0].id;
    const { events, model, store: after } = await resumed(store, { [id]: answer }, ran);
    expect(ran).toEqual([]);
    expect(model.calls).toHaveLength(0);
    expect(interruptOf(events).contexts.map((c) => [c.id, c.address])).toEqual([[id, 'agent:a;tool:shell:call_1']]);
    // And the re-saved checkpoint still accepts a proper answer for that id.
    const { events: done } = await resumed(after, { [id]: { approved: true } }, ran);
    expect(errorsOf(done)).toEqual([]);
    expect(ran).toEqual([{ command: 'rm -rf build' }]);
  });

  it('a resume with no targets asks again and runs nothing', async () => {
    const ran: unknown[] = [];
    const { store, action } = await interrupted(ran);
    const { events, model } = await resumed(store, undefined, ran);
    expect(ran).toEqual([]);
    expect(model.calls).toHaveLength(0);
    expect(interruptOf(events).contexts.map((c) => c.id)).toEqual([action.contexts[0].id]);
  });

  it('each call of a batch has its own decision: approve one, reject the other', async () => {
    const ran: unknown[] = [];
    const two: ScriptStep = {
      toolCalls: [
        { name: 'shell', arguments: { command: 'make' }, id: 'call_1' },
        { name: 'shell', arguments: { command: 'make install' }, id: 'call_2' },
      ],
    };
    const { store, action } = await interrupted(ran, [two]);
    const byCall = Object.fromEntries(action.contexts.map((c) => [c.address.split(':').pop(), c.id]));
    expect(Object.keys(byCall).sort()).toEqual(['call_1', 'call_2']);

    // Approving call_1 alone leaves call_2 pending.
    const first = await resumed(store, { [byCall.call_1]: { approved: true } }, ran);
    expect(ran).toEqual([{ command: 'make' }]);
    expect(interruptOf(first.events).contexts.map((c) => c.id)).toEqual([byCall.call_2]);

    const second = await resumed(first.store, { [byCall.call_2]: { approved: false, reason: 'no installs' } }, ran);
    expect(errorsOf(second.events)).toEqual([]);
    expect(ran).toEqual([{ command: 'make' }]);
    expect(toolMessagesSent(second.model, 0).map((m) => [m.toolCallId, m.content])).toEqual([
      ['call_1', 'ran: make'],
      ['call_2', 'The user rejected this shell call: no installs'],
    ]);
  });
});

describe('approval of a tool that interrupts on its own', () => {
  /** Needs approval, then asks which environment; resumes see its own state, not the approval. */
  function deployTool(log: Array<{ args: unknown; state: unknown; data: unknown }>): Tool {
    return {
      name: 'deploy',
      description: 'deploys',
      parameters: { type: 'object', properties: { app: { type: 'string' } } },
      execute(args: { app: string }, ctx) {
        log.push({ args, state: ctx.resume.state, data: ctx.resume.data });
        if (ctx.resume.isResumeTarget && typeof ctx.resume.data === 'string') return `deployed ${args.app} to ${ctx.resume.data}`;
        return ctx.interrupt({ kind: 'input', message: 'Which environment?' }, { asked: 'env' });
      },
    };
  }
  const build = (rt: Runtime, script: ScriptStep[], log: Array<{ args: unknown; state: unknown; data: unknown }>) => {
    const model = new rt.ScriptedChatModel(script);
    return { model, agent: new rt.ChatModelAgent({ name: 'a', description: 'd', model, tools: [deployTool(log)], approval: ['deploy'] }) };
  };

  it('is not asked for approval again when its own question is answered', async () => {
    const log: Array<{ args: unknown; state: unknown; data: unknown }> = [];
    const rt1 = await loadRuntime();
    const store1 = new rt1.InMemoryCheckpointStore();
    const p1 = build(rt1, [{ toolCalls: [{ name: 'deploy', arguments: { app: 'web' }, id: 'call_1' }] }], log);
    const [approval] = interruptOf(await collect(new rt1.Runner({ agent: p1.agent, checkpointStore: store1 }).query('ship it', { checkpointId: 'cp' }))).contexts;
    expect((approval.info as any).kind).toBe('approval');

    // Approved with edited arguments: the tool runs and asks its own question.
    const rt2 = await loadRuntime();
    const store2 = carryCheckpoint(store1, 'cp', rt2);
    const p2 = build(rt2, [], log);
    const events2 = await collect(new rt2.Runner({ agent: p2.agent, checkpointStore: store2 }).resume('cp', { targets: { [approval.id]: { approved: true, arguments: '{"app":"api"}' } } }));
    const [question] = interruptOf(events2).contexts;
    expect(question.info).toEqual({ kind: 'input', message: 'Which environment?' });
    expect(question.address).toBe('agent:a;tool:deploy:call_1');
    expect(log).toEqual([{ args: { app: 'api' }, state: undefined, data: undefined }]);

    // Answering the question runs the tool with the approved arguments and its own state.
    const rt3 = await loadRuntime();
    const p3 = build(rt3, [{ content: 'shipped' }], log);
    const events3 = await collect(new rt3.Runner({ agent: p3.agent, checkpointStore: carryCheckpoint(store2, 'cp', rt3) }).resume('cp', { targets: { [question.id]: 'prod' } }));
    expect(errorsOf(events3)).toEqual([]);
    expect(events3.some((e) => e.action?.interrupted)).toBe(false);
    expect(log[1]).toEqual({ args: { app: 'api' }, state: { asked: 'env' }, data: 'prod' });
    expect(toolMessagesSent(p3.model, 0).map((m) => m.content)).toEqual(['[The user edited this call before approving it; it ran with {"app":"api"}]\ndeployed api to prod']);
  });
});
