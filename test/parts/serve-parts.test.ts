import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ChatModelAgent } from '../../src/core/agents/chat-model-agent.js';
import { AnthropicChatModel } from '../../src/core/models/anthropic.js';
import { BedrockChatModel } from '../../src/core/models/bedrock.js';
import type { ChatModel } from '../../src/core/models/chat-model.js';
import { GoogleChatModel } from '../../src/core/models/google.js';
import { OpenAIChatModel } from '../../src/core/models/openai.js';
import { OpenAIResponsesModel } from '../../src/core/models/openai-responses.js';
import { openAdkStores, type AdkStores } from '../../src/core/store/index.js';
import { SessionHub } from '../../src/serve/session-hub.js';
import { startServer, type RunningServer } from '../../src/serve/server.js';
import { useAnthropicServer } from '../support/anthropic-server.js';
import { useOpenAIServer } from '../support/openai-server.js';
import { useReplayServer } from '../support/replay-server.js';
import { answer, expectPartsSent, partsEnv, pdf64, png64, PROVIDERS, requestCount, type Servers } from './wire.js';

// `adk serve`: POST /v1/sessions/:id/messages with `parts` (base64 in the JSON body, checked by the
// zod schema), reaching each provider's request in its own format.
const s = {} as Servers;
useOpenAIServer((x) => (s.openai = x));
useAnthropicServer((x) => (s.anthropic = x));
useReplayServer((x) => (s.replay = x));
const saved: Record<string, string | undefined> = {};
beforeAll(() => {
  for (const [k, v] of Object.entries(partsEnv)) {
    saved[k] = process.env[k];
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});
afterAll(() => {
  for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k];
  else process.env[k] = v;
});

function modelFor(agent: string): ChatModel {
  if (agent === 'responses') return new OpenAIResponsesModel({ model: 'gpt-5.1', apiKey: 'sk-t', baseURL: `${s.replay.url}/v1` });
  if (agent === 'anthropic') return new AnthropicChatModel({ model: 'claude-sonnet-4-5', apiKey: 'ak-t', baseURL: s.anthropic.url });
  if (agent === 'gemini') return new GoogleChatModel({ model: 'gemini-2.5-flash', apiKey: 'AIza-t', baseURL: s.replay.url });
  if (agent === 'bedrock') return new BedrockChatModel({ model: 'anthropic.claude-3-7-sonnet-20250219-v1:0', baseURL: s.replay.url });
  return new OpenAIChatModel({ model: agent === 'blind' ? 'my-text-model' : 'gpt-4o', apiKey: 'sk-t', baseURL: s.openai.url, vision: agent === 'blind' ? false : undefined });
}

const open: Array<{ server: RunningServer; stores: AdkStores }> = [];
afterEach(async () => {
  for (const { server, stores } of open.splice(0)) {
    await server.close({ cancel: true });
    await stores.close();
  }
});

async function serve() {
  const stores = await openAdkStores('memory://');
  const team = (agent = 'chat') => ({ agent: new ChatModelAgent({ name: agent, description: 'looks', model: modelFor(agent), retry: { maxRetries: 0, baseDelayMs: 1 } }) });
  const hub = new SessionHub({ stores, newTeam: async (agent) => team(agent), sessionTeam: async (r) => team(r.rootAgent) });
  const server = await startServer({ hub, agents: () => ({ name: 'chat', children: [] }), token: 'test-token-parts-0123456789' }, { host: '127.0.0.1', port: 0 });
  open.push({ server, stores });
  const call = (path: string, json?: unknown) =>
    fetch(`${server.url}${path}`, { method: json === undefined ? 'GET' : 'POST', headers: { authorization: 'Bearer test-token-parts-0123456789', 'content-type': 'application/json', accept: 'application/json' }, body: json === undefined ? undefined : JSON.stringify(json) });
  const session = async (agent: string) => ((await (await call('/v1/sessions', { agent })).json()) as { id: string }).id;
  return { call, session, stores };
}

const parts = [
  { type: 'image', name: 'red.png', data: png64 },
  { type: 'file', mimeType: 'application/pdf', name: 'invoice.pdf', data: `data:application/pdf;base64,${pdf64}` },
];

describe('serve: POST /v1/sessions/:id/messages with parts', () => {
  for (const p of PROVIDERS) {
    it(`reaches ${p} in its format`, async () => {
      const { call, session } = await serve();
      const id = await session(p);
      answer(s, p);
      const res = await call(`/v1/sessions/${id}/messages`, { content: 'What is in these?', parts });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { status: string }).status).toBe('completed');
      expect(requestCount(s)).toBe(1);
      expectPartsSent(s, p, 'What is in these?');
    });
  }

  it('a model without vision: the turn fails with the reason and the server sees no request; bad parts are 400/413 naming the part', async () => {
    const { call, session } = await serve();
    const id = await session('blind');
    const res = await call(`/v1/sessions/${id}/messages`, { content: 'look', parts });
    const body = (await res.json()) as { status: string; error?: string };
    expect(body.status).toBe('error');
    expect(body.error).toContain('model my-text-model does not take images and PDFs: nothing was sent');
    expect(requestCount(s)).toBe(0);

    const chat = await session('chat');
    const notImage = await call(`/v1/sessions/${chat}/messages`, { content: 'x', parts: [{ type: 'image', name: 'a.txt', data: Buffer.from('hello').toString('base64') }] });
    expect(notImage.status).toBe(400);
    expect(await notImage.json()).toEqual({ error: { code: 'unsupported_part', message: 'a.txt: not a PNG, JPEG, WebP, GIF or PDF file', path: 'parts.0' } });
    const wrongType = await call(`/v1/sessions/${chat}/messages`, { content: 'x', parts: [{ type: 'image', name: 'i.pdf', data: pdf64 }] });
    expect(((await wrongType.json()) as any).error.message).toBe('i.pdf: declared image, but the bytes are application/pdf');
    const big = Buffer.alloc(21 * 1024 * 1024);
    Buffer.from(png64, 'base64').copy(big);
    const tooBig = await call(`/v1/sessions/${chat}/messages`, { content: 'x', parts: [{ type: 'image', name: 'big.png', data: big.toString('base64') }] });
    expect(tooBig.status).toBe(413);
    expect(((await tooBig.json()) as any).error.message).toBe('big.png: 21 MB is over the 20 MB limit for an image');
    const schema = await call(`/v1/sessions/${chat}/messages`, { content: '', parts: [] });
    expect(((await schema.json()) as any).error).toMatchObject({ code: 'invalid_body', path: 'content' });
    expect(requestCount(s)).toBe(0);
  });

  it('two messages with the same image: one artifact; /openapi.json documents parts', async () => {
    const { call, session, stores } = await serve();
    const id = await session('chat');
    answer(s, 'chat');
    answer(s, 'chat');
    await call(`/v1/sessions/${id}/messages`, { content: 'one', parts: parts.slice(0, 1) });
    await call(`/v1/sessions/${id}/messages`, { content: 'two', parts: parts.slice(0, 1) });
    expect(await stores.kv.list(`artifact:${id}:`)).toHaveLength(1);
    const view = (await (await call(`/v1/sessions/${id}`)).json()) as { messages: Array<{ role: string; parts?: unknown[] }> };
    expect(view.messages.filter((m) => m.role === 'user').map((m) => m.parts)).toEqual([
      [expect.objectContaining({ type: 'image', name: 'red.png', mimeType: 'image/png' })],
      [expect.objectContaining({ type: 'image', name: 'red.png', mimeType: 'image/png' })],
    ]);
    expect(JSON.stringify(view)).not.toContain(png64);
    const doc = (await (await call('/openapi.json')).json()) as any;
    const body = doc.paths['/v1/sessions/{id}/messages'].post.requestBody.content['application/json'].schema;
    expect(JSON.stringify(body)).toContain('"parts"');
    expect(JSON.stringify(body)).toContain('application/pdf');
  });
});
