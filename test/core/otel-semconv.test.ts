import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ChatModelAgent, OpenAIChatModel, PROFILES, Runner, defineTool, type ChatModel, type Message } from '../../src/core/index.js';
import { useOpenAIServer, type OpenAITestServer } from '../support/openai-server.js';

// Issue 29 item c: spans carry every Required and Recommended attribute of the OpenTelemetry GenAI
// semantic conventions that adk knows, checked against lists written here from the conventions
// (https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/ "Inference" and "Execute tool
// span"; gen-ai-agent-spans "Invoke agent internal span"; registry names such as
// gen_ai.usage.cache_read.input_tokens and gen_ai.usage.cache_creation.input_tokens).

/** Inference span (`chat {gen_ai.request.model}`, kind CLIENT). */
const CHAT = {
  required: ['gen_ai.operation.name', 'gen_ai.provider.name'],
  // Conditionally required, when they apply: the model asked for, the seed sent, the port of the server, the output type asked for.
  conditionallyRequired: ['gen_ai.request.model', 'gen_ai.request.seed', 'server.port', 'gen_ai.output.type'],
  recommended: [
    'gen_ai.request.max_tokens',
    'gen_ai.request.stop_sequences',
    'gen_ai.request.temperature',
    'gen_ai.request.top_p',
    'gen_ai.response.finish_reasons',
    'gen_ai.response.id',
    'gen_ai.response.model',
    'gen_ai.usage.input_tokens',
    'gen_ai.usage.output_tokens',
    'gen_ai.usage.cache_read.input_tokens',
    'server.address',
  ],
};
/** Execute tool span (`execute_tool {gen_ai.tool.name}`, kind INTERNAL). */
const TOOL = {
  required: ['gen_ai.operation.name'],
  recommended: ['gen_ai.tool.call.id', 'gen_ai.tool.description', 'gen_ai.tool.name', 'gen_ai.tool.type'],
};
/** Invoke agent internal span (`invoke_agent {gen_ai.agent.name}`, kind INTERNAL). */
const AGENT = {
  required: ['gen_ai.operation.name', 'gen_ai.provider.name'],
  conditionallyRequired: ['gen_ai.agent.name', 'gen_ai.request.model', 'gen_ai.output.type'],
  recommended: ['gen_ai.response.finish_reasons', 'gen_ai.usage.input_tokens', 'gen_ai.usage.output_tokens', 'gen_ai.usage.cache_read.input_tokens'],
};
const all = (l: { required: string[]; conditionallyRequired?: string[]; recommended: string[] }) => [...l.required, ...(l.conditionallyRequired ?? []), ...l.recommended];

function missing(span: ReadableSpan, keys: string[]): string[] {
  return keys.filter((k) => span.attributes[k] === undefined);
}

/** A whole chat completion as OpenAI sends it, naming the dated model that answered. */
function completion(n: number, message: object, finish: string, usage: { prompt: number; completion: number; cached?: number }) {
  return {
    id: `chatcmpl-otel-${n}`,
    object: 'chat.completion',
    created: 1,
    model: 'gpt-otel-2024-08-06',
    choices: [{ index: 0, message: { role: 'assistant', refusal: null, ...message }, finish_reason: finish }],
    usage: {
      prompt_tokens: usage.prompt,
      completion_tokens: usage.completion,
      total_tokens: usage.prompt + usage.completion,
      prompt_tokens_details: { cached_tokens: usage.cached ?? 0 },
    },
  };
}

describe('GenAI semantic-convention attributes on every span (issue 29 item c)', () => {
  let server!: OpenAITestServer;
  useOpenAIServer((s) => (server = s));

  it('chat, execute_tool and invoke_agent spans carry every required and recommended attribute that applies', async () => {
    const exporter = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('t');
    const add = defineTool({ name: 'add', description: 'Adds two numbers.', parameters: z.object({ a: z.number(), b: z.number() }), execute: ({ a, b }) => String(a + b) });
    const boom = defineTool({ name: 'boom', description: 'Always fails.', parameters: z.object({}), execute: () => { throw new Error('kaput'); } });
    const model = new OpenAIChatModel({ model: 'gpt-otel', apiKey: 'k', baseURL: server.url, temperature: 0.2, topP: 0.9, maxTokens: 300, seed: 7, stop: ['END'] });
    server.enqueue(
      { json: completion(1, { content: null, tool_calls: [{ id: 'call_add', type: 'function', function: { name: 'add', arguments: '{"a":2,"b":3}' } }, { id: 'call_boom', type: 'function', function: { name: 'boom', arguments: '{}' } }] }, 'tool_calls', { prompt: 120, completion: 30, cached: 100 }) },
      { json: completion(2, { content: '{"sum":5}' }, 'stop', { prompt: 200, completion: 10, cached: 150 }) },
    );
    const agent = new ChatModelAgent({ name: 'calc', description: 'Adds numbers.', model, tools: [add, boom], outputSchema: z.object({ sum: z.number() }) });
    const r = await new Runner({ agent, tracing: { tracer } }).query('2+3?').result;
    expect(r.error?.message).toBeUndefined();

    const spans = exporter.getFinishedSpans();
    const chats = spans.filter((s) => s.name === 'chat gpt-otel');
    const tools = spans.filter((s) => s.name.startsWith('execute_tool '));
    const [invoke] = spans.filter((s) => s.name === 'invoke_agent calc');
    expect(spans.map((s) => s.name).sort()).toEqual(['chat gpt-otel', 'chat gpt-otel', 'execute_tool add', 'execute_tool boom', 'invoke_agent calc']);

    for (const chat of chats) {
      expect(chat.kind).toBe(SpanKind.CLIENT);
      expect(missing(chat, all(CHAT)), chat.name).toEqual([]);
      expect(chat.attributes).toMatchObject({
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'openai',
        'gen_ai.request.model': 'gpt-otel',
        'gen_ai.response.model': 'gpt-otel-2024-08-06',
        'gen_ai.request.temperature': 0.2,
        'gen_ai.request.top_p': 0.9,
        'gen_ai.request.max_tokens': 300,
        'gen_ai.request.seed': 7,
        'gen_ai.request.stop_sequences': ['END'],
        'gen_ai.output.type': 'json',
        'server.address': '127.0.0.1',
        'server.port': server.port,
      });
    }
    expect(chats.map((c) => [c.attributes['gen_ai.response.id'], c.attributes['gen_ai.usage.input_tokens'], c.attributes['gen_ai.usage.output_tokens'], c.attributes['gen_ai.usage.cache_read.input_tokens'], c.attributes['gen_ai.response.finish_reasons']])).toEqual([
      ['chatcmpl-otel-1', 120, 30, 100, ['tool_calls']],
      ['chatcmpl-otel-2', 200, 10, 150, ['stop']],
    ]);

    for (const tool of tools) {
      expect(tool.kind).toBe(SpanKind.INTERNAL);
      expect(missing(tool, all(TOOL)), tool.name).toEqual([]);
      expect(tool.attributes['gen_ai.tool.type']).toBe('function');
    }
    const byTool = Object.fromEntries(tools.map((t) => [t.attributes['gen_ai.tool.name'], t]));
    expect(byTool.add!.attributes).toMatchObject({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.call.id': 'call_add', 'gen_ai.tool.description': 'Adds two numbers.' });
    expect(byTool.boom!.attributes).toMatchObject({ 'gen_ai.tool.call.id': 'call_boom', 'error.type': 'tool_error' });
    expect(byTool.boom!.status.code).toBe(SpanStatusCode.ERROR);

    expect(invoke.kind).toBe(SpanKind.INTERNAL);
    expect(missing(invoke, all(AGENT))).toEqual([]);
    expect(invoke.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.provider.name': 'openai',
      'gen_ai.agent.name': 'calc',
      'gen_ai.request.model': 'gpt-otel',
      'gen_ai.output.type': 'json',
      'gen_ai.usage.input_tokens': 320,
      'gen_ai.usage.output_tokens': 40,
      'gen_ai.usage.cache_read.input_tokens': 250,
      'gen_ai.response.finish_reasons': ['stop'],
    });
    // Streamed, the response's id and model come from the first chunk.
    exporter.reset();
    server.enqueue({ content: '{"sum":7}', usage: { promptTokens: 11, completionTokens: 3 } });
    await new Runner({ agent, enableStreaming: true, tracing: { tracer } }).query('3+4?').result;
    const [streamed] = exporter.getFinishedSpans().filter((s) => s.name === 'chat gpt-otel');
    expect(missing(streamed!, all(CHAT).filter((k) => k !== 'gen_ai.usage.cache_read.input_tokens'))).toEqual([]);
    expect(streamed!.attributes).toMatchObject({ 'gen_ai.response.id': expect.stringMatching(/^chatcmpl-/), 'gen_ai.response.model': 'gpt-otel', 'gen_ai.usage.input_tokens': 11 });

    // Content is opt-in in the conventions: none is recorded.
    expect(JSON.stringify(spans.map((s) => s.attributes))).not.toMatch(/2\+3|kaput|"sum"|gen_ai\.(input|output)\.messages/);
  });

  it('a failing request: error.type is the HTTP status; Anthropic-style cache writes are recorded; Azure is azure.ai.openai', async () => {
    const exporter = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('t');
    server.enqueue({ status: 503, errorMessage: 'overloaded' });
    const azure = new OpenAIChatModel({ model: 'gpt-az', apiKey: 'k', baseURL: `${server.url.replace(/\/v1$/, '')}/openai/deployments/d`, profile: PROFILES.azure });
    const failing = new ChatModelAgent({ name: 'a', description: 'a', model: azure, retry: { maxRetries: 0 } });
    await new Runner({ agent: failing, tracing: { tracer } }).query('x').result;
    const [chat] = exporter.getFinishedSpans().filter((s) => s.name === 'chat gpt-az');
    expect(chat!.attributes).toMatchObject({ 'gen_ai.provider.name': 'azure.ai.openai', 'error.type': '503' });
    expect(chat!.status.code).toBe(SpanStatusCode.ERROR);
    const [agentSpan] = exporter.getFinishedSpans().filter((s) => s.name === 'invoke_agent a');
    expect(agentSpan!.attributes).toMatchObject({ 'gen_ai.provider.name': 'azure.ai.openai', 'error.type': '503' });

    // A model that says it is Anthropic's and reports cache reads and writes.
    exporter.reset();
    const claude: ChatModel = {
      modelName: 'claude-otel',
      telemetry: { provider: 'anthropic', serverAddress: 'api.anthropic.com', serverPort: 443 },
      async generate(_m: Message[], o) {
        o?.onResponseInfo?.({ id: 'msg_1', model: 'claude-otel-20250101' });
        return { role: 'assistant', content: 'hi', finishReason: 'end_turn', usage: { promptTokens: 90, completionTokens: 5, totalTokens: 95, cacheReadTokens: 40, cacheWriteTokens: 30 } };
      },
      async *stream() {},
    };
    await new Runner({ agent: new ChatModelAgent({ name: 'c', description: 'c', model: claude }), tracing: { tracer } }).query('x').result;
    const [c] = exporter.getFinishedSpans().filter((s) => s.name === 'chat claude-otel');
    expect(c!.attributes).toMatchObject({
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.response.id': 'msg_1',
      'gen_ai.response.model': 'claude-otel-20250101',
      'gen_ai.usage.input_tokens': 90,
      'gen_ai.usage.cache_read.input_tokens': 40,
      'gen_ai.usage.cache_creation.input_tokens': 30,
      'server.address': 'api.anthropic.com',
      'server.port': 443,
    });
  });
});
