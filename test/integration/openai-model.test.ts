import { describe, expect, it } from 'vitest';
import { ChatModelAgent } from '../../src/core/agents/chat-model-agent.js';
import { createRunContext } from '../../src/core/agents/run-context.js';
import { eventMessage, type AgentEvent } from '../../src/core/agents/types.js';
import { OpenAIChatModel, type OpenAIChatModelOptions } from '../../src/core/models/openai.js';
import { concatChunks } from '../../src/core/schema/concat.js';
import { assistantMessage, systemMessage, toolMessage, userMessage, type MessageChunk } from '../../src/core/schema/message.js';
import { useOpenAIServer, type OpenAITestServer } from '../support/openai-server.js';

let server: OpenAITestServer;
useOpenAIServer((s) => (server = s));

const model = (o: Partial<OpenAIChatModelOptions> = {}) =>
  new OpenAIChatModel({ model: 'test-model', apiKey: 'sk-test-key', baseURL: server.url, ...o });

async function collect(it: AsyncIterable<MessageChunk>): Promise<MessageChunk[]> {
  const out: MessageChunk[] = [];
  for await (const c of it) out.push(c);
  return out;
}

describe('OpenAIChatModel over real HTTP', () => {
  it('streams text in several chunks that concatenate to the full text', async () => {
    const text = 'Hello there! Streaming works over real SSE.';
    server.enqueue({ content: text, chunkSize: 4 });
    const chunks = await collect(model().stream([userMessage('hi')]));
    const textChunks = chunks.filter((c) => c.content);
    expect(textChunks.length).toBe(Math.ceil(text.length / 4));
    expect(textChunks.map((c) => c.content).join('')).toBe(text);
    const msg = concatChunks(chunks);
    expect(msg).toMatchObject({ role: 'assistant', content: text, finishReason: 'stop' });
    const body = server.chatRequests[0].body;
    expect(body).toMatchObject({ model: 'test-model', stream: true, stream_options: { include_usage: true } });
  });

  it('generates without streaming', async () => {
    server.enqueue({ content: 'whole answer', usage: { promptTokens: 3, completionTokens: 2 } });
    const msg = await model().generate([userMessage('hi')]);
    expect(msg).toEqual({
      role: 'assistant',
      content: 'whole answer',
      finishReason: 'stop',
      usage: { promptTokens: 3, completionTokens: 2, totalTokens: 5 },
    });
    expect(server.chatRequests[0].body.stream).toBeFalsy();
  });

  it('streams two parallel tool calls with interleaved, fragmented arguments', async () => {
    const weather = { city: 'Paris', unit: 'celsius', days: 3 };
    const time = { timezone: 'Europe/Paris' };
    server.enqueue({ toolCalls: [{ id: 'call_w', name: 'get_weather', arguments: weather }, { id: 'call_t', name: 'get_time', arguments: time }] });
    const chunks = await collect(model().stream([userMessage('weather and time?')]));
    const deltas = chunks.flatMap((c) => c.toolCalls ?? []);
    // Name and id come first; the rest are argument fragments only.
    expect(deltas.filter((d) => d.id).map((d) => [d.index, d.id, d.function?.name])).toEqual([
      [0, 'call_w', 'get_weather'],
      [1, 'call_t', 'get_time'],
    ]);
    const order = deltas.filter((d) => d.function?.arguments).map((d) => d.index);
    expect(order.indexOf(1)).toBeLessThan(order.lastIndexOf(0)); // interleaved, not one after the other
    expect(deltas.filter((d) => d.index === 0 && d.function?.arguments).length).toBeGreaterThan(3);
    const msg = concatChunks(chunks);
    expect(msg.finishReason).toBe('tool_calls');
    expect(msg.toolCalls?.map((c) => [c.id, c.function.name, JSON.parse(c.function.arguments)])).toEqual([
      ['call_w', 'get_weather', weather],
      ['call_t', 'get_time', time],
    ]);
  });

  it('returns tool calls from a non-streaming request', async () => {
    server.enqueue({ toolCalls: [{ name: 'lookup', arguments: { q: 'x' } }] });
    const msg = await model().generate([userMessage('q')]);
    expect(msg.content).toBe('');
    expect(msg.finishReason).toBe('tool_calls');
    expect(msg.toolCalls).toEqual([{ id: 'call_0_0', index: 0, function: { name: 'lookup', arguments: '{"q":"x"}' } }]);
  });

  it('maps reasoning_content to reasoningContent, streamed and whole', async () => {
    server.enqueue({ reasoning: 'First, think it through.', content: '42' }, { reasoning: 'Quietly.', content: 'ok' });
    const chunks = await collect(model().stream([userMessage('meaning?')]));
    expect(chunks.filter((c) => c.reasoningContent).length).toBeGreaterThan(1);
    expect(concatChunks(chunks)).toMatchObject({ reasoningContent: 'First, think it through.', content: '42' });
    expect(await model().generate([userMessage('again')])).toMatchObject({ reasoningContent: 'Quietly.', content: 'ok' });
  });

  it('reports usage from the final usage chunk', async () => {
    server.enqueue({ content: 'counted', usage: { promptTokens: 11, completionTokens: 7, totalTokens: 18 } });
    const chunks = await collect(model().stream([userMessage('count')]));
    const last = chunks[chunks.length - 1];
    expect(last).toEqual({ usage: { promptTokens: 11, completionTokens: 7, totalTokens: 18 } });
    expect(concatChunks(chunks).usage).toEqual({ promptTokens: 11, completionTokens: 7, totalTokens: 18 });
  });

  it('maps messages, tools and tool choice into the request body', async () => {
    server.enqueue({ content: 'done' });
    const history = [
      systemMessage('be brief'),
      userMessage('weather?'),
      assistantMessage('', [
        { id: 'c1', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
        { id: 'c2', function: { name: 'get_weather', arguments: '{"city": "Ber' } },
      ]),
      toolMessage('sunny', 'c1', 'get_weather'),
      toolMessage('error: invalid arguments', 'c2', 'get_weather'),
    ];
    const tools = [{ name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }];
    await collect(
      model({ temperature: 0.2, maxTokens: 100, extraHeaders: { 'x-team': 'adk' } }).stream(history, {
        tools,
        toolChoice: { name: 'get_weather' },
      }),
    );
    const req = server.chatRequests[0];
    expect(req.headers.authorization).toBe('Bearer sk-test-key');
    expect(req.headers['x-team']).toBe('adk');
    expect(req.body).toMatchObject({ temperature: 0.2, max_tokens: 100 });
    expect(req.body.messages).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'weather?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
          // Malformed arguments from the model are sent back as {} so strict servers accept the history.
          { id: 'c2', type: 'function', function: { name: 'get_weather', arguments: '{}' } },
        ],
      },
      { role: 'tool', content: 'sunny', tool_call_id: 'c1' },
      { role: 'tool', content: 'error: invalid arguments', tool_call_id: 'c2' },
    ]);
    expect(req.body.tools).toEqual([{ type: 'function', function: tools[0] }]);
    expect(req.body.tool_choice).toEqual({ type: 'function', function: { name: 'get_weather' } });
  });

  it('maps string tool choices and sends no tool_choice without tools', async () => {
    server.enqueue({ content: 'a' }, { content: 'b' });
    const tools = [{ name: 't', description: 'd', parameters: { type: 'object', properties: {} } }];
    await model().generate([userMessage('x')], { tools, toolChoice: 'required' });
    await model().generate([userMessage('x')], { toolChoice: 'none' });
    expect(server.chatRequests[0].body.tool_choice).toBe('required');
    expect(server.chatRequests[1].body).not.toHaveProperty('tool_choice');
    expect(server.chatRequests[1].body).not.toHaveProperty('tools');
  });

  it('sends no Authorization header when no key is given', async () => {
    server.enqueue({ content: 'local' });
    const msg = await model({ apiKey: undefined }).generate([userMessage('x')]);
    expect(msg.content).toBe('local');
    expect(server.chatRequests[0].headers.authorization).toBeUndefined();
  });

  it('treats tool arguments that never close as data, not as an error', async () => {
    server.enqueue({ toolCalls: [{ name: 'write', arguments: { path: 'a.txt', text: 'hello' } }], unclosedToolArgs: true });
    const msg = concatChunks(await collect(model().stream([userMessage('x')])));
    expect(msg.finishReason).toBe('tool_calls');
    expect(msg.toolCalls?.[0].function.arguments).toBe('{"path":"a.txt","text":"hello"');
    expect(() => JSON.parse(msg.toolCalls![0].function.arguments)).toThrow();
  });

  it('stops the HTTP request when the consumer stops reading', async () => {
    server.enqueue({ content: 'x'.repeat(300), chunkSize: 1, chunkDelayMs: 5 });
    for await (const c of model().stream([userMessage('x')])) {
      if (c.content) break;
    }
    await server.waitForAborted(1);
    expect(server.chatRequests[0].aborted).toBe(true);
  });
});

describe('OpenAI-compatible server quirks', () => {
  const chunk = (delta: object, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

  it('keeps a stream alive through SSE comments longer than the idle timeout', async () => {
    const pings = Array.from({ length: 8 }, () => ': keep-alive\n\n');
    server.enqueue({ sse: [chunk({ role: 'assistant' }), ...pings, chunk({ content: 'late' }), chunk({}, 'stop'), 'data: [DONE]\n\n'], chunkDelayMs: 50 });
    const msg = concatChunks(await collect(model({ idleTimeoutMs: 200 }).stream([userMessage('x')])));
    expect(msg).toMatchObject({ content: 'late', finishReason: 'stop' });
  });

  it('accepts a stream that ends with [DONE] but no finish_reason', async () => {
    server.enqueue({ sse: [chunk({ role: 'assistant', content: 'no finish' }), 'data: [DONE]\n\n'] });
    expect(concatChunks(await collect(model().stream([userMessage('x')]))).content).toBe('no finish');
  });

  it('serves a JSON answer to a streaming request as one chunk', async () => {
    server.enqueue({
      json: { id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'not streamed' }, finish_reason: 'stop' }] },
    });
    const chunks = await collect(model().stream([userMessage('x')]));
    expect(chunks).toHaveLength(1);
    expect(concatChunks(chunks)).toMatchObject({ content: 'not streamed', finishReason: 'stop' });
  });

  it('maps an error event inside the stream to a typed error', async () => {
    server.enqueue({ sse: [chunk({ role: 'assistant' }), `data: ${JSON.stringify({ error: { message: 'Provider overloaded', code: 502 } })}\n\n`] });
    await expect(collect(model().stream([userMessage('x')]))).rejects.toMatchObject({
      name: 'ModelHttpError',
      status: 502,
      message: 'model request failed with HTTP 502: Provider overloaded',
    });
    server.enqueue({ sse: [`data: ${JSON.stringify({ error: { message: 'something odd', type: 'server_error' } })}\n\n`] });
    await expect(collect(model().stream([userMessage('x')]))).rejects.toMatchObject({ name: 'ModelConnectionError', retryable: true });
  });
});

describe('ChatModelAgent through OpenAIChatModel', () => {
  async function run(agent: ChatModelAgent): Promise<{ events: AgentEvent[]; texts: string[]; errors: Error[] }> {
    const events: AgentEvent[] = [];
    const texts: string[] = [];
    const errors: Error[] = [];
    for await (const e of agent.run({ messages: [userMessage('hello')] }, createRunContext({ enableStreaming: true }))) {
      events.push(e);
      if (e.error) errors.push(e.error);
      if (e.output?.message) {
        try {
          texts.push((await eventMessage(e))?.content ?? '');
        } catch (err) {
          texts.push(`<failed: ${(err as Error).name}>`);
        }
      }
    }
    return { events, texts, errors };
  }

  it('retries 500, 500 and then shows the answer', async () => {
    server.enqueue({ status: 500, errorMessage: 'upstream exploded' }, { status: 500 }, { content: 'third time lucky' });
    const agent = new ChatModelAgent({ name: 'a', description: 'test', model: model(), retry: { baseDelayMs: 10 } });
    const { events, texts, errors } = await run(agent);
    expect(errors).toEqual([]);
    const retries = events.filter((e) => e.retry);
    expect(retries.map((e) => e.retry!.attempt)).toEqual([1, 2]);
    expect(retries[0].retry!.error).toContain('HTTP 500');
    expect(retries[0].retry!.error).toContain('upstream exploded');
    const answerAt = events.findIndex((e) => e.output?.message);
    expect(answerAt).toBeGreaterThan(events.indexOf(retries[1]));
    expect(texts).toEqual(['third time lucky']);
    expect(server.chatRequests).toHaveLength(3);
  });

  it('retries a stream reset mid-way; the broken attempt is dropped', async () => {
    server.enqueue({ content: 'partial text that will be lost', resetAfterChunks: 3 }, { content: 'clean answer' });
    const agent = new ChatModelAgent({ name: 'a', description: 'test', model: model(), retry: { baseDelayMs: 10 } });
    const { events, texts, errors } = await run(agent);
    expect(errors).toEqual([]);
    expect(events.filter((e) => e.retry)).toHaveLength(1);
    expect(texts).toEqual(['<failed: WillRetryError>', 'clean answer']);
  });
});
