import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentTool } from '../../src/core/agents/agent-tool.js';
import { ChatModelAgent } from '../../src/core/agents/chat-model-agent.js';
import { agentWithOptions, setSubAgents } from '../../src/core/agents/flow.js';
import { SequentialAgent } from '../../src/core/agents/workflow.js';
import { ConfigError } from '../../src/core/errors.js';
import { ScriptedChatModel, type ScriptStep } from '../../src/core/models/scripted.js';
import { deepAgent } from '../../src/core/prebuilt/deep/deep-agent.js';
import { agentWithDeterministicTransferTo } from '../../src/core/prebuilt/deterministic-transfer.js';
import { supervisor } from '../../src/core/prebuilt/supervisor.js';
import { Runner } from '../../src/core/runner.js';
import { InMemoryCheckpointStore } from '../../src/core/store/checkpoint-store.js';
import { defineTool } from '../../src/core/tools/tool.js';
import { chatAgent, collect, describeAll, roles, transferTo } from './helpers.js';

const shell = defineTool({
  name: 'shell',
  description: 'runs a command',
  parameters: z.object({ command: z.string() }),
  execute: ({ command }) => `ran ${command}`,
});

/** A chat agent built without a description (JavaScript callers, or a config that leaves it out). */
const undescribed = (name: string, script = [{ content: 'ok' }]) => {
  const model = new ScriptedChatModel(script);
  return { agent: new ChatModelAgent({ name, model } as any), model };
};
const thrown = (f: () => unknown): unknown => {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
};

describe('issue 29, item 3: a description where a parent routes by it', () => {
  it('a transfer target without a description is a ConfigError naming it, and the prompt never says undefined', async () => {
    const p = chatAgent('P', [{ content: 'ok' }]);
    const s = undescribed('S');
    const e = thrown(() => setSubAgents(p.agent, [s.agent]));
    // Before the fix this built, and P was told "Agent description: undefined".
    if (!e) await collect(new Runner({ agent: p.agent }).query('hi'));
    expect(p.model.calls[0]?.messages[0].content ?? '').not.toContain('undefined');
    expect(e).toBeInstanceOf(ConfigError);
    expect((e as Error).message).toMatch(/^setSubAgents: sub-agent 'S' of 'P' has no description: 'P' reads it to decide when to transfer to 'S'/);
  });

  it('checks every place a parent routes by description, and only those', () => {
    const cases: Array<[string, () => unknown, RegExp | 'works']> = [
      // A chat sub-agent may transfer back to its parent: the parent's description is in its prompt.
      ['parent a chat sub-agent can transfer back to', () => setSubAgents(undescribed('P').agent, [chatAgent('S', []).agent]), /'P' has no description: its sub-agent 'S' reads it to decide when to transfer back/],
      ['parent a sub-agent may not transfer back to', () => setSubAgents(undescribed('P').agent, [agentWithOptions(chatAgent('S', []).agent, { disallowTransferToParent: true })]), 'works'],
      ['supervisor worker', () => supervisor({ supervisor: chatAgent('Sup', []).agent, subAgents: [undescribed('W').agent] }), /^supervisor: sub-agent 'W' has no description: the supervisor 'Sup' reads it/],
      ['supervisor itself', () => supervisor({ supervisor: undescribed('Sup').agent, subAgents: [chatAgent('W', []).agent] }), 'works'],
      ['agent tool', () => agentTool(undescribed('T').agent), /^agentTool 'T': the agent has no description/],
      ['agent tool with its own description', () => agentTool(undescribed('T').agent, { description: 'Looks things up.' }), 'works'],
      ['deep sub-agent', () => deepAgent({ name: 'D', description: 'd', model: new ScriptedChatModel([]), subAgents: [undescribed('H').agent] }), /^deepAgent 'D': sub-agent 'H' has no description/],
      ['workflow children route by nothing', () => new SequentialAgent({ name: 'seq', subAgents: [undescribed('A').agent, undescribed('B').agent] }), 'works'],
      ['empty description', () => setSubAgents(chatAgent('P', []).agent, [chatAgent('S', [], { description: '  ' }).agent]), /sub-agent 'S' of 'P' has no description/],
    ];
    const wrong: string[] = [];
    for (const [label, build, expected] of cases) {
      const e = thrown(build);
      const said = e === undefined ? 'built' : `${(e as Error).name}: ${(e as Error).message}`;
      if (expected === 'works' ? e !== undefined : !(e instanceof ConfigError) || !expected.test(e.message)) wrong.push(`${label}: got ${said}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe('issue 29, item 4: several destinations run in order', () => {
  function team(aScript: ScriptStep[] = [{ content: 'a done' }], aExtra = {}) {
    const x = chatAgent('X', [{ content: 'x done' }]);
    const a = chatAgent('A', aScript, aExtra);
    const b = chatAgent('B', [{ content: 'b done' }]);
    const wrapped = agentWithDeterministicTransferTo({ agent: x.agent, toAgentNames: ['A', 'B'] });
    setSubAgents(wrapped, [a.agent, b.agent].map((s) => agentWithOptions(s, { disallowTransferToParent: true })));
    return { x, a, b, wrapped };
  }

  it('agentWithDeterministicTransferTo with toAgentNames [A, B] runs A, then B', async () => {
    const { a, b, wrapped } = team();
    const events = await collect(new Runner({ agent: wrapped }).query('go'));
    expect(await describeAll(events)).toEqual([
      'X [X] assistant "x done"',
      'X [X] assistant calls=transfer_to_agent',
      'X [X] tool:transfer_to_agent "successfully transferred to agent [A]" -> transfer:A',
      'X [X] assistant calls=transfer_to_agent',
      'X [X] tool:transfer_to_agent "successfully transferred to agent [B]" -> transfer:B',
      'A [X>A] assistant "a done"',
      'B [X>B] assistant "b done"',
    ]);
    expect(a.model.calls).toHaveLength(1);
    // B comes after A and sees A's work.
    expect(roles(b.model.calls[0].messages)).toContainEqual(['user', 'For context: [A] said: a done.']);
  });

  it('a model that calls transfer_to_agent for A and B in one reply runs A, then B', async () => {
    const p = chatAgent('P', [{ toolCalls: [{ name: 'transfer_to_agent', arguments: { agent_name: 'A' } }, { name: 'transfer_to_agent', arguments: { agent_name: 'B' } }] }]);
    const a = chatAgent('A', [{ content: 'a done' }]);
    const b = chatAgent('B', [{ content: 'b done' }]);
    setSubAgents(p.agent, [a.agent, b.agent].map((s) => agentWithOptions(s, { disallowTransferToParent: true })));
    const events = await collect(new Runner({ agent: p.agent }).query('go'));
    expect((await describeAll(events)).slice(-2)).toEqual(['A [P>A] assistant "a done"', 'B [P>B] assistant "b done"']);
  });

  it('an interrupt in A stops before B; resuming A then runs B', async () => {
    const { b, wrapped } = team([{ toolCalls: [{ name: 'shell', arguments: { command: 'ls' }, id: 'c1' }] }, { content: 'a listed' }], { tools: [shell], approval: ['shell'] });
    const runner = new Runner({ agent: wrapped, checkpointStore: new InMemoryCheckpointStore() });
    const first = await collect(runner.query('go', { checkpointId: 'cp' }));
    expect((await describeAll(first)).slice(5)).toEqual(['A [X>A] assistant calls=shell', 'A [X>A] -> interrupted']);
    expect(b.model.calls).toHaveLength(0);
    const last = first[first.length - 1];
    const rest = await collect(runner.resume('cp', { targets: { [last.action!.interrupted!.contexts[0].id]: { approved: true } } }));
    expect(await describeAll(rest)).toEqual(['A [X>A] tool:shell "ran ls"', 'A [X>A] assistant "a listed"', 'B [X>B] assistant "b done"']);
  });
});

describe('issue 29, item 5: exit under a supervisor', () => {
  it("a sub-agent's exit still transfers back to the supervisor", async () => {
    const sup = chatAgent('Sup', [transferTo('Sub1'), { content: 'summary' }]);
    const sub1 = chatAgent('Sub1', [{ toolCalls: [{ name: 'exit', arguments: { final_result: 'all done' } }] }], { exit: true });
    const events = await collect(new Runner({ agent: supervisor({ supervisor: sup.agent, subAgents: [sub1.agent] }) }).query('go'));
    expect((await describeAll(events)).slice(2)).toEqual([
      'Sub1 [Sup>Sub1] assistant calls=exit',
      'Sub1 [Sup>Sub1] tool:exit "all done" -> exit',
      'Sub1 [Sup>Sub1] assistant calls=transfer_to_agent',
      'Sub1 [Sup>Sub1] tool:transfer_to_agent "successfully transferred to agent [Sup]" -> transfer:Sup',
      'Sup [Sup>Sub1>Sup] assistant "summary"',
    ]);
    expect(roles(sup.model.calls[1].messages).slice(-3, -2)).toEqual([['user', 'For context: [Sub1] `exit` tool returned result: all done.']]);
  });

  it('an interrupted sub-agent does not transfer back', async () => {
    const sup = chatAgent('Sup', [transferTo('Ops'), { content: 'never' }]);
    const ops = chatAgent('Ops', [{ toolCalls: [{ name: 'shell', arguments: { command: 'ls' } }] }], { tools: [shell], approval: ['shell'] });
    const events = await collect(new Runner({ agent: supervisor({ supervisor: sup.agent, subAgents: [ops.agent] }) }).query('go'));
    expect(events[events.length - 1].action?.interrupted).toBeDefined();
    expect(sup.model.calls).toHaveLength(1);
  });
});
