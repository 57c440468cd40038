import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentTool, AGENT_TOOL_PARAMETERS } from '../../src/core/agents/agent-tool.js';
import { toFlowAgent } from '../../src/core/agents/flow.js';
import { createRunContext } from '../../src/core/agents/run-context.js';
import { Session } from '../../src/core/agents/session.js';
import { InMemoryCheckpointStore } from '../../src/core/store/checkpoint-store.js';
import { userMessage } from '../../src/core/schema/message.js';
import { Runner } from '../../src/core/runner.js';
import { defineTool } from '../../src/core/tools/tool.js';
import { chatAgent, collect, describeAll, roles } from './helpers.js';

const shell = defineTool({
  name: 'shell',
  description: 'runs a command',
  parameters: z.object({ command: z.string() }),
  execute: ({ command }) => `ran ${command}`,
});

const callInner = (request: string, id = 'call_1') => ({ toolCalls: [{ name: 'inner', arguments: { request }, id }] });

describe('agentTool', () => {
  it('runs the agent on the request and returns the text of its last event', async () => {
    const inner = chatAgent('inner', [{ content: 'inner answer' }], { instruction: 'You help.', description: 'Answers questions.' });
    const outer = chatAgent('outer', [callInner('what is 2+2?'), { content: 'final' }], { tools: [agentTool(inner.agent)] });
    const events = await collect(new Runner({ agent: outer.agent }).query('go'));
    expect(await describeAll(events)).toEqual([
      'outer [outer] assistant calls=inner',
      'outer [outer] tool:inner "inner answer"',
      'outer [outer] assistant "final"',
    ]);
    expect(outer.model.calls[0].options?.tools).toEqual([{ name: 'inner', description: 'Answers questions.', parameters: AGENT_TOOL_PARAMETERS }]);
    expect(AGENT_TOOL_PARAMETERS).toEqual({
      type: 'object',
      properties: { request: { type: 'string', description: 'request to be processed' } },
      required: ['request'],
    });
    expect(roles(inner.model.calls[0].messages)).toEqual([
      ['system', 'You help.'],
      ['user', 'what is 2+2?'],
    ]);
    // The inner run is not part of the caller's history.
    expect(outer.model.calls[1].messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
  });

  it('forwards internal events with combined run paths [outer, inner, inner2]', async () => {
    const inner2 = chatAgent('inner2', [{ content: 'deepest' }]);
    const inner = chatAgent('inner', [{ toolCalls: [{ name: 'inner2', arguments: { request: 'dig' } }] }, { content: 'inner done' }], {
      tools: [agentTool(inner2.agent, { emitInternalEvents: true })],
    });
    const outer = chatAgent('outer', [callInner('go deep'), { content: 'final' }], { tools: [agentTool(inner.agent, { emitInternalEvents: true })] });
    const events = await collect(new Runner({ agent: outer.agent }).query('go'));
    expect(await describeAll(events)).toEqual([
      'outer [outer] assistant calls=inner',
      'inner [outer>inner] assistant calls=inner2',
      'inner2 [outer>inner>inner2] assistant "deepest"',
      'inner [outer>inner] tool:inner2 "deepest"',
      'inner [outer>inner] assistant "inner done"',
      'outer [outer] tool:inner "inner done"',
      'outer [outer] assistant "final"',
    ]);
    // Forwarded events are not recorded in the caller's history.
    expect(outer.model.calls[1].messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
  });

  it('shares session values with the caller; inner actions never reach the caller', async () => {
    const inner = chatAgent('inner', [{ toolCalls: [{ name: 'exit', arguments: { final_result: 'exit text' } }] }], {
      instruction: 'Topic: {Topic}',
      outputKey: 'InnerResult',
      exit: true,
    });
    const outer = chatAgent('outer', [callInner('go'), { content: 'final' }], { tools: [agentTool(inner.agent, { emitInternalEvents: true })] });
    const ctx = createRunContext({ session: new Session({ Topic: 'cats' }) });
    const events = await collect(toFlowAgent(outer.agent).run({ messages: [userMessage('go')] }, ctx));
    expect(inner.model.calls[0].messages[0].content).toBe('Topic: cats');
    expect(ctx.session.values).toEqual({ Topic: 'cats', InnerResult: 'exit text' });
    // The inner exit is shown but the caller keeps going.
    expect(await describeAll(events)).toEqual([
      'outer [outer] assistant calls=inner',
      'inner [outer>inner] assistant calls=exit',
      'inner [outer>inner] tool:exit "exit text" -> exit',
      'outer [outer] tool:inner "exit text"',
      'outer [outer] assistant "final"',
    ]);
    expect(outer.model.calls).toHaveLength(2);
  });

  it('turns an inner failure into an error result for the caller', async () => {
    const inner = chatAgent('inner', [{ error: new Error('inner model down') }], { retry: { maxRetries: 0 } });
    const outer = chatAgent('outer', [callInner('go'), { content: 'recovered' }], { tools: [agentTool(inner.agent)] });
    const events = await collect(new Runner({ agent: outer.agent }).query('go'));
    const result = outer.model.calls[1].messages[2];
    expect(result).toMatchObject({ role: 'tool', isError: true, content: "Error: tool 'inner' failed: inner model down" });
    expect(await describeAll(events.slice(-1))).toEqual(['outer [outer] assistant "recovered"']);
  });

  it('fullChatHistoryAsInput gives the inner agent the caller conversation as context', async () => {
    const inner = chatAgent('inner', [{ content: 'ok' }]);
    const outer = chatAgent('outer', [{ content: 'thinking', ...callInner('ignored') }, { content: 'done' }], {
      instruction: 'secret system prompt',
      tools: [agentTool(inner.agent, { fullChatHistoryAsInput: true })],
    });
    await collect(new Runner({ agent: outer.agent }).query('hello'));
    const got = inner.model.calls[0].messages;
    expect(roles(got).slice(0, 1)).toEqual([['user', 'hello']]);
    expect(got[1].content).toBe('For context: [outer] called tool: `transfer_to_agent` with arguments: {"agent_name":"inner"}.');
    expect(got[2].content).toBe('For context: [outer] `transfer_to_agent` tool returned result: successfully transferred to agent [inner].');
    expect(got).toHaveLength(3);
  });

  it('an interrupt inside nests its address under the call and resumes the inner agent', async () => {
    const inner = chatAgent('inner', [{ toolCalls: [{ name: 'shell', arguments: { command: 'ls' }, id: 'call_9' }] }, { content: 'listed files' }], {
      tools: [shell],
      approval: ['shell'],
    });
    const outer = chatAgent('outer', [callInner('list'), { content: 'final' }], { tools: [agentTool(inner.agent, { emitInternalEvents: true })] });
    const runner = new Runner({ agent: outer.agent, checkpointStore: new InMemoryCheckpointStore() });
    const first = await collect(runner.query('go', { checkpointId: 'cp' }));
    const interrupted = first[first.length - 1].action!.interrupted!;
    expect(interrupted.contexts.map((c) => [c.address, (c.info as { kind: string }).kind])).toEqual([
      ['agent:outer;tool:inner:call_1;agent:inner;tool:shell:call_9', 'approval'],
    ]);
    expect(inner.model.calls).toHaveLength(1);

    const rest = await collect(runner.resume('cp', { targets: { [interrupted.contexts[0].id]: { approved: true } } }));
    expect(await describeAll(rest)).toEqual([
      'inner [outer>inner] tool:shell "ran ls"',
      'inner [outer>inner] assistant "listed files"',
      'outer [outer] tool:inner "listed files"',
      'outer [outer] assistant "final"',
    ]);
    // The inner agent continued from its saved state rather than starting over.
    expect(inner.model.calls).toHaveLength(2);
    expect(inner.model.calls[1].messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
  });
});
