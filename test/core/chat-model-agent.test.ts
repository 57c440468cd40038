import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ChatModelAgent } from '../../src/core/agents/chat-model-agent.js';
import { eventMessage, type AgentEvent } from '../../src/core/agents/types.js';
import { ScriptedChatModel } from '../../src/core/models/scripted.js';
import { Runner } from '../../src/core/runner.js';
import { createRunContext } from '../../src/core/agents/run-context.js';
import { defineTool } from '../../src/core/tools/tool.js';
import { sleep } from '../../src/core/abort.js';

async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

const delayTool = (name: string, ms: number, log: string[] = []) =>
  defineTool({
    name,
    description: `waits ${ms} ms`,
    parameters: z.object({}),
    async execute() {
      await sleep(ms);
      log.push(name);
      return `${name} done`;
    },
  });

const echo = defineTool({
  name: 'echo',
  description: 'echoes text',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => `echo: ${text}`,
});

describe('ChatModelAgent', () => {
  it('sends the instruction first, then the input messages', async () => {
    const model = new ScriptedChatModel([{ content: 'hi there' }]);
    const agent = new ChatModelAgent({ name: 'a', description: 'd', instruction: 'Be brief.', model });
    const events = await collect(new Runner({ agent }).query('hello'));
    expect(model.calls[0].messages.map((m) => [m.role, m.content])).toEqual([
      ['system', 'Be brief.'],
      ['user', 'hello'],
    ]);
    expect(events).toHaveLength(1);
    expect(events[0].agentName).toBe('a');
    expect(events[0].runPath).toEqual(['a']);
    expect((await eventMessage(events[0]))?.content).toBe('hi there');
  });

  it('fills {Key} placeholders from session values; {{Key}} and braces that name no key (JSON) stay literal', async () => {
    const model = new ScriptedChatModel([{ content: 'ok' }]);
    const agent = new ChatModelAgent({ name: 'a', description: 'd', instruction: 'Today is {Today}. JSON: {"k": 1} {{Literal}} {{Today}}', model });
    await collect(new Runner({ agent }).query('q', { sessionValues: { Today: 'Friday' } }));
    expect(model.calls[0].messages[0].content).toBe('Today is Friday. JSON: {"k": 1} {Literal} {Today}');
  });

  it('a {Key} with no session value fails the run with an error naming the key and the agent (as Eino does)', async () => {
    const model = new ScriptedChatModel([{ content: 'ok' }]);
    const agent = new ChatModelAgent({ name: 'forecaster', description: 'd', instruction: 'Forecast for {city} on {day}.', model });
    const run = new Runner({ agent, tracing: false }).query('q', { sessionValues: { day: 'Monday' } });
    const events = await collect(run);
    const result = await run.result;
    expect(result.status).toBe('error');
    expect(result.error?.message).toMatch(/\{city\}/);
    expect(result.error?.message).toMatch(/'forecaster'/);
    expect(result.error?.message).not.toMatch(/\{day\}/);
    expect(events.filter((e) => e.error)).toHaveLength(1);
    expect(model.calls).toHaveLength(0);
  });

  it("missingPlaceholders: 'keep' leaves a {Key} with no session value as written", async () => {
    const model = new ScriptedChatModel([{ content: 'ok' }]);
    const agent = new ChatModelAgent({ name: 'a', description: 'd', instruction: 'Today is {Today}; {Unknown} stays.', model, missingPlaceholders: 'keep' });
    const result = await new Runner({ agent, tracing: false }).query('q', { sessionValues: { Today: 'Friday' } }).result;
    expect(result.status).toBe('completed');
    expect(model.calls[0].messages[0].content).toBe('Today is Friday; {Unknown} stays.');
  });

  it('stops after maxIterations model calls with "exceeds max iterations"', async () => {
    const loopCall = { toolCalls: [{ name: 'echo', arguments: { text: 'x' } }] };
    const model = new ScriptedChatModel(() => loopCall);
    const agent = new ChatModelAgent({ name: 'a', description: 'd', model, tools: [echo], maxIterations: 3 });
    const events = await collect(new Runner({ agent }).query('go'));
    expect(model.calls).toHaveLength(3);
    const last = events[events.length - 1];
    expect(last.error?.message).toContain('exceeds max iterations');
  });

  it('defaults maxIterations to 20', async () => {
    const model = new ScriptedChatModel(() => ({ toolCalls: [{ name: 'echo', arguments: { text: 'x' } }] }));
    const agent = new ChatModelAgent({ name: 'a', description: 'd', model, tools: [echo] });
    await collect(new Runner({ agent }).query('go'));
    expect(model.calls).toHaveLength(20);
  });

  it('runs tools in parallel and emits their results in completion order', async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: 'slow', arguments: {}, id: 'c1' }, { name: 'fast', arguments: {}, id: 'c2' }] },
      { content: 'both done' },
    ]);
    const agent = new ChatModelAgent({ name: 'a', description: 'd', model, tools: [delayTool('slow', 80), delayTool('fast', 5)] });
    const events = await collect(new Runner({ agent }).query('go'));
    // 'slow' was called first; finishing second shows the calls overlapped.
    const toolEvents = events.filter((e) => e.output?.message?.role === 'tool');
    expect(toolEvents.map((e) => e.output?.message?.toolName)).toEqual(['fast', 'slow']);
    // The model still sees results in call order.
    expect(model.calls[1].messages.filter((m) => m.role === 'tool').map((m) => m.toolCallId)).toEqual(['c1', 'c2']);
  });

  it('emits the return-directly tool event last and ends with its result', async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: 'final', arguments: {}, id: 'c1' }, { name: 'slow', arguments: {}, id: 'c2' }] },
    ]);
    const agent = new ChatModelAgent({
      name: 'a',
      description: 'd',
      model,
      tools: [delayTool('final', 1), delayTool('slow', 40)],
      returnDirectly: ['final'],
      outputKey: 'out',
    });
    const values: Record<string, unknown> = {};
    const runner = new Runner({ agent });
    const events = await collect(runner.run([{ role: 'user', content: 'go' }], { sessionValues: values }));
    const names = events.map((e) => e.output?.message?.toolName ?? e.output?.message?.role);
    expect(names).toEqual(['assistant', 'slow', 'final']);
    expect(model.calls).toHaveLength(1);
  });

  it('the exit tool ends the run with an exit action', async () => {
    const model = new ScriptedChatModel([{ toolCalls: [{ name: 'exit', arguments: { final_result: 'all done' } }] }]);
    const agent = new ChatModelAgent({ name: 'a', description: 'd', model, exit: true });
    const events = await collect(new Runner({ agent }).query('go'));
    const last = events[events.length - 1];
    expect(last.action?.exit).toBe(true);
    expect((await eventMessage(last))?.content).toBe('all done');
    expect(model.calls[0].options?.tools?.map((t) => t.name)).toEqual(['exit']);
  });

  it('outputKey stores the final text in session values', async () => {
    const agent = new ChatModelAgent({ name: 'a', description: 'd', model: new ScriptedChatModel([{ content: 'the answer' }]), outputKey: 'answer' });
    const ctx = createRunContext();
    await collect(agent.run({ messages: [{ role: 'user', content: 'q' }] }, ctx));
    expect(ctx.session.values).toEqual({ answer: 'the answer' });
  });

  it('uses a custom genModelInput', async () => {
    const model = new ScriptedChatModel([{ content: 'ok' }]);
    const agent = new ChatModelAgent({
      name: 'a',
      description: 'd',
      instruction: 'sys',
      model,
      genModelInput: (instruction, input) => [{ role: 'system', content: `custom ${instruction}` }, ...input.messages],
    });
    await collect(new Runner({ agent }).query('q'));
    expect(model.calls[0].messages[0].content).toBe('custom sys');
  });

  it('turns bad tool calls into error results the model sees, and continues', async () => {
    const model = new ScriptedChatModel([
      {
        toolCalls: [
          { name: 'echo', arguments: '{"text": "unterminated', id: 'bad_json' },
          { name: 'echo', arguments: { text: 5 }, id: 'bad_schema' },
          { name: 'nope', arguments: {}, id: 'unknown' },
          { name: 'boom', arguments: {}, id: 'throws' },
          { name: 'echo', arguments: { text: 'fine' }, id: 'good' },
        ],
      },
      { content: 'recovered' },
    ]);
    const boom = defineTool({ name: 'boom', description: 'throws', parameters: z.object({}), execute: () => { throw new Error('kaboom'); } });
    const agent = new ChatModelAgent({ name: 'a', description: 'd', model, tools: [echo, boom] });
    const events = await collect(new Runner({ agent }).query('go'));
    const results = Object.fromEntries(model.calls[1].messages.filter((m) => m.role === 'tool').map((m) => [m.toolCallId, m]));
    expect(results.bad_json.content).toMatch(/not valid JSON/);
    expect(results.bad_schema.content).toMatch(/invalid arguments/);
    expect(results.unknown.content).toMatch(/tool 'nope' does not exist/);
    expect(results.throws.content).toMatch(/kaboom/);
    expect(results.good.content).toBe('echo: fine');
    expect(results.good.isError).toBeUndefined();
    expect(results.throws.isError).toBe(true);
    expect((await eventMessage(events[events.length - 1]))?.content).toBe('recovered');
  });

  it('detects tool calls that come after text in a stream', async () => {
    const model = new ScriptedChatModel([
      { content: 'Let me check that for you. ', toolCalls: [{ name: 'echo', arguments: { text: 'x' } }] },
      { content: 'done' },
    ]);
    const agent = new ChatModelAgent({ name: 'a', description: 'd', model, tools: [echo] });
    const events = await collect(new Runner({ agent, enableStreaming: true }).query('go'));
    expect(events.map((e) => e.output?.message?.role)).toEqual(['assistant', 'tool', 'assistant']);
    expect(events[0].output?.message?.isStreaming).toBe(true);
  });

  it('fires callbacks with agent name and type', async () => {
    const model = new ScriptedChatModel([{ content: 'x' }]);
    const agent = new ChatModelAgent({ name: 'a', description: 'd', model });
    const log: string[] = [];
    await collect(
      new Runner({ agent }).query('q', {
        callbacks: {
          onStart: (i) => log.push(`start ${i.agentName} ${i.agentType} ${i.runPath.join('/')} ${i.input.messages.length}`),
          onEnd: (i) => log.push(`end ${i.agentName}`),
          onError: (i, e) => log.push(`error ${i.agentName} ${e.message}`),
        },
      }),
    );
    expect(log).toEqual(['start a ChatModel a 1', 'end a']);
    const failing = new ChatModelAgent({ name: 'f', description: 'd', model: new ScriptedChatModel([{ error: new Error('nope') }]) });
    await collect(new Runner({ agent: failing }).query('q', { callbacks: { onError: (i, e) => log.push(`error ${i.agentName} ${e.message}`) } }));
    expect(log[2]).toBe('error f nope');
  });
});
