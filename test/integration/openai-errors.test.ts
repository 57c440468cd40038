import { describe, expect, it } from 'vitest';
import { CancelledError, ModelConnectionError, ModelHttpError, ModelTimeoutError, isRetryable } from '../../src/core/errors.js';
import { OpenAIChatModel, type OpenAIChatModelOptions } from '../../src/core/models/openai.js';
import { userMessage, type MessageChunk } from '../../src/core/schema/message.js';
import { startOpenAIServer, useOpenAIServer, type OpenAITestServer, type ServerReply } from '../support/openai-server.js';

const API_KEY = 'sk-test-SECRET-0123456789abcdef';

let server: OpenAITestServer;
useOpenAIServer((s) => (server = s));

const model = (o: Partial<OpenAIChatModelOptions> = {}) =>
  new OpenAIChatModel({ model: 'test-model', apiKey: API_KEY, baseURL: server.url, ...o });

/** The error a streamed call fails with, plus the chunks that arrived before it. */
async function streamError(o: Partial<OpenAIChatModelOptions> = {}, signal?: AbortSignal): Promise<{ error: Error; chunks: MessageChunk[] }> {
  const chunks: MessageChunk[] = [];
  try {
    for await (const c of model(o).stream([userMessage('hi')], { signal })) chunks.push(c);
  } catch (error) {
    return { error: error as Error, chunks };
  }
  throw new Error(`stream did not fail; got ${chunks.length} chunks`);
}

async function generateError(o: Partial<OpenAIChatModelOptions> = {}, signal?: AbortSignal): Promise<Error> {
  try {
    await model(o).generate([userMessage('hi')], { signal });
  } catch (error) {
    return error as Error;
  }
  throw new Error('generate did not fail');
}

describe('HTTP status errors', () => {
  it('maps 500 to a retryable ModelHttpError with the body message', async () => {
    server.enqueue({ status: 500, errorMessage: 'The server had an error while processing your request.' });
    const { error } = await streamError();
    expect(error).toBeInstanceOf(ModelHttpError);
    expect((error as ModelHttpError).status).toBe(500);
    expect(error.message).toBe('model request failed with HTTP 500: The server had an error while processing your request.');
    expect(isRetryable(error)).toBe(true);
  });

  it('parses retry-after seconds on a 429', async () => {
    server.enqueue({ status: 429, errorMessage: 'Rate limit reached', headers: { 'retry-after': '2' } });
    const error = (await streamError()).error as ModelHttpError;
    expect(error).toBeInstanceOf(ModelHttpError);
    expect(error.status).toBe(429);
    expect(error.retryAfterMs).toBe(2000);
    expect(error.retryable).toBe(true);
  });

  it('parses retry-after-ms and an HTTP-date retry-after', async () => {
    server.enqueue(
      { status: 429, headers: { 'retry-after-ms': '1500', 'retry-after': '9' } },
      { status: 503, headers: { 'retry-after': new Date(Date.now() + 30_000).toUTCString() } },
    );
    expect(((await generateError()) as ModelHttpError).retryAfterMs).toBe(1500);
    const dated = (await generateError()) as ModelHttpError;
    expect(dated.status).toBe(503);
    expect(dated.retryAfterMs).toBeGreaterThan(25_000);
    expect(dated.retryAfterMs).toBeLessThanOrEqual(30_000);
  });

  it('marks 400 and 401 as not retryable', async () => {
    server.enqueue({ status: 400, errorMessage: "Invalid value for 'model'" }, { status: 401, errorMessage: 'Incorrect API key provided' });
    const bad = await generateError();
    expect(bad).toBeInstanceOf(ModelHttpError);
    expect(bad.message).toContain("Invalid value for 'model'");
    expect(isRetryable(bad)).toBe(false);
    const unauthorized = (await streamError()).error as ModelHttpError;
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.retryable).toBe(false);
  });
});

describe('connection failures', () => {
  it('maps connection refused to a retryable ModelConnectionError naming the endpoint', async () => {
    const dead = await startOpenAIServer();
    const url = dead.url;
    await dead.close();
    const { error } = await streamError({ baseURL: url });
    expect(error).toBeInstanceOf(ModelConnectionError);
    expect(error.message).toContain(url);
    expect(error.message).toContain('ECONNREFUSED');
    expect(isRetryable(error)).toBe(true);
  });

  it('maps a socket reset mid-stream to a retryable ModelConnectionError after the first chunks', async () => {
    server.enqueue({ content: 'this will be cut off', resetAfterChunks: 3 });
    const { error, chunks } = await streamError();
    expect(error).toBeInstanceOf(ModelConnectionError);
    expect(error.message).toMatch(/lost mid-response/);
    expect(isRetryable(error)).toBe(true);
    expect(chunks.map((c) => c.content ?? '').join('')).toBe('this w'); // role, 'thi', 's w'
  });

  it('maps a reset during a non-streaming response to ModelConnectionError', async () => {
    server.enqueue({ content: 'x', resetAfterChunks: 0 });
    const error = await generateError();
    expect(error).toBeInstanceOf(ModelConnectionError);
    expect(isRetryable(error)).toBe(true);
  });

  it('maps a 200 HTML page to a non-retryable ModelConnectionError, streamed or not', async () => {
    server.enqueue({ html: true }, { html: true });
    for (const error of [(await streamError()).error, await generateError()]) {
      expect(error).toBeInstanceOf(ModelConnectionError);
      expect(error.message).toContain('HTML page');
      expect(error.message).toContain('OPENAI_BASE_URL');
      expect(isRetryable(error)).toBe(false);
    }
  });

  it('maps an SSE chunk with invalid JSON to a retryable ModelConnectionError', async () => {
    server.enqueue({ content: 'hello', invalidJsonChunk: true }, { content: 'x', invalidJsonChunk: true });
    const { error } = await streamError();
    expect(error).toBeInstanceOf(ModelConnectionError);
    expect(error.message).toContain('invalid JSON');
    expect(isRetryable(error)).toBe(true);
    const whole = await generateError();
    expect(whole).toBeInstanceOf(ModelConnectionError);
    expect(whole.message).toContain('invalid JSON');
  });

  it('maps a stream that ends without finish_reason or [DONE] to a retryable ModelConnectionError', async () => {
    server.enqueue({ content: 'all of the text, then silence', truncate: true });
    const { error, chunks } = await streamError();
    expect(error).toBeInstanceOf(ModelConnectionError);
    expect(error.message).toContain('ended before the reply was complete');
    expect(isRetryable(error)).toBe(true);
    expect(chunks.map((c) => c.content ?? '').join('')).toBe('all of the text, then silence');
  });
});

describe('timeouts and cancellation', () => {
  it('fails with an idle ModelTimeoutError when the stream stalls, and aborts the HTTP request', async () => {
    server.enqueue({ content: 'starts then stalls', hang: 'after-first-chunk' });
    const { error, chunks } = await streamError({ idleTimeoutMs: 150 });
    expect(error).toBeInstanceOf(ModelTimeoutError);
    expect(error).toMatchObject({ phase: 'idle', timeoutMs: 150 });
    expect(chunks).toEqual([{ role: 'assistant' }]);
    await server.waitForAborted(1);
  });

  it('applies the idle timeout while waiting for the headers too', async () => {
    server.enqueue({ hang: 'before-headers' });
    const { error } = await streamError({ idleTimeoutMs: 150 });
    expect(error).toMatchObject({ phase: 'idle' });
    await server.waitForAborted(1);
  });

  it('fails with a request ModelTimeoutError when the whole stream takes too long', async () => {
    server.enqueue({ content: 'slow but steady '.repeat(10), chunkSize: 2, chunkDelayMs: 20 });
    const { error, chunks } = await streamError({ timeoutMs: 250, idleTimeoutMs: 5000 });
    expect(error).toBeInstanceOf(ModelTimeoutError);
    expect(error).toMatchObject({ phase: 'request', timeoutMs: 250 });
    expect(chunks.length).toBeGreaterThan(1);
    await server.waitForAborted(1);
  });

  it('applies the request timeout to non-streaming calls', async () => {
    server.enqueue({ hang: 'before-headers' });
    const error = await generateError({ timeoutMs: 200 });
    expect(error).toBeInstanceOf(ModelTimeoutError);
    expect(error).toMatchObject({ phase: 'request', timeoutMs: 200 });
    await server.waitForAborted(1);
  });

  it('cancels mid-stream via AbortSignal and really aborts the HTTP request', async () => {
    server.enqueue({ content: 'a long answer that is never finished', hang: 'after-first-chunk' });
    const ctrl = new AbortController();
    const chunks: MessageChunk[] = [];
    let error: unknown;
    try {
      for await (const c of model().stream([userMessage('hi')], { signal: ctrl.signal })) {
        chunks.push(c);
        setTimeout(() => ctrl.abort(), 20);
      }
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CancelledError);
    expect(chunks).toHaveLength(1);
    await server.waitForAborted(1);
    expect(server.abortedRequests).toBe(1);
    expect(server.chatRequests[0].aborted).toBe(true);
  });

  it('cancels while waiting for the headers, streamed or not', async () => {
    server.enqueue({ hang: 'before-headers' }, { hang: 'before-headers' });
    const a = new AbortController();
    setTimeout(() => a.abort(), 50);
    expect((await streamError({}, a.signal)).error).toBeInstanceOf(CancelledError);
    const b = new AbortController();
    setTimeout(() => b.abort(), 50);
    expect(await generateError({}, b.signal)).toBeInstanceOf(CancelledError);
    await server.waitForAborted(2);
  });

  it('sends nothing when the signal is already aborted', async () => {
    const ctrl = new AbortController();
    ctrl.abort();
    expect((await streamError({}, ctrl.signal)).error).toBeInstanceOf(CancelledError);
    expect(await generateError({}, ctrl.signal)).toBeInstanceOf(CancelledError);
    expect(server.chatRequests).toHaveLength(0);
  });
});

describe('the API key', () => {
  it('never appears in any error message, even when the server echoes it', async () => {
    const echo = `Incorrect API key provided: ${API_KEY}. Authorization: Bearer ${API_KEY}`;
    const replies: ServerReply[] = [
      { status: 401, errorMessage: echo },
      { status: 500, errorMessage: echo },
      { status: 429, errorMessage: echo, headers: { 'retry-after': '1' } },
      { html: true },
      { content: 'x', invalidJsonChunk: true },
      { content: 'x', truncate: true },
      { content: 'x', resetAfterChunks: 1 },
      { content: 'x', hang: 'after-first-chunk' },
    ];
    const errors: Error[] = [];
    for (const reply of replies) {
      server.enqueue(reply);
      errors.push((await streamError({ idleTimeoutMs: 250 })).error);
      server.enqueue(reply);
      errors.push(await generateError({ timeoutMs: 300 }));
    }
    const dead = await startOpenAIServer();
    await dead.close();
    errors.push((await streamError({ baseURL: dead.url })).error);
    expect(errors.every((e) => e instanceof ModelHttpError || e instanceof ModelConnectionError || e instanceof ModelTimeoutError)).toBe(true);
    for (const e of errors) {
      expect(e.message).not.toContain(API_KEY);
      expect(String(e.stack)).not.toContain(API_KEY);
    }
    expect(errors[0].message).toContain('Incorrect API key provided: ***');
  });
});
