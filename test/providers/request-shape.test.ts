import { describe, expect, it } from 'vitest';
import { ChatModelAgent } from '../../src/core/agents/chat-model-agent.js';
import { OpenAIChatModel } from '../../src/core/models/openai.js';
import { PROFILES, type ProviderName } from '../../src/core/models/providers.js';
import { Runner } from '../../src/core/runner.js';
import type { Message } from '../../src/core/schema/message.js';
import { useOpenAIServer, type OpenAITestServer, type RecordedRequest, type ServerReply } from '../support/openai-server.js';
import { chunk, replay, sseOf } from './helpers.js';

// Rows 9, 11, 12, 16, 17, 18, 19 of issue 13, and what each profile does and does not send.
let server: OpenAITestServer;
useOpenAIServer((s) => (server = s));

type Profile = Exclude<ProviderName, 'demo'>;
const model = (provider: Profile, o: Partial<ConstructorParameters<typeof OpenAIChatModel>[0]> = {}) =>
  new OpenAIChatModel({ model: 'rec', apiKey: 'sk-test', baseURL: server.url, profile: PROFILES[provider], configName: 'main', ...o });

const readFileCall = (id: string) => ({ toolCalls: [{ id, name: 'read_file', arguments: { path: 'notes.txt' } }] });

/** A strict server: answers 400 in Mistral's own error shape when a rule of its template is broken. */
function strictServer(rules: Array<(r: RecordedRequest) => string | undefined>, replies: ServerReply[]) {
  server.onRequest((r) => {
    for (const rule of rules) {
      const broken = rule(r);
      if (broken) return { status: 400, errorBody: { object: 'error', message: broken, type: 'invalid_request_message_order', code: '3230' } };
    }
    return replies.shift();
  });
}

const rolesAlternate = (r: RecordedRequest) => {
  const msgs = r.body.messages as any[];
  for (let i = 1; i < msgs.length; i++) {
    const [a, b] = [msgs[i - 1].role, msgs[i].role];
    if (a === 'tool' && b === 'user') return 'Unexpected role \'user\' after role \'tool\'';
    if (a === b && a !== 'tool') return `Unexpected role '${b}' after role '${a}'`;
  }
  for (const m of msgs) if (m.role === 'assistant' && !m.tool_calls && !String(m.content ?? '').trim()) return 'Assistant message must have either content or tool_calls';
  return undefined;
};
const idsNineAlnum = (r: RecordedRequest) => {
  for (const m of r.body.messages as any[]) {
    for (const id of [...(m.tool_calls ?? []).map((c: any) => c.id), ...(m.tool_call_id !== undefined ? [m.tool_call_id] : [])]) {
      if (!/^[a-zA-Z0-9]{9}$/.test(id)) return `Tool call id was ${id} but must be a-z, A-Z, 0-9, with a length of 9.`;
    }
  }
  return undefined;
};
const noStreamOptions = (r: RecordedRequest) => (r.body.stream_options ? 'stream_options: Extra inputs are not permitted' : undefined);

describe('message normalisation and request shape per provider', () => {
  it('row 9: stream_options is not sent to Mistral or Groq; a generic server that rejects it gets the request again without it', async () => {
    strictServer([noStreamOptions], [{ content: 'a' }, { content: 'b' }]);
    await expect(replay(model('mistral'), 'hi')).resolves.toMatchObject({ errors: [], output: 'a' });
    await expect(replay(model('groq'), 'hi')).resolves.toMatchObject({ errors: [], output: 'b' });
    expect(server.chatRequests.map((r) => r.body.stream_options)).toEqual([undefined, undefined]);

    server.reset();
    server.onRequest((r) => (r.body.stream_options ? { status: 422, errorBody: { detail: [{ loc: ['body', 'stream_options'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' }] } } : { content: 'ok' }));
    const m = model('openai', { baseURL: server.url });
    await expect(replay(m, 'hi')).resolves.toMatchObject({ errors: [], output: 'ok' });
    await expect(replay(m, 'again')).resolves.toMatchObject({ errors: [], output: 'ok' });
    // One rejected request, then never again for this model.
    expect(server.chatRequests.map((r) => !!r.body.stream_options)).toEqual([true, false, false]);
  });

  it('row 11: DeepSeek gets reasoning_content back on the current tool loop, and not on earlier turns', async () => {
    server.onRequest((r) => {
      const msgs = r.body.messages as any[];
      const lastUser = msgs.map((m) => m.role).lastIndexOf('user');
      for (const [i, m] of msgs.entries()) {
        if (m.role === 'assistant' && m.tool_calls && i > lastUser && !m.reasoning_content) {
          return { status: 400, errorBody: { error: { message: 'Missing `reasoning_content` field in the assistant message at message index ' + i, type: 'invalid_request_error' } } };
        }
      }
      return undefined;
    });
    server.enqueue({ reasoning: 'Need the file.', ...readFileCall('d1') }, { reasoning: 'Got it.', content: 'It says hi.' });
    const r = await replay(model('deepseek'), 'read notes.txt');
    expect(r.errors).toEqual([]);
    const second = server.chatRequests[1]!.body.messages as any[];
    expect(second.find((m) => m.tool_calls).reasoning_content).toBe('Need the file.');
    // Another profile never sends it.
    server.reset();
    server.enqueue({ reasoning: 'Need the file.', ...readFileCall('d2') }, { content: 'ok' });
    await replay(model('openai'), 'read notes.txt');
    expect(JSON.stringify(server.chatRequests[1]!.body.messages)).not.toContain('reasoning_content');
  });

  it('row 12: Gemini thought signatures (extra_content) and OpenRouter reasoning_details go back verbatim', async () => {
    server.enqueue(
      {
        sse: sseOf(
          chunk({ role: 'assistant', tool_calls: [{ id: 'g1', type: 'function', function: { name: 'read_file', arguments: '{"path":"notes.txt"}' }, extra_content: { google: { thought_signature: 'SIG==' } } }] }),
          chunk({}, 'tool_calls'),
        ),
      },
      { content: 'done' },
    );
    await replay(model('gemini'), 'go');
    const call = (server.chatRequests[1]!.body.messages as any[]).find((m) => m.tool_calls).tool_calls[0];
    expect(call.extra_content).toEqual({ google: { thought_signature: 'SIG==' } });

    server.reset();
    server.enqueue(
      {
        sse: sseOf(
          chunk({ role: 'assistant', reasoning_details: [{ type: 'reasoning.text', text: 'Let me ', index: 0, format: 'anthropic-claude-v1' }] }),
          chunk({ reasoning_details: [{ type: 'reasoning.text', text: 'read it.', signature: 'abc', index: 0 }] }),
          chunk({ reasoning_details: [{ type: 'reasoning.encrypted', data: 'ENC', index: 1 }] }),
          chunk({ tool_calls: [{ index: 0, id: 'o1', type: 'function', function: { name: 'read_file', arguments: '{"path":"notes.txt"}' } }] }),
          chunk({}, 'tool_calls'),
        ),
      },
      { content: 'done' },
    );
    await replay(model('openrouter'), 'go');
    const assistant = (server.chatRequests[1]!.body.messages as any[]).find((m) => m.tool_calls);
    expect(assistant.reasoning_details).toEqual([
      { type: 'reasoning.text', text: 'Let me read it.', index: 0, format: 'anthropic-claude-v1', signature: 'abc' },
      { type: 'reasoning.encrypted', data: 'ENC', index: 1 },
    ]);
    // The plain OpenAI profile sends neither.
    server.reset();
    server.enqueue({ sse: sseOf(chunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'x1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a"}' }, extra_content: { google: { thought_signature: 'S' } } }] }), chunk({}, 'tool_calls')) }, { content: 'ok' });
    await replay(model('openai'), 'go');
    expect(JSON.stringify(server.chatRequests[1]!.body)).not.toContain('extra_content');
  });

  it('row 16: Mistral gets nine-letter ids, the same in the call and its result, even for ids another provider made', async () => {
    strictServer([idsNineAlnum, rolesAlternate, noStreamOptions], [readFileCall('call_0123456789abcdef'), { content: 'done' }]);
    const r = await replay(model('mistral'), 'go');
    expect(r.errors).toEqual([]);
    const msgs = server.chatRequests[1]!.body.messages as any[];
    const id = msgs.find((m) => m.tool_calls).tool_calls[0].id;
    expect(id).toMatch(/^[a-zA-Z0-9]{9}$/);
    expect(msgs.find((m) => m.role === 'tool').tool_call_id).toBe(id);
  });

  it('row 17: strict templates get alternating roles: tool→user bridged, user runs merged, empty replies dropped', async () => {
    strictServer([rolesAlternate], [{ content: 'fine' }]);
    const history: Message[] = [
      { role: 'user', content: 'read it' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'abc', function: { name: 'read_file', arguments: '{"path":"a"}' } }] },
      { role: 'tool', content: 'hi', toolCallId: 'abc', toolName: 'read_file' },
      { role: 'user', content: 'For context: [Other] said: x.' },
      { role: 'user', content: 'For context: [Other] said: y.' },
      { role: 'assistant', content: '' },
      { role: 'user', content: 'and now?' },
    ];
    const agent = new ChatModelAgent({ name: 'A', description: 'a', model: model('llamacpp'), retry: { maxRetries: 0 } });
    const events = [];
    for await (const e of new Runner({ agent, enableStreaming: true }).run(history)) events.push(e);
    expect(events.filter((e) => e.error)).toEqual([]);
    const roles = (server.chatRequests[0]!.body.messages as any[]).map((m) => m.role);
    expect(roles).toEqual(['user', 'assistant', 'tool', 'assistant', 'user']);
    // Lenient servers get the conversation as it is.
    server.reset();
    server.enqueue({ content: 'ok' });
    for await (const _ of new Runner({ agent: new ChatModelAgent({ name: 'A', description: 'a', model: model('openai') }), enableStreaming: true }).run(history));
    expect((server.chatRequests[0]!.body.messages as any[]).map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user', 'user', 'assistant', 'user']);
  });

  it('row 18: max_tokens goes as max_completion_tokens to Azure and OpenAI; a gateway that rejects max_tokens gets the other', async () => {
    server.enqueue({ content: 'a' });
    await replay(model('azure', { maxTokens: 100 }), 'hi');
    expect(server.chatRequests[0]!.body).toMatchObject({ max_completion_tokens: 100 });
    expect(server.chatRequests[0]!.body.max_tokens).toBeUndefined();

    server.reset();
    server.onRequest((r) =>
      r.body.max_tokens !== undefined
        ? { status: 400, errorBody: { error: { message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", type: 'invalid_request_error', param: 'max_tokens', code: 'unsupported_parameter' } } }
        : { content: 'ok' },
    );
    const r = await replay(model('openai', { maxTokens: 100 }), 'hi');
    expect(r.errors).toEqual([]);
    expect(server.chatRequests.map((q) => [q.body.max_tokens, q.body.max_completion_tokens])).toEqual([
      [100, undefined],
      [undefined, 100],
    ]);
  });

  it('issue 43 item 7: gpt-5 and the o-series get max_completion_tokens from the first request on any OpenAI-compatible URL', async () => {
    for (const name of ['gpt-5-mini', 'o4-mini', 'openai/gpt-5']) {
      server.reset();
      server.enqueue({ content: 'ok' });
      const r = await replay(model('openai', { model: name, maxTokens: 100 }), 'hi');
      expect(r.errors).toEqual([]);
      expect(server.chatRequests.map((q) => [q.body.max_tokens, q.body.max_completion_tokens])).toEqual([[undefined, 100]]);
    }
    // Other models behind a gateway still get max_tokens (what most servers take).
    server.reset();
    server.enqueue({ content: 'ok' });
    await replay(model('openai', { model: 'llama-3.3-70b', maxTokens: 100 }), 'hi');
    expect(server.chatRequests[0]!.body.max_tokens).toBe(100);
  });

  it('row 19: Azure classic: api-key header, api-version query, deployment path intact', async () => {
    server.enqueue({ content: 'hi from azure' });
    const base = server.url.replace(/\/v1$/, '') + '/openai/deployments/gpt-5-mini?api-version=2025-04-01-preview';
    const r = await replay(model('azure', { baseURL: base, apiKey: 'azure-key-123' }), 'hi');
    expect(r.errors).toEqual([]);
    const req = server.chatRequests[0]!;
    expect(req.path).toBe('/openai/deployments/gpt-5-mini/chat/completions?api-version=2025-04-01-preview');
    expect(req.headers['api-key']).toBe('azure-key-123');
    expect(req.headers.authorization).toBeUndefined();
  });

  it('per-model keys reach the request: headers, query, extra_body, sampling settings, parallel_tool_calls', async () => {
    server.enqueue({ content: 'ok' });
    await replay(
      model('openai', {
        headers: { 'X-Team': 'blue' },
        query: { tenant: 't1' },
        extraBody: { top_k: 20, chat_template_kwargs: { enable_thinking: false } },
        temperature: 0.2,
        topP: 0.9,
        stop: ['END'],
        seed: 7,
        reasoningEffort: 'low',
        parallelToolCalls: false,
        streamUsage: false,
      }),
      'hi',
    );
    const req = server.chatRequests[0]!;
    expect(req.headers['x-team']).toBe('blue');
    expect(req.path).toContain('tenant=t1');
    expect(req.body).toMatchObject({ top_k: 20, chat_template_kwargs: { enable_thinking: false }, temperature: 0.2, top_p: 0.9, stop: ['END'], seed: 7, reasoning_effort: 'low', parallel_tool_calls: false });
    expect(req.body.stream_options).toBeUndefined();
  });

  it('a tool round-trip on every profile, and what each sends back (usage option, token parameter, auth, echoes, ids, bridging)', async () => {
    const shapes: Record<string, unknown> = {};
    for (const p of ['openai', 'azure', 'ollama', 'vllm', 'lmstudio', 'llamacpp', 'deepseek', 'mistral', 'gemini', 'openrouter', 'groq', 'together'] as Profile[]) {
      server.reset();
      server.enqueue(
        {
          sse: sseOf(
            chunk({ role: 'assistant', reasoning_content: 'think', reasoning_details: [{ type: 'reasoning.encrypted', data: 'E', index: 0 }] }),
            chunk({ tool_calls: [{ index: 0, id: 'call_long_provider_id', type: 'function', function: { name: 'read_file', arguments: '{"path":"notes.txt"}' }, extra_content: { google: { thought_signature: 'S' } } }] }),
            chunk({}, 'tool_calls'),
          ),
        },
        { content: 'done' },
      );
      const r = await replay(model(p, { maxTokens: 50 }), 'read it');
      expect(r.errors, p).toEqual([]);
      expect(r.runs.map((x) => x.name), p).toEqual(['read_file']);
      expect(r.output, p).toBe('done');
      const [first, second] = server.chatRequests;
      const assistant = (second!.body.messages as any[]).find((m) => m.tool_calls);
      shapes[p] = {
        usage: !!first!.body.stream_options,
        tokens: first!.body.max_tokens !== undefined ? 'max_tokens' : 'max_completion_tokens',
        auth: first!.headers.authorization ? 'bearer' : first!.headers['api-key'] ? 'api-key' : 'none',
        reasoning: 'reasoning_content' in assistant,
        signatures: 'extra_content' in assistant.tool_calls[0] && 'reasoning_details' in assistant,
        id: assistant.tool_calls[0].id === 'call_long_provider_id' ? 'kept' : assistant.tool_calls[0].id.length,
      };
    }
    expect(shapes).toEqual({
      // A non-OpenAI base URL: most servers only know max_tokens (api.openai.com gets max_completion_tokens).
      openai: { usage: true, tokens: 'max_tokens', auth: 'bearer', reasoning: false, signatures: false, id: 'kept' },
      azure: { usage: true, tokens: 'max_completion_tokens', auth: 'api-key', reasoning: false, signatures: false, id: 'kept' },
      ollama: { usage: true, tokens: 'max_tokens', auth: 'bearer', reasoning: false, signatures: false, id: 'kept' },
      vllm: { usage: true, tokens: 'max_tokens', auth: 'bearer', reasoning: false, signatures: false, id: 'kept' },
      lmstudio: { usage: true, tokens: 'max_tokens', auth: 'bearer', reasoning: false, signatures: false, id: 'kept' },
      llamacpp: { usage: true, tokens: 'max_tokens', auth: 'bearer', reasoning: false, signatures: false, id: 'kept' },
      deepseek: { usage: true, tokens: 'max_tokens', auth: 'bearer', reasoning: true, signatures: false, id: 'kept' },
      mistral: { usage: false, tokens: 'max_tokens', auth: 'bearer', reasoning: false, signatures: false, id: 9 },
      gemini: { usage: true, tokens: 'max_tokens', auth: 'bearer', reasoning: false, signatures: true, id: 'kept' },
      openrouter: { usage: true, tokens: 'max_tokens', auth: 'bearer', reasoning: false, signatures: true, id: 'kept' },
      groq: { usage: false, tokens: 'max_tokens', auth: 'bearer', reasoning: false, signatures: false, id: 'kept' },
      together: { usage: true, tokens: 'max_tokens', auth: 'bearer', reasoning: false, signatures: false, id: 'kept' },
    });
  });
});
