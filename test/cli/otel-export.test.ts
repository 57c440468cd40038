import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useOpenAIServer, type OpenAITestServer } from '../support/openai-server.js';
import { runCli } from '../support/cli.js';

// Issue 16: `adk run --otel` exports the run's spans over OTLP/HTTP (a local collector here),
// after the GenAI conventions, without the key, the prompt or the answer.
let server: OpenAITestServer;
useOpenAIServer((s) => (server = s));

let collector: http.Server;
let endpoint = '';
const posts: Array<{ path: string; body: string }> = [];
beforeAll(async () => {
  collector = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      posts.push({ path: req.url ?? '', body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => collector.listen(0, '127.0.0.1', r));
  endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => collector.close(() => r())));

describe('adk run --otel', () => {
  it('sends invoke_agent, chat and execute_tool spans to the OTLP endpoint, and nothing secret', async () => {
    server.enqueue({ toolCalls: [{ name: 'current_time', arguments: {} }], usage: { promptTokens: 40, completionTokens: 5 } }, { content: 'The secret answer is 42.', usage: { promptTokens: 60, completionTokens: 7 } });
    const env = { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'sk-test-otel-key-123456', ADK_MODEL: 'gpt-test', OTEL_EXPORTER_OTLP_ENDPOINT: endpoint };
    const r = await runCli(['run', '--json', 'what time is it, privately?'], { env });
    expect(r.code, r.stderr).toBe(0);
    const traces = posts.filter((p) => p.path === '/v1/traces');
    expect(traces.length).toBeGreaterThan(0);
    const all = traces.map((t) => t.body).join('\n');
    const names = [...all.matchAll(/"name":"([^"]+)"/g)].map((m) => m[1]);
    expect(names).toEqual(expect.arrayContaining(['invoke_agent assistant', 'chat gpt-test', 'execute_tool current_time']));
    expect(all).toContain('gen_ai.usage.input_tokens');
    expect(all).toContain('"service.name"');
    for (const secret of ['sk-test-otel-key-123456', 'privately', 'secret answer']) expect(all).not.toContain(secret);
  });

  it('without --otel or an endpoint nothing is sent', async () => {
    posts.length = 0;
    server.enqueue({ content: 'hi' });
    const r = await runCli(['run', '--json', 'hi'], { env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'k', ADK_MODEL: 'gpt-test', OTEL_EXPORTER_OTLP_ENDPOINT: undefined } });
    expect(r.code).toBe(0);
    expect(posts).toEqual([]);
  });
});
