import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/errors.js';
import { DemoModelPlaceholder, isDemoModelName, modelFromEnv, resolveModelSettings } from '../../src/core/models/from-env.js';
import { OpenAIChatModel } from '../../src/core/models/openai.js';
import { conciseDetail, parseRetryAfter, redact } from '../../src/core/models/openai-errors.js';
import { userMessage } from '../../src/core/schema/message.js';
import { startOpenAIServer, type OpenAITestServer } from '../support/openai-server.js';

let server: OpenAITestServer;
beforeAll(async () => {
  server = await startOpenAIServer({ apiKey: 'sk-from-env' });
});
afterAll(async () => {
  await server.close();
});

describe('modelFromEnv', () => {
  it('builds an OpenAI model from OPENAI_BASE_URL, OPENAI_API_KEY and ADK_MODEL, over real HTTP', async () => {
    const env = { OPENAI_BASE_URL: `${server.url}/`, OPENAI_API_KEY: 'sk-from-env', ADK_MODEL: 'llama3.1' };
    const model = modelFromEnv(env);
    expect(model).toBeInstanceOf(OpenAIChatModel);
    expect(model.modelName).toBe('llama3.1');
    server.enqueue({ content: 'configured' });
    expect((await model.generate([userMessage('hi')])).content).toBe('configured');
    expect(server.chatRequests[0].body.model).toBe('llama3.1');
  });

  it('lets overrides win and defaults the model to gpt-4o-mini', () => {
    const env = { OPENAI_API_KEY: 'sk-x', ADK_MODEL: 'from-env' };
    expect(modelFromEnv(env, { model: 'gpt-4.1' }).modelName).toBe('gpt-4.1');
    expect(modelFromEnv({ OPENAI_API_KEY: 'sk-x' }).modelName).toBe('gpt-4o-mini');
    expect(modelFromEnv({ OPENAI_API_KEY: 'sk-x', ADK_MODEL: '' }, { model: undefined }).modelName).toBe('gpt-4o-mini');
  });

  it('needs a key only for the official endpoint', () => {
    expect(() => modelFromEnv({})).toThrow(ConfigError);
    expect(() => modelFromEnv({ OPENAI_BASE_URL: '  ' })).toThrow(/OPENAI_API_KEY is not set/);
    expect(modelFromEnv({ OPENAI_BASE_URL: 'http://localhost:11434/v1' })).toBeInstanceOf(OpenAIChatModel);
  });

  it('returns a recognisable placeholder for the demo model, without needing a key', async () => {
    const model = modelFromEnv({ ADK_MODEL: 'demo' });
    expect(model).toBeInstanceOf(DemoModelPlaceholder);
    expect(isDemoModelName(model.modelName)).toBe(true);
    expect(isDemoModelName(modelFromEnv({}, { model: ' Demo ' }).modelName)).toBe(true);
    expect(isDemoModelName('gpt-4o-mini')).toBe(false);
    await expect(model.generate([userMessage('x')])).rejects.toThrow(ConfigError);
  });

  it('resolves displayable settings without the key', () => {
    const settings = resolveModelSettings({ OPENAI_API_KEY: 'sk-secret', OPENAI_BASE_URL: 'http://h:1/v1/', ADK_MODEL: 'm' });
    expect(settings).toEqual({ model: 'm', baseURL: 'http://h:1/v1', hasKey: true });
    expect(JSON.stringify(settings)).not.toContain('sk-secret');
    expect(resolveModelSettings({}, { model: 'x' })).toEqual({ model: 'x', baseURL: 'https://api.openai.com/v1', hasKey: false });
  });
});

describe('error helpers', () => {
  const headers = (h: Record<string, string>) => new Headers(h);

  it('parses retry-after in seconds, as an HTTP date, and retry-after-ms first', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter(headers({ 'retry-after': '2' }), now)).toBe(2000);
    expect(parseRetryAfter(headers({ 'retry-after': '0.5' }), now)).toBe(500);
    expect(parseRetryAfter(headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:07 GMT' }), now)).toBe(7000);
    expect(parseRetryAfter(headers({ 'retry-after': 'Tue, 31 Dec 2024 00:00:00 GMT' }), now)).toBe(0);
    expect(parseRetryAfter(headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250);
    expect(parseRetryAfter(headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(parseRetryAfter(headers({}), now)).toBeUndefined();
  });

  it('redacts the key, bearer tokens and URL credentials', () => {
    expect(redact('key sk-abc123 leaked', 'sk-abc123')).toBe('key *** leaked');
    expect(redact('Authorization: Bearer tok_123, next')).toBe('Authorization: Bearer ***, next');
    expect(redact('at https://user:pw@host/v1')).toBe('at https://***@host/v1');
  });

  it('shortens HTML error pages to their title and long bodies to one line', () => {
    expect(conciseDetail('<html><head><title>502 Bad Gateway</title></head><body><h1>nginx</h1></body></html>')).toBe('502 Bad Gateway');
    expect(conciseDetail('<div>gateway\n  <b>down</b></div>')).toBe('gateway down');
    expect(conciseDetail('x'.repeat(1000)).length).toBe(501); // the first 500 characters and an ellipsis
  });
});
