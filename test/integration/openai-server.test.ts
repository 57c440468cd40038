import { describe, expect, it } from 'vitest';
import { startOpenAIServer, useOpenAIServer, type OpenAITestServer } from '../support/openai-server.js';

// The test server checked on the wire with plain fetch, so the SDK tests rest on a faithful OpenAI imitation.
let server: OpenAITestServer;
useOpenAIServer((s) => (server = s));

const post = (body: object, init: RequestInit = {}) =>
  fetch(`${server.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    ...init,
  });

async function sseEvents(res: Response): Promise<string[]> {
  const text = await res.text();
  expect(text.endsWith('\n\n')).toBe(true);
  const events = text.slice(0, -2).split('\n\n');
  for (const e of events) expect(e.startsWith('data: ')).toBe(true);
  return events.map((e) => e.slice('data: '.length));
}

const messages = [{ role: 'user', content: 'hi' }];

describe('openai test server', () => {
  it('streams SSE like OpenAI: role first, tool deltas by index, finish, usage, [DONE]', async () => {
    server.enqueue({
      content: 'Hi!',
      toolCalls: [
        { id: 'call_a', name: 'alpha', arguments: { x: 1 } },
        { id: 'call_b', name: 'beta', arguments: '{"y":2}' },
      ],
    });
    const res = await post({ model: 'm', messages, stream: true, stream_options: { include_usage: true } });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const events = await sseEvents(res);
    expect(events[events.length - 1]).toBe('[DONE]');
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e));
    for (const c of chunks) expect(c).toMatchObject({ id: 'chatcmpl-test-0', object: 'chat.completion.chunk', model: 'm' });
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    expect(chunks.slice(1, -2).every((c) => c.usage === null && c.choices[0].finish_reason === null)).toBe(true);

    const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
    expect(text).toBe('Hi!');
    const toolDeltas = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    expect(toolDeltas[0]).toEqual({ index: 0, id: 'call_a', type: 'function', function: { name: 'alpha', arguments: '' } });
    expect(toolDeltas[1]).toEqual({ index: 1, id: 'call_b', type: 'function', function: { name: 'beta', arguments: '' } });
    for (const d of toolDeltas.slice(2)) expect(Object.keys(d).sort()).toEqual(['function', 'index']);
    expect(toolDeltas.slice(2).map((d) => d.index)).toEqual([0, 1, 0, 1]);
    const args = (i: number) => toolDeltas.filter((d) => d.index === i).map((d) => d.function.arguments).join('');
    expect([args(0), args(1)]).toEqual(['{"x":1}', '{"y":2}']);

    const finish = chunks[chunks.length - 2];
    expect(finish.choices[0]).toMatchObject({ delta: {}, finish_reason: 'tool_calls' });
    const usage = chunks[chunks.length - 1];
    expect(usage.choices).toEqual([]);
    expect(usage.usage).toMatchObject({ prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number) });
  });

  it('sends no usage chunk without stream_options.include_usage', async () => {
    server.enqueue({ content: 'abc' });
    const events = await sseEvents(await post({ model: 'm', messages, stream: true }));
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e));
    expect(chunks.every((c) => c.choices.length === 1 && !('usage' in c))).toBe(true);
    expect(chunks[chunks.length - 1].choices[0].finish_reason).toBe('stop');
  });

  it('answers non-streaming requests with a chat.completion', async () => {
    server.enqueue({ content: 'whole', reasoning: 'hmm', usage: { promptTokens: 1, completionTokens: 2 } });
    const body = await (await post({ model: 'm', messages })).json();
    expect(body).toMatchObject({
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content: 'whole', reasoning_content: 'hmm' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
    });
  });

  it('records requests, serves the queue first and then the handler', async () => {
    server.enqueue({ content: 'queued' });
    server.onRequest((req, index) => ({ content: `echo ${req.body.messages[0].content} #${index}` }));
    const first: any = await (await post({ model: 'm', messages })).json();
    const second: any = await (await post({ model: 'm', messages: [{ role: 'user', content: 'ping' }] })).json();
    expect(first.choices[0].message.content).toBe('queued');
    expect(second.choices[0].message.content).toBe('echo ping #1');
    expect(server.chatRequests.map((r) => r.body.messages[0].content)).toEqual(['hi', 'ping']);
    expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/v1/chat/completions', aborted: false });
  });

  it('answers 500 with a clear message when nothing is scripted', async () => {
    const res = await post({ model: 'm', messages });
    expect(res.status).toBe(500);
    expect(((await res.json()) as any).error.message).toContain('no scripted reply');
  });

  it('sends error statuses with an OpenAI-style body and custom headers', async () => {
    server.enqueue({ status: 429, errorMessage: 'slow down', headers: { 'retry-after': '3' } });
    const res = await post({ model: 'm', messages, stream: true });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('3');
    expect(await res.json()).toEqual({ error: { message: 'slow down', type: 'rate_limit_exceeded', param: null, code: null } });
  });

  it('counts a request the client aborts, but not finished or deliberately reset ones', async () => {
    server.enqueue({ content: 'done' }, { content: 'reset', resetAfterChunks: 1 }, { content: 'stalls', hang: 'after-first-chunk' });
    await (await post({ model: 'm', messages, stream: true })).text();
    await expect((await post({ model: 'm', messages, stream: true })).text()).rejects.toThrow();
    const ctrl = new AbortController();
    const res = await post({ model: 'm', messages, stream: true }, { signal: ctrl.signal });
    const reader = res.body!.getReader();
    await reader.read();
    expect(server.openRequests).toBe(1);
    ctrl.abort();
    await server.waitForAborted(1);
    expect(server.abortedRequests).toBe(1);
    expect(server.chatRequests.map((r) => r.aborted)).toEqual([false, false, true]);
    expect(server.openRequests).toBe(0);
  });

  it('checks the API key when asked to, and lists a model', async () => {
    const locked = await startOpenAIServer({ apiKey: 'sk-right' });
    try {
      locked.enqueue({ content: 'ok' });
      const call = (key: string) =>
        fetch(`${locked.url}/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
          body: JSON.stringify({ model: 'm', messages }),
        });
      expect((await call('sk-wrong')).status).toBe(401);
      expect((await call('sk-right')).status).toBe(200);
      const models: any = await (await fetch(`${locked.url}/models`, { headers: { authorization: 'Bearer sk-right' } })).json();
      expect(models.data[0].id).toBe('test-model');
    } finally {
      await locked.close();
    }
  });
});
