import { afterEach, describe, expect, it } from 'vitest';
import { trace, SpanStatusCode } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { z } from 'zod';
import { ChatModelAgent, Runner, ScriptedChatModel, defineTool, setSubAgents, type RunCallbacks } from '../../src/core/index.js';

// Issue 16: callbacks on agent runs, model requests and tool calls, and OpenTelemetry spans after
// the GenAI semantic conventions, captured with the SDK's in-memory exporter.
const usage = (p: number, c: number) => ({ promptTokens: p, completionTokens: c, totalTokens: p + c });
const add = defineTool({ name: 'add', description: 'Adds.', parameters: z.object({ a: z.number(), b: z.number() }), execute: ({ a, b }) => String(a + b) });
const boom = defineTool({ name: 'boom', description: 'Fails.', parameters: z.object({}), execute: () => { throw new Error('kaput'); } });

function team() {
  const helper = new ChatModelAgent({ name: 'helper', description: 'adds', model: new ScriptedChatModel([{ toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }, { name: 'boom', arguments: {} }], usage: usage(12, 3) }, { content: 'It is 5.', usage: usage(30, 4) }]), tools: [add, boom] });
  const root = new ChatModelAgent({ name: 'root', description: 'routes', model: new ScriptedChatModel([{ toolCalls: [{ name: 'transfer_to_agent', arguments: { agent_name: 'helper' } }], usage: usage(5, 1) }]) });
  return setSubAgents(root, [helper]);
}

function setup() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, provider };
}

const byName = (spans: ReadableSpan[], name: string) => spans.filter((s) => s.name === name);
const parentId = (s: ReadableSpan) => s.parentSpanContext?.spanId;

describe('callbacks and tracing (issue 16)', () => {
  afterEach(() => trace.disable());

  it('callbacks see each agent run, model request (with chunks) and tool call, in order', async () => {
    const seen: string[] = [];
    const callbacks: RunCallbacks = {
      onStart: (i) => seen.push(`start ${i.agentName}`),
      onEnd: (i) => seen.push(`end ${i.agentName}`),
      onModelStart: (i) => seen.push(`model ${i.agentName} ${i.model} #${i.attempt}`),
      onModelChunk: () => void (seen.at(-1) !== 'chunk' && seen.push('chunk')),
      onModelEnd: (i, r) => seen.push(`model end ${i.agentName} ${r.usage?.completionTokens}`),
      onToolStart: (i) => seen.push(`tool ${i.tool} ${JSON.stringify(i.arguments)}`),
      onToolEnd: (i, o) => seen.push(`tool end ${i.tool} ${o.isError ? 'error' : o.content}`),
      onToolError: () => {
        throw new Error('an observer that throws changes nothing');
      },
    };
    const r = await new Runner({ agent: team(), enableStreaming: true, tracing: false }).query('2+3?', { callbacks }).result;
    expect(r.finalOutput).toBe('It is 5.');
    expect(seen).toEqual([
      'start root',
      'model root scripted #1',
      'chunk',
      'model end root 1',
      'tool transfer_to_agent {"agent_name":"helper"}',
      'tool end transfer_to_agent successfully transferred to agent [helper]',
      'end root',
      'start helper',
      'model helper scripted #1',
      'chunk',
      'model end helper 3',
      'tool add {"a":2,"b":3}',
      'tool boom {}',
      'tool end add 5',
      'tool end boom error',
      'model helper scripted #1',
      'chunk',
      'model end helper 4',
      'end helper',
    ]);
  });

  it('spans follow the GenAI conventions: invoke_agent > chat and execute_tool, with tokens and errors', async () => {
    const { exporter, provider } = setup();
    trace.setGlobalTracerProvider(provider);
    await new Runner({ agent: team() }).query('2+3?').result;
    const spans = exporter.getFinishedSpans();
    const [root] = byName(spans, 'invoke_agent root');
    const [helper] = byName(spans, 'invoke_agent helper');
    expect(root.attributes).toMatchObject({ 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'root' });
    expect(parentId(helper)).toBe(root.spanContext().spanId);
    const chats = byName(spans, 'chat scripted');
    expect(chats).toHaveLength(3);
    expect(chats.map((s) => [parentId(s), s.attributes['gen_ai.usage.input_tokens'], s.attributes['gen_ai.usage.output_tokens']])).toEqual([
      [root.spanContext().spanId, 5, 1],
      [helper.spanContext().spanId, 12, 3],
      [helper.spanContext().spanId, 30, 4],
    ]);
    expect(chats[0].attributes).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'scripted' });
    const [addSpan] = byName(spans, 'execute_tool add');
    const [boomSpan] = byName(spans, 'execute_tool boom');
    expect(addSpan.attributes).toMatchObject({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'add' });
    expect(parentId(addSpan)).toBe(helper.spanContext().spanId);
    expect(addSpan.status.code).not.toBe(SpanStatusCode.ERROR);
    expect(boomSpan.status.code).toBe(SpanStatusCode.ERROR);
    expect(boomSpan.attributes['error.type']).toBe('tool_error');
    // No message text or tool output in any span.
    expect(JSON.stringify(spans.map((s) => [s.attributes, s.events]))).not.toMatch(/It is 5|kaput|2\+3/);
  });

  it('a failing model call is an error span; tracing: false and an unregistered SDK record nothing', async () => {
    const { exporter, provider } = setup();
    const failing = new ChatModelAgent({ name: 'a', description: 'a', model: new ScriptedChatModel([{ error: Object.assign(new Error('bad request'), { status: 400 }) }]), retry: { maxRetries: 0 } });
    await new Runner({ agent: failing, tracing: { tracer: provider.getTracer('t') } }).query('x').result;
    const chat = byName(exporter.getFinishedSpans(), 'chat scripted')[0];
    expect(chat.status).toMatchObject({ code: SpanStatusCode.ERROR, message: 'bad request' });
    expect(byName(exporter.getFinishedSpans(), 'invoke_agent a')[0].status.code).toBe(SpanStatusCode.ERROR);

    exporter.reset();
    trace.setGlobalTracerProvider(provider);
    await new Runner({ agent: team(), tracing: false }).query('2+3?').result;
    expect(exporter.getFinishedSpans()).toEqual([]);
    trace.disable();
    await new Runner({ agent: team() }).query('2+3?').result;
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});
