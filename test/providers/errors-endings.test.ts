import { describe, expect, it } from 'vitest';
import { ModelHttpError } from '../../src/core/errors.js';
import { OpenAIChatModel } from '../../src/core/models/openai.js';
import { PROFILES, type ProviderName } from '../../src/core/models/providers.js';
import { useOpenAIServer, type OpenAITestServer } from '../support/openai-server.js';
import { chunk, replay, sseOf } from './helpers.js';

// Rows 10, 13, 14 and 20 of issue 13: honest endings, error bodies of any shape, the first-token wait.
let server: OpenAITestServer;
useOpenAIServer((s) => (server = s));

type Profile = Exclude<ProviderName, 'demo'>;
const model = (provider: Profile = 'openai', o: Partial<ConstructorParameters<typeof OpenAIChatModel>[0]> = {}) =>
  new OpenAIChatModel({ model: 'rec', apiKey: 'sk-secret-key-1234', baseURL: server.url, profile: PROFILES[provider], configName: 'main', ...o });

async function failure(m: OpenAIChatModel): Promise<ModelHttpError> {
  const r = await replay(m, 'hi');
  expect(r.errors).toHaveLength(1);
  return r.errors[0] as ModelHttpError;
}

describe('honest endings and errors', () => {
  it('row 10: error bodies without an `error` key, or as a list, are shown (and the key is redacted)', async () => {
    const bodies: Array<[unknown, string]> = [
      [{ object: 'error', message: 'Invalid model: rec', type: 'invalid_model', code: '1500' }, 'Invalid model: rec'], // Mistral
      [{ detail: 'Model rec not found' }, 'Model rec not found'], // older vLLM
      [{ detail: [{ loc: ['body', 'messages', 0, 'content'], msg: 'field required', type: 'missing' }] }, 'body.messages.0.content: field required'],
      [[{ error: { code: 400, message: 'API key sk-secret-key-1234 not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT' } }], 'API key *** not valid'], // Gemini
      ['upstream said: bad gateway config', 'upstream said: bad gateway config'],
    ];
    for (const [body, expected] of bodies) {
      server.reset();
      server.enqueue({ status: 400, errorBody: body });
      const err = await failure(model());
      expect(err).toBeInstanceOf(ModelHttpError);
      expect(err.message).toContain(expected);
      expect(err.message).not.toContain('sk-secret-key-1234');
      expect(err.message).not.toMatch(/HTTP 400: Bad Request$/);
    }
  });

  it('row 10: 400/404/422 are not retried', async () => {
    for (const status of [400, 404, 422]) {
      server.reset();
      server.onRequest(() => ({ status, errorBody: { message: 'nope' } }));
      await failure(model());
      expect(server.chatRequests).toHaveLength(1);
    }
  });

  it('row 13: finish_reason length or content_filter ends the run as incomplete, the partial reply kept', async () => {
    for (const reason of ['length', 'content_filter']) {
      server.reset();
      server.enqueue({ sse: sseOf(chunk({ role: 'assistant', content: 'The answer is a long' }), chunk({}, reason)) });
      const r = await replay(model(), 'hi');
      expect(r.output).toBe('The answer is a long');
      expect(r.errors.map((e) => (e as { code?: string }).code)).toEqual(['incomplete']);
      expect(r.errors[0]!.message).toContain(`finish_reason: ${reason}`);
    }
  });

  it('row 14: Groq 400 tool_use_failed is retried once; a second failure is reported', async () => {
    const groqError = { status: 400, errorBody: { error: { message: 'Failed to call a function. Please adjust your prompt.', type: 'invalid_request_error', code: 'tool_use_failed', failed_generation: '<function=read_file>{"path": notes.txt}</function>' } } };
    server.enqueue(groqError, { content: 'second sample worked' });
    const ok = await replay(model('groq'), 'hi');
    expect(ok.errors).toEqual([]);
    expect(ok.output).toBe('second sample worked');

    server.reset();
    server.onRequest(() => groqError);
    const bad = await replay(model('groq'), 'hi');
    expect(bad.errors).toHaveLength(1);
    expect(bad.errors[0]!.message).toContain('Failed to call a function');
    expect(server.chatRequests).toHaveLength(2);
  });

  it('row 20: a local server that is silent for longer than the idle limit before its first token is waited for', async () => {
    const slowFirstToken = { delayMs: 700, content: 'loaded and answered' };
    server.enqueue(slowFirstToken);
    const r = await replay(model('ollama', { idleTimeoutMs: 250 }), 'hi');
    expect(r.errors).toEqual([]);
    expect(r.output).toBe('loaded and answered');
    expect(server.chatRequests).toHaveLength(1);
    // A hosted profile keeps the idle limit from the start (here: no retries, one timeout).
    server.reset();
    server.onRequest(() => slowFirstToken);
    const hosted = await replay(new OpenAIChatModel({ model: 'rec', baseURL: server.url, idleTimeoutMs: 250 }), 'hi').catch((e) => e);
    expect(hosted.errors[0].message).toMatch(/idle timeout/);
  });

  it('a rejected parameter the user set is named with the model key that changes it', async () => {
    server.onRequest(() => ({ status: 400, errorBody: { error: { message: "Unsupported value: 'temperature' does not support 0.2 with this model. Only the default (1) value is supported.", type: 'invalid_request_error', param: 'temperature' } } }));
    const err = await failure(model('openai', { temperature: 0.2 }));
    expect(err.message).toContain("the server rejected `temperature`: remove or change `temperature` on model 'main' in agents.yaml");
  });

  it('a plain word is not a parameter: "stop" in prose gets no hint; a quoted or field name does', async () => {
    server.onRequest(() => ({ status: 400, errorBody: { error: { message: 'Please stop sending requests this large.' } } }));
    expect((await failure(model('openai', { stop: ['END'] }))).message).not.toContain('the server rejected');
    server.reset();
    server.onRequest(() => ({ status: 422, errorBody: { detail: [{ loc: ['body', 'seed'], msg: 'Extra inputs are not permitted' }] } }));
    expect((await failure(model('openai', { seed: 3 }))).message).toContain('the server rejected `seed`');
  });

  it('a huge error body is read only as far as a message needs', async () => {
    server.onRequest(() => ({ status: 400, errorBody: 'x'.repeat(20 * 1024 * 1024) }));
    const err = await failure(model());
    expect(err.message.length).toBeLessThan(700);
    expect(err.message).toContain('xxxx');
  });

  it("wrong endpoints get a hint: a base URL without /v1, and Ollama's native /api", async () => {
    server.reset();
    const noV1 = await failure(new OpenAIChatModel({ model: 'rec', baseURL: server.url.replace(/\/v1$/, '') }));
    expect(noV1.message).toContain(`set base_url to that`);
    const api = await failure(new OpenAIChatModel({ model: 'rec', baseURL: server.url.replace(/\/v1$/, '/api') }));
    expect(api.message).toContain("Ollama's native API");
    server.enqueue({ sse: ['{"model":"rec","message":{"role":"assistant","content":"hi"},"done":false}\n'], headers: { 'content-type': 'application/x-ndjson' } });
    const ndjson = await replay(model(), 'hi');
    expect(ndjson.errors[0]!.message).toContain("answered with NDJSON, which is Ollama's native API; use its OpenAI-compatible endpoint");
    expect(server.chatRequests).toHaveLength(1);
  });
});
