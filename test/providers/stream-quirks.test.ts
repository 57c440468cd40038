import { describe, expect, it } from 'vitest';
import { OpenAIChatModel } from '../../src/core/models/openai.js';
import { PROFILES, type ProviderName } from '../../src/core/models/providers.js';
import { useOpenAIServer, type OpenAITestServer } from '../support/openai-server.js';
import { chunk, replay, sseOf } from './helpers.js';

// Rows 1–8 and 15 of issue 13: what real servers stream, replayed verbatim over HTTP to the openai SDK.
let server: OpenAITestServer;
useOpenAIServer((s) => (server = s));

const model = (provider: Exclude<ProviderName, 'demo'> = 'openai') =>
  new OpenAIChatModel({ model: 'rec', baseURL: server.url, profile: PROFILES[provider] });

const TOOL_LOOP_END = { content: 'Done.' };

/** The assistant turn with tool calls and the tool results, as the second request carried them. */
function secondRequest() {
  const msgs = server.chatRequests[1]!.body.messages as any[];
  const assistant = msgs.find((m) => m.role === 'assistant' && m.tool_calls);
  const results = msgs.filter((m) => m.role === 'tool');
  return { assistant, results, msgs };
}

function expectBothToolsRan(runs: { name: string; args: unknown; callId: string }[]) {
  expect(runs.map((r) => r.name).sort()).toEqual(['current_time', 'read_file']);
  expect(runs.find((r) => r.name === 'read_file')!.args).toEqual({ path: 'notes.txt' });
  const { assistant, results } = secondRequest();
  expect(assistant.tool_calls.map((c: any) => c.function.name).sort()).toEqual(['current_time', 'read_file']);
  const ids = assistant.tool_calls.map((c: any) => c.id);
  expect(new Set(ids).size).toBe(2);
  for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_.-]+$/);
  // Every call is answered exactly once, under the id it was sent with.
  expect(results.map((r: any) => r.tool_call_id).sort()).toEqual([...ids].sort());
}

describe('stream quirks (issue 13 rows 1–8, 15)', () => {
  it('row 1: parallel calls all at index 0, each with its own id (Ollama, LiteLLM) are two calls', async () => {
    server.enqueue(
      {
        sse: sseOf(
          chunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'current_time', arguments: '' } }] }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '{}' } }] }),
          chunk({ tool_calls: [{ index: 0, id: 'call_b', type: 'function', function: { name: 'read_file', arguments: '' } }] }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '{"path":' } }] }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '"notes.txt"}' } }] }),
          chunk({}, 'tool_calls'),
        ),
      },
      TOOL_LOOP_END,
    );
    const r = await replay(model('ollama'));
    expect(r.errors).toEqual([]);
    expectBothToolsRan(r.runs);
    expect(secondRequest().assistant.tool_calls.map((c: any) => c.id)).toEqual(['call_a', 'call_b']);
    expect(r.output).toBe('Done.');
  });

  it('row 2: no index, parallel calls in separate chunks (Gemini) are two calls', async () => {
    server.enqueue(
      {
        sse: sseOf(
          chunk({ role: 'assistant', tool_calls: [{ id: 'g1', type: 'function', function: { name: 'current_time', arguments: '{}' } }] }),
          chunk({ tool_calls: [{ id: 'g2', type: 'function', function: { name: 'read_file', arguments: '{"path":"notes.txt"}' } }] }),
          chunk({}, 'tool_calls'),
        ),
      },
      TOOL_LOOP_END,
    );
    const r = await replay(model('gemini'));
    expect(r.errors).toEqual([]);
    expectBothToolsRan(r.runs);
  });

  it('row 3: id "" on parallel calls (LM Studio): both results kept, under distinct ids', async () => {
    server.enqueue(
      {
        sse: sseOf(
          chunk({ role: 'assistant', tool_calls: [{ index: 0, id: '', type: 'function', function: { name: 'current_time', arguments: '{}' } }] }),
          chunk({ tool_calls: [{ index: 1, id: '', type: 'function', function: { name: 'read_file', arguments: '{"path":"notes.txt"}' } }] }),
          chunk({}, 'tool_calls'),
        ),
      },
      TOOL_LOOP_END,
    );
    const r = await replay(model('lmstudio'));
    expect(r.errors).toEqual([]);
    expectBothToolsRan(r.runs);
    expect(r.messages.filter((m) => m.role === 'tool')).toHaveLength(2);
  });

  it('row 4: id missing (vLLM, proxies): adk gives the call an id and sends that back, never ""', async () => {
    server.enqueue(
      {
        sse: sseOf(
          chunk({ role: 'assistant', tool_calls: [{ index: 0, type: 'function', function: { name: 'read_file', arguments: '{"path":"notes.txt"}' } }] }),
          chunk({ tool_calls: [{ index: 1, type: 'function', function: { name: 'current_time', arguments: '{}' } }] }),
          chunk({}, 'tool_calls'),
        ),
      },
      TOOL_LOOP_END,
    );
    const r = await replay(model('vllm'));
    expect(r.errors).toEqual([]);
    expectBothToolsRan(r.runs);
    for (const m of secondRequest().msgs) if (m.role === 'tool') expect(m.tool_call_id).not.toBe('');
  });

  it('row 5: arguments as a JSON object (LiteLLM ollama_chat) are serialised', async () => {
    server.enqueue(
      {
        sse: sseOf(
          chunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'o1', type: 'function', function: { name: 'read_file', arguments: { path: 'notes.txt' } } }] }),
          chunk({ tool_calls: [{ index: 1, id: 'o2', type: 'function', function: { name: 'current_time', arguments: {} } }] }),
          chunk({}, 'tool_calls'),
        ),
      },
      TOOL_LOOP_END,
    );
    const r = await replay(model('ollama'));
    expect(r.errors).toEqual([]);
    expectBothToolsRan(r.runs);
    expect(secondRequest().assistant.tool_calls.find((c: any) => c.id === 'o1').function.arguments).toBe('{"path":"notes.txt"}');
  });

  it('row 6: the function name repeated in every delta (NIM, Fireworks) is set once, not appended', async () => {
    server.enqueue(
      {
        sse: sseOf(
          chunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'k1', type: 'function', function: { name: 'read_file', arguments: '' } }] }),
          chunk({ tool_calls: [{ index: 0, id: 'k1', type: 'function', function: { name: 'read_file', arguments: '{"path":' } }] }),
          chunk({ tool_calls: [{ index: 0, id: 'k1', type: 'function', function: { name: 'read_file', arguments: '"notes.txt"}' } }] }),
          chunk({ tool_calls: [{ index: 1, id: 'k2', type: 'function', function: { name: 'current_time', arguments: '{' } }] }),
          chunk({ tool_calls: [{ index: 1, id: 'k2', type: 'function', function: { name: 'current_time', arguments: '}' } }] }),
          chunk({}, 'tool_calls'),
        ),
      },
      TOOL_LOOP_END,
    );
    const r = await replay(model('together'));
    expect(r.errors).toEqual([]);
    expectBothToolsRan(r.runs);
  });

  it('row 7: content as an array of parts (Magistral) is flattened; thinking parts become reasoning', async () => {
    server.enqueue({
      sse: sseOf(
        chunk({ role: 'assistant', content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'The user wants ' }] }] }),
        chunk({ content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'a greeting.' }] }] }),
        chunk({ content: [{ type: 'text', text: 'Hello' }] }),
        chunk({ content: [{ type: 'text', text: ' there.' }] }),
        chunk({}, 'stop'),
      ),
    });
    const r = await replay(model('mistral'), 'Say hello');
    expect(r.errors).toEqual([]);
    expect(r.output).toBe('Hello there.');
    expect(r.messages.at(-1)!.reasoningContent).toBe('The user wants a greeting.');
  });

  it('row 8: a <think> block at the start of content (Qwen3, R1 without a parser) is reasoning, not the answer or history', async () => {
    server.enqueue(
      {
        sse: sseOf(
          chunk({ role: 'assistant', content: '<thi' }),
          chunk({ content: 'nk>I should check the ' }),
          chunk({ content: 'file.</th' }),
          chunk({ content: 'ink>\n\n' }),
          chunk({ tool_calls: [{ index: 0, id: 't1', type: 'function', function: { name: 'read_file', arguments: '{"path":"notes.txt"}' } }] }),
          chunk({}, 'tool_calls'),
        ),
      },
      { content: '<think>Now answer.</think>\n\nThe file says hi.' },
    );
    const r = await replay(model('vllm'), 'What is in notes.txt?');
    expect(r.errors).toEqual([]);
    expect(r.output).toBe('The file says hi.');
    const assistants = r.messages.filter((m) => m.role === 'assistant');
    expect(assistants.map((m) => m.reasoningContent)).toEqual(['I should check the file.', 'Now answer.']);
    expect(JSON.stringify(server.chatRequests[1]!.body.messages)).not.toContain('think');
  });

  it('row 15: a tool call left in the text (<tool_call>…</tool_call>) is parsed when tools were offered', async () => {
    server.enqueue(
      {
        sse: sseOf(
          chunk({ role: 'assistant', content: '<tool_' }),
          chunk({ content: 'call>\n{"name": "read_file", "arguments": {"path": "notes.txt"}}\n</tool_call>\n<tool_call>\n{"name": "current_time", "arguments": {}}\n</tool_call>' }),
          chunk({}, 'stop'),
        ),
      },
      TOOL_LOOP_END,
    );
    const r = await replay(model('vllm'));
    expect(r.errors).toEqual([]);
    expectBothToolsRan(r.runs);
    expect(r.output).toBe('Done.');
    expect(secondRequest().assistant.content ?? '').not.toContain('<tool_call>');
  });

  it('row 15, the other side: a <tool_call> naming no offered tool stays text', async () => {
    server.enqueue({ sse: sseOf(chunk({ role: 'assistant', content: 'Use <tool_call>{"name":"rm","arguments":{}}</tool_call> tags.' }), chunk({}, 'stop')) });
    const r = await replay(model('vllm'));
    expect(r.runs).toEqual([]);
    expect(r.output).toBe('Use <tool_call>{"name":"rm","arguments":{}}</tool_call> tags.');
  });

  it('non-streaming replies go through the same decoder (index-less calls, object arguments, <think>)', async () => {
    server.enqueue(
      {
        json: {
          id: 'x',
          object: 'chat.completion',
          choices: [
            {
              index: 0,
              finish_reason: 'tool_calls',
              message: {
                role: 'assistant',
                content: '<think>plan</think>',
                tool_calls: [
                  { id: '', type: 'function', function: { name: 'read_file', arguments: { path: 'notes.txt' } } },
                  { id: '', type: 'function', function: { name: 'current_time', arguments: '{}' } },
                ],
              },
            },
          ],
        },
      },
      { content: 'Done.' },
    );
    const r = await replay(model('ollama'), undefined, false);
    expect(r.errors).toEqual([]);
    expectBothToolsRan(r.runs);
    expect(r.messages[0]!.reasoningContent).toBe('plan');
  });

  it("usage where servers put it without stream_options: Mistral's last chunk, Groq's x_groq", async () => {
    server.enqueue({ sse: sseOf(chunk({ role: 'assistant', content: 'hi' }), chunk({}, 'stop', { usage: { prompt_tokens: 11, completion_tokens: 2, total_tokens: 13 } })) });
    expect((await replay(model('mistral'), 'x')).messages.at(-1)!.usage).toEqual({ promptTokens: 11, completionTokens: 2, totalTokens: 13 });
    server.enqueue({ sse: sseOf(chunk({ role: 'assistant', content: 'hi' }), chunk({}, 'stop', { x_groq: { id: 'req_1', usage: { prompt_tokens: 21, completion_tokens: 3, total_tokens: 24 } } })) });
    expect((await replay(model('groq'), 'x')).messages.at(-1)!.usage).toEqual({ promptTokens: 21, completionTokens: 3, totalTokens: 24 });
  });

  it('issue 43 item 7: n > 1 (an extra_body) streams two choices; only the first one is the reply, never the two woven together', async () => {
    const two = (index: number, content: string, finish: string | null = null) => ({ id: 'chatcmpl-rec', object: 'chat.completion.chunk', created: 0, model: 'rec', choices: [{ index, delta: { content }, finish_reason: finish }] });
    server.enqueue({ sse: sseOf(two(0, 'Paris '), two(1, 'Lyon '), two(1, 'is big.', 'stop'), two(0, 'is the capital.', 'stop')) });
    const r = await replay(model(), 'Capital of France?');
    expect(r.errors).toEqual([]);
    expect(r.messages.at(-1)!.content).toBe('Paris is the capital.');
  });

  it("issue 43 item 7: Kimi K2's call ids (functions.name:0) go back to it as it wrote them, its call answered under that id", async () => {
    const call = (id: string, name: string, args: string) => chunk({ tool_calls: [{ index: 0, id, type: 'function', function: { name, arguments: args } }] });
    server.enqueue({ sse: sseOf(call('functions.read_file:0', 'read_file', '{"path":"notes.txt"}'), chunk({}, 'tool_calls')) }, TOOL_LOOP_END);
    const r = await replay(model(), 'read notes');
    expect(r.errors).toEqual([]);
    const { assistant, results } = secondRequest();
    expect(assistant.tool_calls.map((c: any) => c.id)).toEqual(['functions.read_file:0']);
    expect(results.map((m: any) => m.tool_call_id)).toEqual(['functions.read_file:0']);
  });

  it('issue 43 item 7: an error event after finish_reason length (OpenRouter) leaves the reply cut off by its limit, not an HTTP error', async () => {
    server.enqueue({ sse: sseOf(chunk({ role: 'assistant', content: 'The first half of a long' }), chunk({}, 'length'), { error: { message: 'Provider returned error', code: 400 } }) });
    const r = await replay(model('openrouter'), 'write a lot');
    expect(r.messages.at(-1)!.content).toBe('The first half of a long');
    expect(r.errors.map((e) => [e.name, (e as { reason?: string }).reason])).toEqual([['IncompleteReplyError', 'length']]);
    expect(server.chatRequests).toHaveLength(1);
  });
});

