import { EventStreamCodec } from '@smithy/core/event-streams';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatModelAgent } from '../../src/core/agents/chat-model-agent.js';
import { Conversation } from '../../src/core/conversation/conversation.js';
import { ContentPartError } from '../../src/core/errors.js';
import { AnthropicChatModel } from '../../src/core/models/anthropic.js';
import { BedrockChatModel } from '../../src/core/models/bedrock.js';
import type { ChatModel } from '../../src/core/models/chat-model.js';
import { GoogleChatModel } from '../../src/core/models/google.js';
import { OpenAIChatModel } from '../../src/core/models/openai.js';
import { OpenAIResponsesModel } from '../../src/core/models/openai-responses.js';
import { PROFILES } from '../../src/core/models/providers.js';
import { Runner } from '../../src/core/runner.js';
import { contentPart, contentPartFromBase64, readContentPart, type ContentPart } from '../../src/core/schema/index.js';
import { openAdkStores } from '../../src/core/store/index.js';
import { useAnthropicServer, type AnthropicTestServer } from '../support/anthropic-server.js';
import { useOpenAIServer, type OpenAITestServer } from '../support/openai-server.js';
import { geminiSse, recorded, responsesSse, useReplayServer, type ReplayAnswer, type ReplayServer } from '../support/replay-server.js';

// The library face: `conv.send({ text, parts })` and `runner.query({ text, parts })`, each provider
// getting the image and the PDF in its own wire format from its own local server.
const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/parts');
const PNG = readFileSync(path.join(FIXTURES, 'red.png'));
const PDF = readFileSync(path.join(FIXTURES, 'invoice.pdf'));
const png64 = PNG.toString('base64');
const pdf64 = PDF.toString('base64');

let openai: OpenAITestServer;
let anthropic: AnthropicTestServer;
let replay: ReplayServer;
useOpenAIServer((s) => (openai = s));
useAnthropicServer((s) => (anthropic = s));
useReplayServer((s) => (replay = s));

const saved: Record<string, string | undefined> = {};
beforeAll(() => {
  for (const [k, v] of Object.entries({ AWS_ACCESS_KEY_ID: 'AKIATESTEXAMPLE', AWS_SECRET_ACCESS_KEY: 'test-secret-key', AWS_REGION: 'us-west-2', AWS_BEARER_TOKEN_BEDROCK: undefined, AWS_PROFILE: undefined })) {
    saved[k] = process.env[k];
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});
afterAll(() => {
  for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k];
  else process.env[k] = v;
});

const codec = new EventStreamCodec(
  (b) => new TextDecoder().decode(b),
  (s) => new TextEncoder().encode(s),
);
const str = (value: string) => ({ type: 'string' as const, value });
function bedrockText(text: string): ReplayAnswer {
  const events = [{ messageStart: { role: 'assistant' } }, { contentBlockDelta: { contentBlockIndex: 0, delta: { text } } }, { contentBlockStop: { contentBlockIndex: 0 } }, { messageStop: { stopReason: 'end_turn' } }];
  const frames = events.map((e) => {
    const [type, body] = Object.entries(e)[0]!;
    return codec.encode({ headers: { ':event-type': str(type), ':content-type': str('application/json'), ':message-type': str('event') }, body: new TextEncoder().encode(JSON.stringify(body)) });
  });
  return { headers: { 'content-type': 'application/vnd.amazon.eventstream' }, chunks: frames };
}
const geminiText = (text: string) => geminiSse([{ candidates: [{ content: { parts: [{ text }], role: 'model' }, finishReason: 'STOP', index: 0 }] }]);

async function parts(): Promise<ContentPart[]> {
  return [await readContentPart(path.join(FIXTURES, 'red.png')), await readContentPart(path.join(FIXTURES, 'invoice.pdf'))];
}

async function sendWithParts(model: ChatModel): Promise<string> {
  const stores = await openAdkStores('memory://');
  const conv = await Conversation.start({ agent: new ChatModelAgent({ name: 'Assistant', description: 'parts', model, retry: { maxRetries: 0, baseDelayMs: 1 } }), stores });
  try {
    const r = await conv.send({ text: 'What is in these?', parts: await parts() }).result;
    if (r.error) throw r.error;
    return r.finalOutput;
  } finally {
    await conv.close();
  }
}

describe('images and PDFs reach each provider in its own format (library: conv.send({ text, parts }))', () => {
  it('OpenAI Chat Completions: image_url data URL and a file input', async () => {
    openai.enqueue({ content: 'A red square and an invoice.' });
    const out = await sendWithParts(new OpenAIChatModel({ model: 'gpt-4o', apiKey: 'sk-test', baseURL: openai.url, profile: PROFILES.openai }));
    expect(out).toBe('A red square and an invoice.');
    const user = openai.chatRequests[0]!.body.messages.at(-1);
    expect(user).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'What is in these?' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${png64}` } },
        { type: 'file', file: { filename: 'invoice.pdf', file_data: `data:application/pdf;base64,${pdf64}` } },
      ],
    });
  });

  it('OpenAI Responses: input_text, input_image and input_file', async () => {
    replay.enqueue(responsesSse(recorded('azure-text.1.chunks.txt')));
    await sendWithParts(new OpenAIResponsesModel({ model: 'gpt-5.1', apiKey: 'sk-test', baseURL: `${replay.url}/v1` }));
    const input = replay.requests[0]!.body.input;
    expect(input.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'input_text', text: 'What is in these?' },
        { type: 'input_image', image_url: `data:image/png;base64,${png64}`, detail: 'auto' },
        { type: 'input_file', filename: 'invoice.pdf', file_data: `data:application/pdf;base64,${pdf64}` },
      ],
    });
  });

  it('Anthropic: image and document blocks (base64) ahead of the text', async () => {
    anthropic.enqueue({ text: 'Red; invoice 42.' });
    const out = await sendWithParts(new AnthropicChatModel({ model: 'claude-sonnet-4-5', apiKey: 'sk-ant-test', baseURL: anthropic.url }));
    expect(out).toBe('Red; invoice 42.');
    expect(anthropic.requests[0]!.body.messages[0].content.map((b: any) => ({ ...b, cache_control: undefined }))).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png64 }, cache_control: undefined },
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdf64 }, title: 'invoice.pdf', cache_control: undefined },
      { type: 'text', text: 'What is in these?', cache_control: undefined },
    ]);
  });

  it('Gemini native: inlineData parts', async () => {
    replay.enqueue(geminiText('Red, and an invoice.'));
    const out = await sendWithParts(new GoogleChatModel({ model: 'gemini-2.5-flash', apiKey: 'AIza-test', baseURL: replay.url }));
    expect(out).toBe('Red, and an invoice.');
    expect(replay.requests[0]!.body.contents.at(-1)).toEqual({
      role: 'user',
      parts: [{ text: 'What is in these?' }, { inlineData: { mimeType: 'image/png', data: png64 } }, { inlineData: { mimeType: 'application/pdf', data: pdf64 } }],
    });
  });

  it('Bedrock Converse: image and document blocks with their bytes', async () => {
    replay.enqueue(bedrockText('Red and an invoice.'));
    const out = await sendWithParts(new BedrockChatModel({ model: 'anthropic.claude-3-7-sonnet-20250219-v1:0', baseURL: replay.url }));
    expect(out).toBe('Red and an invoice.');
    expect(replay.requests[0]!.body.messages.at(-1)).toEqual({
      role: 'user',
      content: [{ text: 'What is in these?' }, { image: { format: 'png', source: { bytes: png64 } } }, { document: { format: 'pdf', name: 'invoice', source: { bytes: pdf64 } } }],
    });
  });

  it('Runner.query takes { text, parts } too (no session store: the bytes ride in the message)', async () => {
    openai.enqueue({ content: 'red' });
    const model = new OpenAIChatModel({ model: 'gpt-4o', apiKey: 'sk-test', baseURL: openai.url });
    const runner = new Runner({ agent: new ChatModelAgent({ name: 'A', description: 'd', model }) });
    const r = await runner.query({ text: 'colour?', parts: [contentPartFromBase64(png64, { mimeType: 'image/png' })] }).result;
    expect(r.finalOutput).toBe('red');
    expect(openai.chatRequests[0]!.body.messages.at(-1).content[1]).toEqual({ type: 'image_url', image_url: { url: `data:image/png;base64,${png64}` } });
  });
});

describe('refusals before any request', () => {
  it('a model without vision (`vision: false`, or a provider whose API takes no images) is refused, and the server sees no request', async () => {
    for (const model of [
      new OpenAIChatModel({ model: 'my-local-model', apiKey: 'sk-test', baseURL: openai.url, vision: false }),
      new OpenAIChatModel({ model: 'deepseek-chat', apiKey: 'sk-test', baseURL: openai.url, profile: PROFILES.deepseek }),
      new AnthropicChatModel({ model: 'claude-x', apiKey: 'k', baseURL: anthropic.url, vision: false }),
    ]) {
      const stores = await openAdkStores('memory://');
      const conv = await Conversation.start({ agent: new ChatModelAgent({ name: 'A', description: 'd', model, retry: { maxRetries: 2, baseDelayMs: 1 } }), stores });
      const r = await conv.send({ text: 'look', parts: await parts() }).result;
      await conv.close();
      expect(r.status).toBe('error');
      expect(r.error).toBeInstanceOf(ContentPartError);
      expect(r.error!.message).toBe(
        `model ${model.modelName} does not take images and PDFs: nothing was sent. Use a model with vision, or set \`vision: true\` on its models: entry in agents.yaml if it has vision.`,
      );
    }
    expect(openai.chatRequests).toHaveLength(0);
    expect(anthropic.requests).toHaveLength(0);
  });

  it('the same model with vision unknown sends them (text-only sessions are never refused)', async () => {
    const model = new OpenAIChatModel({ model: 'deepseek-chat', apiKey: 'sk-test', baseURL: openai.url, profile: PROFILES.deepseek });
    openai.enqueue({ content: 'hi' });
    const stores = await openAdkStores('memory://');
    const conv = await Conversation.start({ agent: new ChatModelAgent({ name: 'A', description: 'd', model }), stores });
    expect((await conv.send('just text').result).finalOutput).toBe('hi');
    await conv.close();
    expect(openai.chatRequests).toHaveLength(1);
  });

  it('size limits and types: which limit, and for what', () => {
    const big = Buffer.alloc(20 * 1024 * 1024 + 1);
    PNG.copy(big);
    expect(() => contentPart(big, { name: 'huge.png' })).toThrow('huge.png: 20 MB is over the 20 MB limit for an image');
    const bigPdf = Buffer.alloc(33 * 1024 * 1024);
    PDF.copy(bigPdf);
    expect(() => contentPart(bigPdf, { name: 'big.pdf' })).toThrow('big.pdf: 33 MB is over the 32 MB limit for a PDF');
    expect(() => contentPart(PDF, { name: 'x.pdf', mimeType: 'image/png' })).toThrow('x.pdf: declared image/png, but the bytes are application/pdf');
    expect(() => contentPart(Buffer.from('hello'), { name: 'notes.txt' })).toThrow('notes.txt: not a PNG, JPEG, WebP, GIF or PDF file');
    expect(() => contentPart(PDF.subarray(0, 20))).not.toThrow();
  });

  it('readContentPart refuses a file over its limit from its size, without reading it, and unknown extensions', async () => {
    const { mkdtemp, truncate, writeFile } = await import('node:fs/promises');
    const dir = await mkdtemp(path.join((await import('node:os')).tmpdir(), 'adk-parts-'));
    const file = path.join(dir, 'scan.pdf');
    await writeFile(file, '');
    await truncate(file, 40 * 1024 * 1024);
    await expect(readContentPart(file)).rejects.toThrow('scan.pdf: 40 MB is over the 32 MB limit for a PDF');
    await expect(readContentPart(path.join(dir, 'a.bmp'))).rejects.toThrow('a.bmp: only .png, .jpg, .jpeg, .webp, .gif and .pdf files can be attached');
  });
});

describe('stored once per session, by hash', () => {
  it('two turns with the same image: one artifact; the log records keep only the hash; a reloaded session sends the bytes again', async () => {
    const stores = await openAdkStores('memory://');
    const model = new OpenAIChatModel({ model: 'gpt-4o', apiKey: 'sk-test', baseURL: openai.url });
    const agent = new ChatModelAgent({ name: 'A', description: 'd', model });
    const conv = await Conversation.start({ agent, stores });
    const image = await readContentPart(path.join(FIXTURES, 'red.png'));
    openai.enqueue({ content: 'one' }, { content: 'two' });
    await conv.send({ text: 'first', parts: [image] }).result;
    await conv.send({ text: 'again', parts: [image] }).result;
    const id = conv.id;
    await conv.close();

    const artifacts = await stores.kv.list(`artifact:${id}:`);
    expect(artifacts).toEqual([`artifact:${id}:part:${image.hash}`]);
    const log = await stores.kv.list(`sessionlog:${id}:`);
    const records = await Promise.all(log.map((k) => stores.kv.get(k)));
    const withParts = records.filter((r) => r!.includes('"parts"'));
    expect(withParts).toHaveLength(2);
    for (const r of withParts) {
      expect(r).not.toContain(png64);
      expect(JSON.parse(r!).parts).toEqual([{ type: 'image', mimeType: 'image/png', hash: image.hash, size: PNG.length, name: 'red.png' }]);
    }
    // The second request carried both turns' images, from memory.
    expect(openai.chatRequests[1]!.body.messages.filter((m: any) => Array.isArray(m.content)).map((m: any) => m.content[1].image_url.url)).toEqual([
      `data:image/png;base64,${png64}`,
      `data:image/png;base64,${png64}`,
    ]);

    // A reloaded session gets the bytes back from the artifact for its next request.
    openai.enqueue({ content: 'three' });
    const again = await Conversation.load({ agent, stores }, id);
    await again.send('and now?').result;
    await again.close();
    const sent = openai.chatRequests[2]!.body.messages.filter((m: any) => Array.isArray(m.content));
    expect(sent.map((m: any) => m.content[1].image_url.url)).toEqual([`data:image/png;base64,${png64}`, `data:image/png;base64,${png64}`]);
  });
});
