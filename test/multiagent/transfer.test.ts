import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentWithOptions, setSubAgents } from '../../src/core/agents/flow.js';
import { Runner } from '../../src/core/runner.js';
import { defineTool } from '../../src/core/tools/tool.js';
import { chatAgent, collect, describeAll, roles, transferTo } from './helpers.js';

const lookup = defineTool({
  name: 'lookup',
  description: 'looks a word up',
  parameters: z.object({ word: z.string() }),
  execute: ({ word }) => `${word} means hello`,
});

const TRANSFER_RULES = `

Decision rule:
- If you're best suited for the question according to your description: ANSWER
- If another agent is better according its description: CALL 'transfer_to_agent' function with their agent name

When transferring: OUTPUT ONLY THE FUNCTION CALL`;

describe('transfer between agents', () => {
  it('transfers to a sub-agent and back to the parent, with exact events and rewritten history', async () => {
    const p = chatAgent('P', [
      { toolCalls: [{ name: 'lookup', arguments: { word: 'hola' }, id: 'c1' }] },
      { content: 'Handing over', toolCalls: [{ name: 'transfer_to_agent', arguments: { agent_name: 'S' }, id: 'c2' }] },
      { content: 'final answer' },
    ], { instruction: 'You are P.', tools: [lookup] });
    const s = chatAgent('S', [{ content: 'S looked', ...transferTo('P', 'c3') }], { instruction: 'You are S.' });
    setSubAgents(p.agent, [s.agent]);

    const events = await collect(new Runner({ agent: p.agent }).query('what is hola?'));
    expect(await describeAll(events)).toEqual([
      'P [P] assistant calls=lookup',
      'P [P] tool:lookup "hola means hello"',
      'P [P] assistant calls=transfer_to_agent "Handing over"',
      'P [P] tool:transfer_to_agent "successfully transferred to agent [S]" -> transfer:S',
      'S [P>S] assistant calls=transfer_to_agent "S looked"',
      'S [P>S] tool:transfer_to_agent "successfully transferred to agent [P]" -> transfer:P',
      'P [P>S>P] assistant "final answer"',
    ]);

    // S sees the root input plus P's messages rewritten as context.
    expect(roles(s.model.calls[0].messages)).toEqual([
      ['system', 'You are S.\n\nAvailable other agents: \n- Agent name: P\n  Agent description: P description' + TRANSFER_RULES],
      ['user', 'what is hola?'],
      ['user', 'For context: [P] called tool: `lookup` with arguments: {"word":"hola"}.'],
      ['user', 'For context: [P] `lookup` tool returned result: hola means hello.'],
      ['user', 'For context: [P] said: Handing over. [P] called tool: `transfer_to_agent` with arguments: {"agent_name":"S"}.'],
      ['user', 'For context: [P] `transfer_to_agent` tool returned result: successfully transferred to agent [S].'],
    ]);
    expect(s.model.calls[0].options?.tools?.map((t) => t.name)).toEqual(['transfer_to_agent']);

    // Back in P: its own messages are replayed verbatim (tool calls and results), S's are context.
    const again = p.model.calls[2].messages;
    expect(again.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'tool', 'user', 'user']);
    expect(again[2].toolCalls?.[0]).toMatchObject({ id: 'c1', function: { name: 'lookup' } });
    expect(again[3]).toMatchObject({ role: 'tool', toolCallId: 'c1', content: 'hola means hello' });
    expect(again[5]).toMatchObject({ role: 'tool', toolCallId: 'c2', content: 'successfully transferred to agent [S]' });
    expect(roles(again.slice(6))).toEqual([
      ['user', 'For context: [S] said: S looked. [S] called tool: `transfer_to_agent` with arguments: {"agent_name":"P"}.'],
      ['user', 'For context: [S] `transfer_to_agent` tool returned result: successfully transferred to agent [P].'],
    ]);
  });

  it('gives the exact transfer instruction and tool (leading blank lines when there is no instruction)', async () => {
    const p = chatAgent('P', [{ content: 'ok' }], { instruction: 'You are P.' });
    const q = chatAgent('Q', [{ content: 'ok' }]);
    const s1 = chatAgent('S1', [], { description: 'Finds facts.' });
    const s2 = chatAgent('S2', [], { description: 'Writes prose.' });
    const s3 = chatAgent('S3', []);
    setSubAgents(p.agent, [s1.agent, s2.agent]);
    setSubAgents(q.agent, [s3.agent]);
    await collect(new Runner({ agent: p.agent }).query('hi'));
    await collect(new Runner({ agent: q.agent }).query('hi'));
    expect(p.model.calls[0].messages[0].content).toBe(
      'You are P.\n\nAvailable other agents: \n- Agent name: S1\n  Agent description: Finds facts.\n- Agent name: S2\n  Agent description: Writes prose.' +
        TRANSFER_RULES,
    );
    expect(q.model.calls[0].messages[0].content).toBe(
      '\n\nAvailable other agents: \n- Agent name: S3\n  Agent description: S3 description' + TRANSFER_RULES,
    );
    const tool = p.model.calls[0].options?.tools?.[0];
    expect(tool).toEqual({
      name: 'transfer_to_agent',
      description: 'Transfer the question to another agent.',
      parameters: {
        type: 'object',
        properties: { agent_name: { type: 'string', description: 'the name of the agent to transfer to' } },
        required: ['agent_name'],
      },
    });
  });

  it('reports a transfer to an unknown agent as an error event', async () => {
    const y = chatAgent('y', [transferTo('x')]);
    const z1 = chatAgent('z', []);
    setSubAgents(y.agent, [z1.agent]);
    const events = await collect(new Runner({ agent: y.agent }).query('go'));
    expect(await describeAll(events)).toEqual([
      'y [y] assistant calls=transfer_to_agent',
      'y [y] tool:transfer_to_agent "successfully transferred to agent [x]" -> transfer:x',
      "y [y] error: transfer failed: agent 'x' not found when transferring from 'y'",
    ]);
    expect(z1.model.calls).toHaveLength(0);
  });

  it('disallowTransferToParent leaves the parent out of the instruction and the targets', async () => {
    const p = chatAgent('P', [transferTo('S')]);
    const s = chatAgent('S', [{ content: 'no transfer tool here' }]);
    const t = chatAgent('T', [transferTo('P')], { description: 'has a child' });
    const u = chatAgent('U', []);
    setSubAgents(p.agent, [agentWithOptions(s.agent, { disallowTransferToParent: true }), agentWithOptions(t.agent, { disallowTransferToParent: true })]);
    setSubAgents(t.agent, [u.agent]);

    await collect(new Runner({ agent: p.agent }).query('go'));
    expect(s.model.calls[0].options?.tools).toBeUndefined();
    expect(s.model.calls[0].messages.some((m) => m.content.includes('Available other agents'))).toBe(false);

    // T has its own sub-agent: only U is listed; a transfer to the parent anyway is refused.
    const p2 = chatAgent('P', [transferTo('T')]);
    const t2 = chatAgent('T', [transferTo('P')]);
    const u2 = chatAgent('U', []);
    setSubAgents(p2.agent, [agentWithOptions(t2.agent, { disallowTransferToParent: true })]);
    setSubAgents(t2.agent, [u2.agent]);
    const events = await collect(new Runner({ agent: p2.agent }).query('go'));
    expect(t2.model.calls[0].messages[0].content).toBe('\n\nAvailable other agents: \n- Agent name: U\n  Agent description: U description' + TRANSFER_RULES);
    expect((await describeAll(events)).slice(-1)).toEqual(["T [P>T] error: transfer failed: agent 'P' not found when transferring from 'T'"]);
    expect(p2.model.calls).toHaveLength(1);
  });

  it('an agent may have only one parent', () => {
    const a = chatAgent('A', []);
    const b = chatAgent('B', []);
    const s = chatAgent('S', []);
    setSubAgents(a.agent, [s.agent]);
    expect(() => setSubAgents(b.agent, [s.agent])).toThrow("agent 'S' already has a parent ('A'); an agent may have only one parent");
    expect(() => setSubAgents(a.agent, [b.agent])).toThrow("agent 'A' already has sub-agents");
  });

  it('bounds transfers that go back and forth forever', async () => {
    const p = chatAgent('P', () => transferTo('S'));
    const s = chatAgent('S', () => transferTo('P'));
    setSubAgents(p.agent, [s.agent]);
    const events = await collect(new Runner({ agent: p.agent, maxTransfers: 5 }).query('go'));
    const last = events[events.length - 1];
    expect(last.error?.message).toContain('too many transfers in one run (max 5)');
    expect(p.model.calls.length + s.model.calls.length).toBe(6);
  });
});
