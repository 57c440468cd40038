import { describe, expect, it } from 'vitest';
import { ConfigError, ModelHttpError } from '../../src/core/errors.js';
import { OpenAIChatModel } from '../../src/core/models/openai.js';
import { PROFILES, profileForURL, type ProviderName } from '../../src/core/models/providers.js';
import { drainRun } from '../../src/core/conversation/drain-run.js';
import { JsonEvents, type JsonEvent } from '../../src/core/conversation/json-events.js';
import { ChatModelAgent } from '../../src/core/agents/chat-model-agent.js';
import { Runner } from '../../src/core/runner.js';
import { planExecute } from '../../src/core/prebuilt/plan-execute/plan-execute.js';
import { newPlanner } from '../../src/core/prebuilt/plan-execute/planner.js';
import { newExecutor } from '../../src/core/prebuilt/plan-execute/executor.js';
import { newReplanner } from '../../src/core/prebuilt/plan-execute/replanner.js';
import { useOpenAIServer, type OpenAITestServer } from '../support/openai-server.js';
import { chunk, replay, replayTools, sseOf } from './helpers.js';

// Issue 35, items 2-4, each from a recorded shape, through a local server speaking the wire format.
let server: OpenAITestServer;
useOpenAIServer((s) => (server = s));

type Profile = Exclude<ProviderName, 'demo'>;
const model = (provider: Profile = 'openai', o: Partial<ConstructorParameters<typeof OpenAIChatModel>[0]> = {}) =>
  new OpenAIChatModel({ model: 'rec', apiKey: 'sk-test-1234', baseURL: server.url, profile: PROFILES[provider], configName: 'main', ...o });

/** DeepSeek's own checks in thinking mode (the error texts its API answers with). */
function deepSeekRules(r: { body: any }) {
  for (const [i, m] of (r.body.messages as any[]).entries()) {
    if (m.role === 'assistant' && m.tool_calls && !('reasoning_content' in m)) {
      return { status: 400, errorBody: { error: { message: `Missing \`reasoning_content\` field in the assistant message at message index ${i}. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls`, type: 'invalid_request_error', param: null, code: 'invalid_request_error' } } };
    }
    if (m.role === 'assistant' && m.tool_calls && typeof m.reasoning_content !== 'string') {
      return { status: 400, errorBody: { error: { message: 'The reasoning_content in the thinking mode must be passed back to the API.', type: 'invalid_request_error', param: null, code: 'invalid_request_error' } } };
    }
  }
  return undefined;
}

const deepSeekCall = (id: string, reasoning: string) =>
  sseOf(
    chunk({ role: 'assistant', content: null, reasoning_content: '' }, null, { system_fingerprint: 'fp_8802369eaa_prod0623_fp8_kvcache' }),
    ...(reasoning ? [chunk({ reasoning_content: reasoning }, null, { system_fingerprint: 'fp_8802369eaa_prod0623_fp8_kvcache' })] : []),
    chunk({ tool_calls: [{ index: 0, id, type: 'function', function: { name: 'read_file', arguments: '{"path":"notes.txt"}' } }] }, null, { system_fingerprint: 'fp_8802369eaa_prod0623_fp8_kvcache' }),
    chunk({}, 'tool_calls', { system_fingerprint: 'fp_8802369eaa_prod0623_fp8_kvcache', usage: { prompt_tokens: 20, completion_tokens: 9, total_tokens: 29 } }),
  );

describe('DeepSeek thinking mode across turns (item 2)', () => {
  it('later requests keep reasoning_content on every earlier turn that called tools, and send an empty string rather than omit it', async () => {
    const m = model('deepseek');
    const agent = new ChatModelAgent({ name: 'A', description: 'a', model: m, tools: replayTools([]), retry: { maxRetries: 0 } });
    const runner = new Runner({ agent, enableStreaming: true });
    server.onRequest((r) => deepSeekRules(r));
    // Turn 1: a tool call with reasoning, then an answer. Turn 2 (the history of turn 1 sent again):
    // a tool call whose reasoning is empty, then an answer.
    server.enqueue({ sse: deepSeekCall('call_00_a', 'Need the file.') }, { content: 'It says hi.' });
    const first: any[] = [];
    for await (const e of runner.query('read notes.txt')) if (e.output?.message) first.push(e.output.message.stream ? await e.output.message.stream.collect() : e.output.message.message);
    expect(first.at(-1).content).toBe('It says hi.');
    server.enqueue({ sse: deepSeekCall('call_00_b', '') }, { content: 'Still hi.' });
    const history = [{ role: 'user' as const, content: 'read notes.txt' }, ...first, { role: 'user' as const, content: 'again' }];
    const second: any[] = [];
    for await (const e of runner.run(history)) {
      if (e.error) throw e.error;
      if (e.output?.message) second.push(e.output.message.stream ? await e.output.message.stream.collect() : e.output.message.message);
    }
    expect(second.at(-1).content).toBe('Still hi.');
    const last = server.chatRequests.at(-1)!.body.messages as any[];
    const withCalls = last.filter((x) => x.tool_calls);
    expect(withCalls.map((x) => x.reasoning_content)).toEqual(['Need the file.', '']);
  });

  it('a plain OPENAI_BASE_URL that answers with DeepSeek fingerprints gets DeepSeek handling (detected by the response)', async () => {
    server.onRequest((r) => deepSeekRules(r));
    server.enqueue({ sse: deepSeekCall('call_00_c', 'Look first.') }, { content: 'done' });
    const plain = model('openai', { model: 'deepseek-reasoner', detectServer: true });
    expect(profileForURL(server.url).name).toBe('openai');
    const r = await replay(plain, 'read notes.txt');
    expect(r.errors).toEqual([]);
    expect(r.output).toBe('done');
    expect(plain.profile.name).toBe('deepseek');
  });
});

describe('OpenAI refusals (item 3)', () => {
  // openai-node's shape: `refusal` deltas (content null), then finish_reason stop.
  const refusal = () =>
    sseOf(
      chunk({ role: 'assistant', content: null, refusal: '' }, null, { system_fingerprint: 'fp_f33640a400' }),
      chunk({ refusal: "I'm sorry" }),
      chunk({ refusal: ", I can't help with that." }),
      chunk({}, 'stop'),
      { id: 'chatcmpl-rec', object: 'chat.completion.chunk', created: 0, model: 'rec', choices: [], usage: { prompt_tokens: 10, completion_tokens: 8, total_tokens: 18 } },
    );

  it('the refusal text is kept and shown; the run ends incomplete with reason refusal (JSONL done and error)', async () => {
    server.enqueue({ sse: refusal() });
    const agent = new ChatModelAgent({ name: 'A', description: 'a', model: model(), retry: { maxRetries: 0 } });
    const lines: JsonEvent[] = [];
    const summary = await drainRun(new Runner({ agent, enableStreaming: true }).query('bad request'), new JsonEvents((e) => lines.push(e)));
    new JsonEvents((e) => lines.push(e)).done(summary, 's1');
    expect(lines.filter((l) => l.type === 'delta').map((l) => l.content).join('')).toBe("I'm sorry, I can't help with that.");
    expect(lines.find((l) => l.type === 'error')?.message).toContain("the model refused: I'm sorry, I can't help with that.");
    expect(lines.at(-1)).toMatchObject({ type: 'done', status: 'incomplete', reason: 'refusal', output: "I'm sorry, I can't help with that." });
  });

  it('non-streamed: message.refusal the same way', async () => {
    server.enqueue({ json: { id: 'chatcmpl-1', object: 'chat.completion', created: 0, model: 'gpt-4o', choices: [{ index: 0, message: { role: 'assistant', content: null, refusal: "I can't assist with that." }, finish_reason: 'stop' }], usage: { prompt_tokens: 5, completion_tokens: 6, total_tokens: 11 } } });
    const r = await replay(model(), 'bad', false);
    expect(r.output).toBe("I can't assist with that.");
    expect(r.errors[0]!.message).toContain('refused');
  });
});

describe('item 4', () => {
  it('n > 1 through extra_body is refused when the model is built (and in a run), before any request', () => {
    expect(() => model('openai', { extraBody: { n: 3 } })).toThrow(ConfigError);
    expect(() => model('openai', { extraBody: { n: 3 } })).toThrow(/extra_body\.n is 3 on model 'main'.*remove `n`/);
    expect(() => model('openai', { extraBody: { n: 1 } })).not.toThrow();
    expect(server.chatRequests).toHaveLength(0);
  });

  it("an error object without the {error} wrapper mid-stream (vLLM's and Mistral's shape) ends as an error, not completed", async () => {
    server.enqueue({
      sse: sseOf(
        chunk({ role: 'assistant', content: 'Par' }),
        { object: 'error', message: 'Internal worker died', type: 'InternalServerError', param: null, code: 503 },
      ),
    });
    server.onRequest(() => ({ sse: sseOf({ object: 'error', message: 'Internal worker died', type: 'InternalServerError', param: null, code: 503 }) }));
    const r = await replay(model(), 'hi');
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]!.message).toContain('Internal worker died');
    expect(r.output).not.toBe('Par');
  });

  it("llama.cpp's `tools param requires --jinja flag` 500 is explained and not retried", async () => {
    server.onRequest(() => ({ status: 500, errorBody: { error: { code: 500, message: 'tools param requires --jinja flag', type: 'server_error' } } }));
    const r = await replay(model('llamacpp'), 'hi');
    expect(server.chatRequests).toHaveLength(1);
    expect(r.errors[0]).toBeInstanceOf(ModelHttpError);
    expect(r.errors[0]!.message).toContain('restart llama-server with --jinja');
  });

  it("without usage from the server, adk's own count is marked estimated (JSONL done.usage)", async () => {
    server.enqueue({ sse: sseOf(chunk({ role: 'assistant', content: 'Hello there.' }), chunk({}, 'stop')) });
    const agent = new ChatModelAgent({ name: 'A', description: 'a', model: model('openai', { streamUsage: false }), retry: { maxRetries: 0 } });
    const lines: JsonEvent[] = [];
    const summary = await drainRun(new Runner({ agent, enableStreaming: true }).query('hi'), new JsonEvents((e) => lines.push(e)));
    new JsonEvents((e) => lines.push(e)).done(summary, 's1');
    expect(lines.at(-1)).toMatchObject({ type: 'done', status: 'completed', usage: { estimated: true } });
    expect((lines.at(-1)!.usage as any).completionTokens).toBeGreaterThan(0);
  });

  it("xAI's reasoning tokens are counted (Vercel AI SDK's recorded grok-3-mini stream: total = prompt + completion + reasoning)", async () => {
    const fp = { system_fingerprint: 'fp_2a885414fb' };
    server.enqueue({
      sse: sseOf(
        chunk({ reasoning_content: 'First', role: 'assistant' }, null, fp),
        chunk({ reasoning_content: ', the user is' }, null, fp),
        chunk({ tool_calls: [{ id: 'call_55117580', function: { name: 'current_time', arguments: '{}' }, index: 0, type: 'function' }] }, null, fp),
        chunk({}, 'tool_calls', fp),
        {
          id: 'de9d896d',
          object: 'chat.completion.chunk',
          created: 1770774066,
          model: 'grok-3-mini',
          choices: [],
          usage: { prompt_tokens: 291, completion_tokens: 26, total_tokens: 513, prompt_tokens_details: { text_tokens: 291, audio_tokens: 0, image_tokens: 0, cached_tokens: 290 }, completion_tokens_details: { reasoning_tokens: 196, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 }, num_sources_used: 0 },
          ...fp,
        },
      ),
    }, { content: 'ok' });
    const r = await replay(model(), 'time?');
    expect(r.messages.find((m) => m.toolCalls)!.usage).toEqual({ promptTokens: 291, completionTokens: 222, totalTokens: 513, cacheReadTokens: 290 });
  });

  it("plan-execute on a server that ignores tool_choice: the plan written as JSON text is taken; plain text is asked again once", async () => {
    const planText = 'Here is the plan:\n```json\n{"steps": ["Read notes.txt", "Summarize it"]}\n```';
    for (const replies of [[{ content: planText }], [{ content: 'I will read the notes and summarize them.' }, { content: planText }]]) {
      server.reset();
      server.enqueue(...replies, { content: 'Read it.' }, { content: '{"response": "done"}' }, { content: 'done' });
      const m = model('llamacpp');
      const agent = planExecute({ planner: newPlanner({ model: m }), executor: newExecutor({ model: m }), replanner: newReplanner({ model: m }), maxIterations: 1 });
      const runner = new Runner({ agent });
      const errors: string[] = [];
      for await (const e of runner.query('Summarize notes.txt')) if (e.error) errors.push(e.error.message);
      expect(errors).toEqual([]);
      expect(server.chatRequests.length).toBeGreaterThan(replies.length);
      if (replies.length === 2) expect(JSON.stringify(server.chatRequests[1]!.body.messages)).toContain('this step needs a call to `plan`');
      // The executor was given the parsed plan's first step.
      expect(JSON.stringify(server.chatRequests[replies.length]!.body.messages)).toContain('Read notes.txt');
    }
  });
});
