import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { setSubAgents } from '../../src/core/agents/flow.js';
import { eventMessage } from '../../src/core/agents/types.js';
import { InMemoryCheckpointStore } from '../../src/core/store/checkpoint-store.js';
import { agentWithDeterministicTransferTo, genTransferMessages } from '../../src/core/prebuilt/deterministic-transfer.js';
import { supervisor } from '../../src/core/prebuilt/supervisor.js';
import { Runner } from '../../src/core/runner.js';
import { defineTool } from '../../src/core/tools/tool.js';
import { chatAgent, collect, describeAll, roles, scriptedAgent, transferTo } from './helpers.js';

const shell = defineTool({
  name: 'shell',
  description: 'runs a command',
  parameters: z.object({ command: z.string() }),
  execute: ({ command }) => `ran ${command}`,
});

describe('genTransferMessages', () => {
  it('builds an assistant transfer call with valid JSON arguments and its tool result', () => {
    const [call, result] = genTransferMessages('Writer');
    expect(call.role).toBe('assistant');
    expect(call.content).toBe('');
    expect(call.toolCalls).toHaveLength(1);
    expect(call.toolCalls![0].function.name).toBe('transfer_to_agent');
    expect(JSON.parse(call.toolCalls![0].function.arguments)).toEqual({ agent_name: 'Writer' });
    expect(result).toEqual({
      role: 'tool',
      content: 'successfully transferred to agent [Writer]',
      toolCallId: call.toolCalls![0].id,
      toolName: 'transfer_to_agent',
    });
  });
});

describe('agentWithDeterministicTransferTo', () => {
  it('appends a transfer to each target after the agent finishes', async () => {
    const inner = scriptedAgent('worker', (emit) => emit({ agentName: '', runPath: [], output: { message: { isStreaming: false, role: 'assistant', message: { role: 'assistant', content: 'work done' } } } }));
    const wrapped = agentWithDeterministicTransferTo({ agent: inner, toAgentNames: ['A', 'B'] });
    expect(wrapped.name).toBe('worker');
    expect(wrapped.type).toBe('DeterministicTransfer');
    expect(wrapped.resume).toBeUndefined();
    const events = await collect(wrapped.run({ messages: [] }));
    const lines = await describeAll(events);
    expect(lines).toEqual([
      ' [] assistant "work done"',
      ' [] assistant calls=transfer_to_agent',
      ' [] tool:transfer_to_agent "successfully transferred to agent [A]" -> transfer:A',
      ' [] assistant calls=transfer_to_agent',
      ' [] tool:transfer_to_agent "successfully transferred to agent [B]" -> transfer:B',
    ]);
    const call = (await eventMessage(events[3]))!.toolCalls![0];
    expect(JSON.parse(call.function.arguments)).toEqual({ agent_name: 'B' });
    expect((await eventMessage(events[4]))!.toolCallId).toBe(call.id);
  });

  it('does not transfer after an interrupt or an error', async () => {
    const endings = [
      { error: new Error('failed') },
      { action: { interrupted: { contexts: [], signal: { id: 'i', address: '', info: {}, isRootCause: true, subs: [] } } } },
    ];
    for (const ending of endings) {
      const inner = scriptedAgent('w', (emit) => emit({ agentName: '', runPath: [], ...ending }));
      const events = await collect(agentWithDeterministicTransferTo({ agent: inner, toAgentNames: ['A'] }).run({ messages: [] }));
      expect(events).toHaveLength(1);
    }
  });

  it('transfers after an exit: only an interrupt (or an error) keeps control (the seed\'s appendTransferAction)', async () => {
    const inner = scriptedAgent('w', (emit) => emit({ agentName: '', runPath: [], action: { exit: true } }));
    const lines = await describeAll(await collect(agentWithDeterministicTransferTo({ agent: inner, toAgentNames: ['A'] }).run({ messages: [] })));
    expect(lines).toEqual([' [] -> exit', ' [] assistant calls=transfer_to_agent', ' [] tool:transfer_to_agent "successfully transferred to agent [A]" -> transfer:A']);
  });
});

describe('supervisor', () => {
  function team() {
    const sup = chatAgent('Sup', [transferTo('Sub1'), transferTo('Sub2'), { content: 'final report' }], { instruction: 'Coordinate.' });
    const sub1 = chatAgent('Sub1', [{ content: 'research done' }], { description: 'Researches.' });
    const sub2 = chatAgent('Sub2', [{ content: 'report written' }], { description: 'Writes.' });
    const agent = supervisor({ supervisor: sup.agent, subAgents: [sub1.agent, sub2.agent] });
    return { sup, sub1, sub2, agent };
  }

  it('runs Supervisor → SubAgent1 → Supervisor → SubAgent2 → Supervisor with transfers in between', async () => {
    const { sup, sub1, sub2, agent } = team();
    expect(agent.name).toBe('Sup');
    expect(agent.type).toBe('Supervisor');
    const events = await collect(new Runner({ agent }).query('Write a report on LLMs.'));
    expect(await describeAll(events)).toEqual([
      'Sup [Sup] assistant calls=transfer_to_agent',
      'Sup [Sup] tool:transfer_to_agent "successfully transferred to agent [Sub1]" -> transfer:Sub1',
      'Sub1 [Sup>Sub1] assistant "research done"',
      'Sub1 [Sup>Sub1] assistant calls=transfer_to_agent',
      'Sub1 [Sup>Sub1] tool:transfer_to_agent "successfully transferred to agent [Sup]" -> transfer:Sup',
      'Sup [Sup>Sub1>Sup] assistant calls=transfer_to_agent',
      'Sup [Sup>Sub1>Sup] tool:transfer_to_agent "successfully transferred to agent [Sub2]" -> transfer:Sub2',
      'Sub2 [Sup>Sub1>Sup>Sub2] assistant "report written"',
      'Sub2 [Sup>Sub1>Sup>Sub2] assistant calls=transfer_to_agent',
      'Sub2 [Sup>Sub1>Sup>Sub2] tool:transfer_to_agent "successfully transferred to agent [Sup]" -> transfer:Sup',
      'Sup [Sup>Sub1>Sup>Sub2>Sup] assistant "final report"',
    ]);
    // Only the supervisor gets the transfer tool; sub-agents hand back automatically.
    expect(sup.model.calls[0].options?.tools?.map((t) => t.name)).toEqual(['transfer_to_agent']);
    expect(sup.model.calls[0].messages[0].content).toContain('- Agent name: Sub1\n  Agent description: Researches.\n- Agent name: Sub2\n  Agent description: Writes.');
    expect(sub1.model.calls[0].options?.tools).toBeUndefined();
    expect(roles(sub1.model.calls[0].messages)).toEqual([
      ['user', 'Write a report on LLMs.'],
      ['user', 'For context: [Sup] called tool: `transfer_to_agent` with arguments: {"agent_name":"Sub1"}.'],
      ['user', 'For context: [Sup] `transfer_to_agent` tool returned result: successfully transferred to agent [Sub1].'],
    ]);
    // Back at the supervisor: the sub-agent's work and its generated transfer, with JSON arguments.
    expect(roles(sup.model.calls[1].messages).slice(-3)).toEqual([
      ['user', 'For context: [Sub1] said: research done.'],
      ['user', 'For context: [Sub1] called tool: `transfer_to_agent` with arguments: {"agent_name":"Sup"}.'],
      ['user', 'For context: [Sub1] `transfer_to_agent` tool returned result: successfully transferred to agent [Sup].'],
    ]);
    expect(sub2.model.calls).toHaveLength(1);
  });

  // A sub-agent's exit hands back to the supervisor (the seed's rule): see routing.test.ts, issue 29 item 5.

  it('a failed sub-agent does not hand back (deliberate change from Eino, issue #782)', async () => {
    const sup = chatAgent('Sup', [transferTo('Sub1'), { content: 'never' }]);
    const sub1 = chatAgent('Sub1', [{ error: new Error('model down') }], { retry: { maxRetries: 0 } });
    const events = await collect(new Runner({ agent: supervisor({ supervisor: sup.agent, subAgents: [sub1.agent] }) }).query('go'));
    expect((await describeAll(events)).slice(2)).toEqual(['Sub1 [Sup>Sub1] error: model down']);
    expect(sup.model.calls).toHaveLength(1);
  });

  it('resumes an interrupted sub-agent and then hands back to the supervisor', async () => {
    const sup = chatAgent('Sup', [transferTo('Ops'), { content: 'summary' }]);
    const ops = chatAgent('Ops', [{ toolCalls: [{ name: 'shell', arguments: { command: 'ls' }, id: 'call_9' }] }, { content: 'listed' }], {
      tools: [shell],
      approval: ['shell'],
    });
    const store = new InMemoryCheckpointStore();
    const runner = new Runner({ agent: supervisor({ supervisor: sup.agent, subAgents: [ops.agent] }), checkpointStore: store });
    const first = await collect(runner.query('list files', { checkpointId: 'cp1' }));
    const interrupt = first[first.length - 1].action?.interrupted;
    expect(interrupt?.contexts.map((c) => c.address)).toEqual(['agent:Sup;agent:Ops;tool:shell:call_9']);

    const rest = await collect(runner.resume('cp1', { targets: { [interrupt!.contexts[0].id]: { approved: true } } }));
    expect(await describeAll(rest)).toEqual([
      'Ops [Sup>Ops] tool:shell "ran ls"',
      'Ops [Sup>Ops] assistant "listed"',
      'Ops [Sup>Ops] assistant calls=transfer_to_agent',
      'Ops [Sup>Ops] tool:transfer_to_agent "successfully transferred to agent [Sup]" -> transfer:Sup',
      'Sup [Sup>Ops>Sup] assistant "summary"',
    ]);
    expect(roles(sup.model.calls[1].messages).slice(-5, -3)).toEqual([
      ['user', 'For context: [Ops] called tool: `shell` with arguments: {"command":"ls"}.'],
      ['user', 'For context: [Ops] `shell` tool returned result: ran ls.'],
    ]);
  });

  it('a sub-agent leading its own team runs with its own history, copied into the supervisor\'s', async () => {
    const top = chatAgent('Top', [transferTo('Mid'), { content: 'top done' }]);
    const mid = chatAgent('Mid', [transferTo('Leaf'), { content: 'mid done' }]);
    const leaf = chatAgent('Leaf', [{ content: 'leaf work', ...transferTo('Mid') }]);
    setSubAgents(mid.agent, [leaf.agent]);
    const events = await collect(new Runner({ agent: supervisor({ supervisor: top.agent, subAgents: [mid.agent] }) }).query('go'));
    const lines = await describeAll(events);
    expect(lines.slice(2)).toEqual([
      'Mid [Top>Mid>Mid] assistant calls=transfer_to_agent',
      'Mid [Top>Mid>Mid] tool:transfer_to_agent "successfully transferred to agent [Leaf]" -> transfer:Leaf',
      'Leaf [Top>Mid>Mid>Leaf] assistant calls=transfer_to_agent "leaf work"',
      'Leaf [Top>Mid>Mid>Leaf] tool:transfer_to_agent "successfully transferred to agent [Mid]" -> transfer:Mid',
      'Mid [Top>Mid>Mid>Leaf>Mid] assistant "mid done"',
      'Mid [Top>Mid] assistant calls=transfer_to_agent',
      'Mid [Top>Mid] tool:transfer_to_agent "successfully transferred to agent [Top]" -> transfer:Top',
      'Top [Top>Mid>Top] assistant "top done"',
    ]);
    // The inner team sees only the root input and its own history, not Top's transfer messages.
    expect(roles(mid.model.calls[0].messages).filter(([r]) => r !== 'system')).toEqual([['user', 'go']]);
    // Top sees everything the team did.
    expect(top.model.calls[1].messages.some((m) => m.content === 'For context: [Leaf] said: leaf work. [Leaf] called tool: `transfer_to_agent` with arguments: {"agent_name":"Mid"}.')).toBe(true);
    expect(top.model.calls[1].messages.some((m) => m.content === 'For context: [Mid] said: mid done.')).toBe(true);
  });

  it('resumes an interrupt inside a nested team, restoring the team\'s own history', async () => {
    const top = chatAgent('Top', [transferTo('Mid'), { content: 'top done' }]);
    const mid = chatAgent('Mid', [transferTo('Leaf'), { content: 'mid done' }]);
    const leaf = chatAgent('Leaf', [{ toolCalls: [{ name: 'shell', arguments: { command: 'ls' }, id: 'call_9' }] }, transferTo('Mid')], {
      tools: [shell],
      approval: ['shell'],
    });
    setSubAgents(mid.agent, [leaf.agent]);
    const store = new InMemoryCheckpointStore();
    const runner = new Runner({ agent: supervisor({ supervisor: top.agent, subAgents: [mid.agent] }), checkpointStore: store });
    const first = await collect(runner.query('go', { checkpointId: 'cp' }));
    const interrupted = first[first.length - 1];
    expect(interrupted.runPath).toEqual(['Top', 'Mid']);
    expect(interrupted.action?.interrupted?.contexts.map((c) => c.address)).toEqual(['agent:Top;agent:Mid;agent:Mid;agent:Leaf;tool:shell:call_9']);

    // Not answered: it interrupts again, with the same id.
    const id = interrupted.action!.interrupted!.contexts[0].id;
    const again = await collect(runner.resume('cp'));
    expect(again[again.length - 1].action?.interrupted?.contexts.map((c) => c.id)).toEqual([id]);

    const rest = await collect(runner.resume('cp', { targets: { [id]: { approved: true } } }));
    expect((await describeAll(rest)).map((l) => l.split(' "')[0])).toEqual([
      'Leaf [Top>Mid>Mid>Leaf] tool:shell',
      'Leaf [Top>Mid>Mid>Leaf] assistant calls=transfer_to_agent',
      'Leaf [Top>Mid>Mid>Leaf] tool:transfer_to_agent',
      'Mid [Top>Mid>Mid>Leaf>Mid] assistant',
      'Mid [Top>Mid] assistant calls=transfer_to_agent',
      'Mid [Top>Mid] tool:transfer_to_agent',
      'Top [Top>Mid>Top] assistant',
    ]);
    // Mid's second call rebuilds its history from the team's restored events, without Top's.
    expect(roles(mid.model.calls[1].messages).filter(([r]) => r !== 'system').map(([, c]) => c.slice(0, 30))).toEqual([
      'go',
      '',
      'successfully transferred to ag',
      'For context: [Leaf] called too',
      'For context: [Leaf] `shell` to',
      'For context: [Leaf] called too',
      'For context: [Leaf] `transfer_',
    ]);
    expect(top.model.calls[1].messages.some((m) => m.content === 'For context: [Leaf] `shell` tool returned result: ran ls.')).toBe(true);
  });
});
