import { describe, expect, it } from 'vitest';
import { ChatModelAgent } from '../../src/core/agents/chat-model-agent.js';
import { IncompleteReplyError, ModelHttpError } from '../../src/core/errors.js';
import type { ChatModel } from '../../src/core/models/chat-model.js';
import { OpenAIChatModel } from '../../src/core/models/openai.js';
import { OpenAIResponsesModel } from '../../src/core/models/openai-responses.js';
import { Runner } from '../../src/core/runner.js';
import type { Message } from '../../src/core/schema/message.js';
import type { Tool } from '../../src/core/tools/tool.js';
import { recorded, responsesSse, useReplayServer, type ReplayServer } from '../support/replay-server.js';
import { replay } from './helpers.js';

// OpenAI's Responses API through the openai SDK, against a local server replaying recorded Responses SSE.
let server: ReplayServer;
useReplayServer((s) => (server = s));

const responsesModel = (o: Partial<ConstructorParameters<typeof OpenAIResponsesModel>[0]> = {}) =>
  new OpenAIResponsesModel({ model: 'gpt-5.1-codex-max', apiKey: 'sk-test-resp-1234', baseURL: `${server.url}/v1`, ...o });

/** The recording's events split into its responses (each starts with response.created). */
function responsesOf(file: string): Array<Array<Record<string, any>>> {
  const out: Array<Array<Record<string, any>>> = [];
  for (const e of recorded(file)) {
    if (e.type === 'response.created') out.push([]);
    out[out.length - 1]!.push(e);
  }
  return out;
}

const calculator = (runs: Array<{ args: any; callId: string }>): Tool => ({
  name: 'calculator',
  description: 'Adds or multiplies two numbers.',
  parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' }, op: { type: 'string', enum: ['add', 'multiply'] } }, required: ['a', 'b', 'op'] },
  execute: (args: { a: number; b: number; op: string }, ctx) => {
    runs.push({ args, callId: ctx.callId });
    return String(args.op === 'add' ? args.a + args.b : args.a * args.b);
  },
});

async function run(model: ChatModel, tools: Tool[], prompt: string): Promise<{ messages: Message[]; errors: Error[] }> {
  const agent = new ChatModelAgent({ name: 'Assistant', description: 'responses', model, tools, retry: { maxRetries: 1, baseDelayMs: 1 } });
  const messages: Message[] = [];
  const errors: Error[] = [];
  for await (const e of new Runner({ agent, enableStreaming: true }).query(prompt)) {
    const v = e.output?.message;
    if (v) {
      const m = v.stream ? await v.stream.collect().catch(() => undefined) : v.message;
      if (m) messages.push(m);
    }
    if (e.error) errors.push(e.error);
  }
  return { messages, errors };
}

describe('OpenAI Responses API', () => {
  it('streams a text answer (recorded Azure gpt-5.1 response) and sends store: false to POST /responses', async () => {
    server.enqueue(responsesSse(recorded('azure-text.1.chunks.txt')));
    const info: unknown[] = [];
    const msg = await responsesModel({ model: 'gpt-5.1' }).generate([{ role: 'user', content: 'Say hello' }], { onResponseInfo: (i) => info.push(i) });
    expect(msg.content).toBe('Hello');
    expect(msg.finishReason).toBe('stop');
    expect(msg.usage).toEqual({ promptTokens: 11, completionTokens: 11, totalTokens: 22 });
    expect(info[0]).toMatchObject({ id: 'resp_02ce8deeb6197db200698c5196e9588197a572bbea62d38cd1', model: 'gpt-5.1' });
    const req = server.requests[0]!;
    expect(req.url).toBe('/v1/responses');
    expect(req.headers.authorization).toBe('Bearer sk-test-resp-1234');
    expect(req.body).toMatchObject({ model: 'gpt-5.1', stream: true, store: false, include: ['reasoning.encrypted_content'], input: [{ role: 'user', content: 'Say hello' }] });
  });

  it('a recorded codex tool loop: summaries shown as thinking, call_ids kept, encrypted reasoning sent back on the next request and on the next user turn', async () => {
    const [r1, r2, r3, r4] = responsesOf('openai-reasoning-encrypted-content.1.chunks.txt');
    // The recording reports no cached or reasoning tokens; the last response is given some to check they are read.
    const done = r4!.at(-1)!;
    done.response.usage = { ...done.response.usage, input_tokens_details: { cached_tokens: 256 }, output_tokens_details: { reasoning_tokens: 7 } };
    server.enqueue(responsesSse(r1!), responsesSse(r2!), responsesSse(r3!), responsesSse(r4!));
    const runs: Array<{ args: any; callId: string }> = [];
    const model = responsesModel();
    const { messages, errors } = await run(model, [calculator(runs)], 'Compute (12+7)*3*10 step by step with the calculator.');
    expect(errors).toEqual([]);
    expect(runs.map((r) => r.args)).toEqual([
      { a: 12, b: 7, op: 'add' },
      { a: 19, b: 3, op: 'multiply' },
      { a: 57, b: 10, op: 'multiply' },
    ]);
    expect(runs[0]!.callId).toBe('call_AB6AaRZ1FYZB2RwS6A5vbdqn');
    const first = messages.find((m) => m.role === 'assistant')!;
    expect(first.reasoningContent).toMatch(/^\*\*Calculating step-by-step using calculator\*\*\n\nI'll compute 12 plus 7/);
    const reasoningItem = recorded('openai-reasoning-encrypted-content.1.chunks.txt').find((e) => e.type === 'response.output_item.done' && e.item.type === 'reasoning')!.item;
    const last = messages.filter((m) => m.role === 'assistant').at(-1)!;
    expect(last.content).toBe('The final result is **570**.');
    expect(last.usage).toEqual({ promptTokens: 299, completionTokens: 12, totalTokens: 311, cacheReadTokens: 256, reasoningTokens: 7 });

    // Request 2: the reasoning item whole (encrypted), then the call with its call_id and item id, then its output.
    const input2 = server.requests[1]!.body.input as any[];
    const at = input2.findIndex((x) => x.type === 'reasoning');
    expect(input2[at]).toEqual({ type: 'reasoning', id: reasoningItem.id, summary: reasoningItem.summary, encrypted_content: reasoningItem.encrypted_content });
    expect(input2[at + 1]).toEqual({ type: 'function_call', call_id: 'call_AB6AaRZ1FYZB2RwS6A5vbdqn', name: 'calculator', arguments: '{"a":12,"b":7,"op":"add"}', id: 'fc_01830d662ab3856501693c32151234819091cfca267e98cc5f' });
    expect(input2[at + 2]).toEqual({ type: 'function_call_output', call_id: 'call_AB6AaRZ1FYZB2RwS6A5vbdqn', output: '19' });
    expect(server.requests[1]!.body).toMatchObject({ store: false, include: ['reasoning.encrypted_content'], reasoning: { summary: 'auto' } });
    expect(server.requests[1]!.body.previous_response_id).toBeUndefined();

    // The next user turn, on the history the session keeps: the encrypted reasoning still goes back.
    server.enqueue(responsesSse(recorded('azure-text.1.chunks.txt')));
    const history: Message[] = [{ role: 'user', content: 'Compute (12+7)*3*10 step by step with the calculator.' }, ...messages, { role: 'user', content: 'Thanks' }];
    const again = await model.generate(JSON.parse(JSON.stringify(history)));
    expect(again.content).toBe('Hello');
    const input5 = server.requests[4]!.body.input as any[];
    expect(input5.filter((x) => x.type === 'reasoning')).toEqual([{ type: 'reasoning', id: reasoningItem.id, summary: reasoningItem.summary, encrypted_content: reasoningItem.encrypted_content }]);
    expect(input5.filter((x) => x.type === 'function_call').map((x) => x.call_id)).toEqual(['call_AB6AaRZ1FYZB2RwS6A5vbdqn', 'call_Q6pW65MUgW9vF59BmItYGos3', 'call_Zl5vIMnD7dVAjgU6FkhmiCZh']);
    expect(input5.at(-1)).toEqual({ role: 'user', content: 'Thanks' });
  });

  // Issue 43, item 7: OpenAI's own tools (web search here; a recorded gpt-5-nano stream, trimmed) send
  // `web_search_call` items between reasoning items. adk dropped them: nothing shown, and the next
  // request sent reasoning items without the items that follow them. Now they are shown as the
  // model's work and go back in their place; never run here.
  it('a hosted web search (recorded stream) is shown and sent back in its place, never run as an adk tool', async () => {
    const events = recorded('openai-web-search-tool.1.trimmed.chunks.txt');
    server.enqueue(responsesSse(events), responsesSse(recorded('azure-text.1.chunks.txt')));
    const runs: Array<{ args: any; callId: string }> = [];
    const model = responsesModel({ model: 'gpt-5-nano' });
    const { messages, errors } = await run(model, [calculator(runs)], 'What is in the Berlin news today?');
    expect(errors).toEqual([]);
    expect(runs).toEqual([]);
    expect(server.requests).toHaveLength(1);
    const answer = messages.find((m) => m.role === 'assistant')!;
    expect(answer.content).toMatch(/^Here’s what’s notable in Berlin today .*berlin-art-week-2025\)\)$/s);
    expect(answer.reasoningContent).toContain(`[web_search ran on OpenAI's side] {"query":"Berlin news today"} (12 sources)`);
    expect(answer.usage).toMatchObject({ promptTokens: 60093, cacheReadTokens: 34560, reasoningTokens: 3648 });

    await model.generate(JSON.parse(JSON.stringify([{ role: 'user', content: 'news?' }, answer, { role: 'user', content: 'thanks' }])));
    const input = server.requests[1]!.body.input as any[];
    expect(input.map((x) => x.type ?? x.role)).toEqual(['user', 'reasoning', 'web_search_call', 'reasoning', 'web_search_call', 'assistant', 'user']);
    const item = events.find((e) => e.type === 'response.output_item.done' && e.item.type === 'web_search_call')!.item;
    expect(input[2]).toEqual(item);
  });

  it('parallel function calls (two recorded call items in one response) both run and go back paired by call_id', async () => {
    const events = recorded('azure-tool-call.1.chunks.txt');
    const calls = events.filter((e) => e.type !== 'response.created' && e.type !== 'response.in_progress' && e.type !== 'response.completed');
    // The second call: the same recorded events at output_index 1, with their own ids.
    const second = calls.map((e) => {
      const c = JSON.parse(JSON.stringify(e).replaceAll('call_H5DxLSFnsGhiROnUiDHmgyc8', 'call_SecondParallel01').replaceAll('San Francisco', 'Rome').replace('"delta":"San"', '"delta":"Ro"').replace('"delta":" Francisco"', '"delta":"me"').replace(/"fc_[^"]+"/g, '"fc_second_item"'));
      c.output_index = 1;
      return c;
    });
    const [head, progress] = events;
    server.enqueue(responsesSse([head!, progress!, ...calls, ...second, events.at(-1)!]), responsesSse(recorded('azure-text.1.chunks.txt')));
    const runs: Array<{ location: string; callId: string }> = [];
    const weather: Tool = {
      name: 'weather',
      description: 'Weather in a place.',
      parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
      execute: (args: { location: string }, ctx) => {
        runs.push({ location: args.location, callId: ctx.callId });
        return `sunny in ${args.location}`;
      },
    };
    const { errors } = await run(responsesModel({ model: 'gpt-5.1' }), [weather], 'Weather in San Francisco and Rome?');
    expect(errors).toEqual([]);
    expect(runs.map((r) => [r.location, r.callId]).sort()).toEqual([
      ['Rome', 'call_SecondParallel01'],
      ['San Francisco', 'call_H5DxLSFnsGhiROnUiDHmgyc8'],
    ]);
    const req1 = server.requests[0]!.body;
    expect(req1.tools).toEqual([{ type: 'function', name: 'weather', description: 'Weather in a place.', parameters: weather.parameters, strict: false }]);
    const input2 = server.requests[1]!.body.input as any[];
    expect(input2.filter((x) => x.type === 'function_call').map((x) => [x.call_id, x.arguments])).toEqual([
      ['call_H5DxLSFnsGhiROnUiDHmgyc8', '{"location":"San Francisco"}'],
      ['call_SecondParallel01', '{"location":"Rome"}'],
    ]);
    expect(input2.filter((x) => x.type === 'function_call_output').map((x) => [x.call_id, x.output])).toEqual([
      ['call_H5DxLSFnsGhiROnUiDHmgyc8', 'sunny in San Francisco'],
      ['call_SecondParallel01', 'sunny in Rome'],
    ]);
  });

  it('response.incomplete (max_output_tokens, content_filter) ends the turn incomplete with the reason, text kept', async () => {
    // Shaped as in the Vercel AI SDK's test "should send finish reason for incomplete response".
    const incomplete = (reason: string) => [
      { type: 'response.created', response: { id: 'resp_67c9a81b6a048190a9ee441c5755a4e8', object: 'response', status: 'in_progress', model: 'gpt-4o-2024-07-18', output: [] } },
      { type: 'response.output_item.added', output_index: 0, item: { id: 'msg_67c9a81dea8c8190b79651a2b3adf91e', type: 'message', status: 'in_progress', role: 'assistant', content: [] } },
      { type: 'response.content_part.added', item_id: 'msg_67c9a81dea8c8190b79651a2b3adf91e', output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } },
      { type: 'response.output_text.delta', item_id: 'msg_67c9a81dea8c8190b79651a2b3adf91e', output_index: 0, content_index: 0, delta: 'Hello,' },
      { type: 'response.output_item.done', output_index: 0, item: { id: 'msg_67c9a81dea8c8190b79651a2b3adf91e', type: 'message', status: 'incomplete', role: 'assistant', content: [{ type: 'output_text', text: 'Hello,', annotations: [] }] } },
      {
        type: 'response.incomplete',
        response: { id: 'resp_67cadb40a0708190ac2763c0b6960f6f', status: 'incomplete', incomplete_details: { reason }, usage: { input_tokens: 0, input_tokens_details: { cached_tokens: 0 }, output_tokens: 0, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 0 } },
      },
    ];
    server.enqueue(responsesSse(incomplete('max_output_tokens')));
    const r = await replay(responsesModel({ model: 'gpt-4o', maxTokens: 100 }), 'Hi');
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toBeInstanceOf(IncompleteReplyError);
    expect((r.errors[0] as IncompleteReplyError).reason).toBe('length');
    expect(r.output).toBe('Hello,');
    expect(server.requests[0]!.body.max_output_tokens).toBe(100);
    // A non-reasoning model is not asked for reasoning.
    expect(server.requests[0]!.body.reasoning).toBeUndefined();

    server.enqueue(responsesSse(incomplete('content_filter')));
    const f = await replay(responsesModel({ model: 'gpt-4o' }), 'Hi');
    expect((f.errors[0] as IncompleteReplyError).reason).toBe('content_filter');
  });

  it("issue 43 item 7: an assistant message's phase (gpt-5.3-codex and later) goes back with it on the next turn", async () => {
    const phased = (text: string, phase: string) => [
      { type: 'response.created', response: { id: 'resp_phase_1', object: 'response', status: 'in_progress', model: 'gpt-5.4', output: [] } },
      { type: 'response.output_item.added', output_index: 0, item: { id: 'msg_phase_1', type: 'message', status: 'in_progress', role: 'assistant', content: [], phase } },
      { type: 'response.output_text.delta', item_id: 'msg_phase_1', output_index: 0, content_index: 0, delta: text },
      { type: 'response.output_item.done', output_index: 0, item: { id: 'msg_phase_1', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }], phase } },
      { type: 'response.completed', response: { id: 'resp_phase_1', status: 'completed', usage: { input_tokens: 5, output_tokens: 3, total_tokens: 8 } } },
    ];
    server.enqueue(responsesSse(phased('Here is the answer.', 'final_answer')), responsesSse(phased('Again.', 'final_answer')));
    const model = responsesModel({ model: 'gpt-5.4' });
    const agent = new ChatModelAgent({ name: 'A', description: 'a', model });
    const first = await new Runner({ agent, enableStreaming: true }).run([{ role: 'user', content: 'Hi' }]).result;
    await new Runner({ agent, enableStreaming: true }).run([{ role: 'user', content: 'Hi' }, ...first.messages, { role: 'user', content: 'More' }]).result;
    const input = server.requests[1]!.body.input as any[];
    expect(input.find((x) => x.role === 'assistant')).toMatchObject({ role: 'assistant', content: 'Here is the answer.', phase: 'final_answer' });
  });

  it('a recorded mid-stream `error` event (insufficient_quota) is a typed HTTP error, not an empty success', async () => {
    server.enqueue(responsesSse(recorded('openai-error.1.chunks.txt')));
    const err = await responsesModel({ model: 'gpt-5-nano' }).generate([{ role: 'user', content: 'Hi' }]).catch((e) => e);
    expect(err).toBeInstanceOf(ModelHttpError);
    expect(err.status).toBe(429);
    expect(err.providerCode).toBe('insufficient_quota');
    expect(err.message).toMatch(/exceeded your current quota/);
  });

  it('chains by previous_response_id with store: true, sending only what is new', async () => {
    const [r1, , , r4] = responsesOf('openai-reasoning-encrypted-content.1.chunks.txt');
    server.enqueue(responsesSse(r1!), responsesSse(r4!));
    const runs: Array<{ args: any; callId: string }> = [];
    const tools = [calculator(runs)];
    const model = responsesModel({ store: true, previousResponseId: true });
    const { errors } = await run(model, tools, 'Compute 12+7.');
    expect(errors).toEqual([]);
    const second = server.requests[1]!.body;
    expect(second.store).toBe(true);
    expect(second.include).toBeUndefined();
    expect(second.previous_response_id).toBe(r1![0]!.response.id);
    expect(second.input).toEqual([{ type: 'function_call_output', call_id: 'call_AB6AaRZ1FYZB2RwS6A5vbdqn', output: '19' }]);
  });

  it('a Responses-only model on Chat Completions: the 404 names `api: responses`', async () => {
    server.enqueue({
      status: 404,
      headers: { 'content-type': 'application/json' },
      chunks: [JSON.stringify({ error: { message: 'This model is only supported in v1/responses and not in v1/chat/completions.', type: 'invalid_request_error', param: 'model', code: null } })],
    });
    const chat = new OpenAIChatModel({ model: 'o3-pro', apiKey: 'sk-x', baseURL: `${server.url}/v1`, configName: 'pro' });
    const err = await chat.generate([{ role: 'user', content: 'Hi' }]).catch((e) => e);
    expect(err).toBeInstanceOf(ModelHttpError);
    expect(err.status).toBe(404);
    expect(err.message).toMatch(/only supported in v1\/responses/);
    expect(err.message).toMatch(/set `api: responses` on the models entry 'pro'/);
  });

  it('unverified organisations: a 400 about reasoning summaries drops them and asks again once', async () => {
    server.enqueue(
      {
        status: 400,
        headers: { 'content-type': 'application/json' },
        chunks: [JSON.stringify({ error: { message: 'Your organization must be verified to generate reasoning summaries.', type: 'invalid_request_error', param: 'reasoning.summary', code: 'unsupported_value' } })],
      },
      responsesSse(recorded('azure-text.1.chunks.txt')),
    );
    const msg = await responsesModel({ model: 'o3' }).generate([{ role: 'user', content: 'Hi' }]);
    expect(msg.content).toBe('Hello');
    expect(server.requests[0]!.body.reasoning).toEqual({ summary: 'auto' });
    expect(server.requests[1]!.body.reasoning).toEqual({});
  });
});
