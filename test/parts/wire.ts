import { EventStreamCodec } from '@smithy/core/event-streams';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { geminiSse, recorded, responsesSse, type ReplayAnswer, type ReplayServer } from '../support/replay-server.js';
import type { AnthropicTestServer } from '../support/anthropic-server.js';
import type { OpenAITestServer } from '../support/openai-server.js';

// What every face's test shares: the two fixture files, an agents.yaml naming one model per provider
// (each at its local server), and what each provider's request must hold.
export const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/parts');
export const PNG_PATH = path.join(FIXTURES, 'red.png');
export const PDF_PATH = path.join(FIXTURES, 'invoice.pdf');
export const png64 = readFileSync(PNG_PATH).toString('base64');
export const pdf64 = readFileSync(PDF_PATH).toString('base64');

export const PROVIDERS = ['chat', 'responses', 'anthropic', 'gemini', 'bedrock'] as const;
export type Provider = (typeof PROVIDERS)[number];

export interface Servers {
  openai: OpenAITestServer;
  anthropic: AnthropicTestServer;
  replay: ReplayServer;
}

/** agents.yaml: one agent per provider, and `blind`, a model declared without vision. */
export function partsTeam(s: Servers): string {
  return `version: 1
models:
  chat: { provider: openai, model: gpt-4o, base_url: "${s.openai.url}" }
  blind: { provider: openai, model: my-text-model, base_url: "${s.openai.url}", vision: false }
  responses: { provider: openai, api: responses, model: gpt-5.1, base_url: "${s.replay.url}/v1" }
  anthropic: { provider: anthropic, model: claude-sonnet-4-5, base_url: "${s.anthropic.url}" }
  gemini: { provider: google, model: gemini-2.5-flash, base_url: "${s.replay.url}" }
  bedrock: { provider: bedrock, model: anthropic.claude-3-7-sonnet-20250219-v1:0, base_url: "${s.replay.url}", region: us-west-2 }
agents:
  chat: { model: chat, instruction: Look. }
  blind: { model: blind, instruction: Look. }
  responses: { model: responses, instruction: Look. }
  anthropic: { model: anthropic, instruction: Look. }
  gemini: { model: gemini, instruction: Look. }
  bedrock: { model: bedrock, instruction: Look. }
default: chat
`;
}

/** Keys and AWS credentials for every provider of partsTeam. */
export const partsEnv = {
  OPENAI_API_KEY: 'sk-test-parts',
  ANTHROPIC_API_KEY: 'ak-test-parts',
  GEMINI_API_KEY: 'AIza-test-parts',
  AWS_ACCESS_KEY_ID: 'AKIATESTEXAMPLE',
  AWS_SECRET_ACCESS_KEY: 'test-secret-key',
  AWS_REGION: 'us-west-2',
  AWS_BEARER_TOKEN_BEDROCK: undefined,
  AWS_PROFILE: undefined,
};

const codec = new EventStreamCodec(
  (b) => new TextDecoder().decode(b),
  (x) => new TextEncoder().encode(x),
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

/** Enqueues one text answer at the provider's server. */
export function answer(s: Servers, p: Provider, text = 'A red square and invoice 42.'): void {
  if (p === 'chat') s.openai.enqueue({ content: text });
  else if (p === 'anthropic') s.anthropic.enqueue({ text });
  else if (p === 'gemini') s.replay.enqueue(geminiSse([{ candidates: [{ content: { parts: [{ text }], role: 'model' }, finishReason: 'STOP', index: 0 }] }]));
  else if (p === 'bedrock') s.replay.enqueue(bedrockText(text));
  else s.replay.enqueue(responsesSse(recorded('azure-text.1.chunks.txt')));
}

/** The last user message of the provider's only request, in its own wire format. */
function lastUser(s: Servers, p: Provider): unknown {
  if (p === 'chat') return s.openai.chatRequests.at(-1)!.body.messages.at(-1);
  if (p === 'anthropic') return s.anthropic.requests.filter((r) => r.path.startsWith('/v1/messages')).at(-1)!.body.messages.at(-1);
  const body = s.replay.requests.at(-1)!.body;
  if (p === 'gemini') return body.contents.at(-1);
  if (p === 'bedrock') return body.messages.at(-1);
  return body.input.at(-1);
}

/** Asserts the image and the PDF reached the provider's request as that provider takes them. */
export function expectPartsSent(s: Servers, p: Provider, text: string, pdfName = 'invoice.pdf'): void {
  const msg = lastUser(s, p) as any;
  const png = `data:image/png;base64,${png64}`;
  const pdf = `data:application/pdf;base64,${pdf64}`;
  if (p === 'chat') {
    expect(msg).toEqual({ role: 'user', content: [{ type: 'text', text }, { type: 'image_url', image_url: { url: png } }, { type: 'file', file: { filename: pdfName, file_data: pdf } }] });
  } else if (p === 'responses') {
    expect(msg).toEqual({ role: 'user', content: [{ type: 'input_text', text }, { type: 'input_image', image_url: png, detail: 'auto' }, { type: 'input_file', filename: pdfName, file_data: pdf }] });
  } else if (p === 'anthropic') {
    expect(msg.content.map(({ cache_control: _, ...b }: any) => b)).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png64 } },
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdf64 }, title: pdfName },
      { type: 'text', text },
    ]);
  } else if (p === 'gemini') {
    expect(msg).toEqual({ role: 'user', parts: [{ text }, { inlineData: { mimeType: 'image/png', data: png64 } }, { inlineData: { mimeType: 'application/pdf', data: pdf64 } }] });
  } else {
    expect(msg).toEqual({ role: 'user', content: [{ text }, { image: { format: 'png', source: { bytes: png64 } } }, { document: { format: 'pdf', name: pdfName.replace(/\.pdf$/, ''), source: { bytes: pdf64 } } }] });
  }
}

/** Requests the servers saw in all (a refused turn must leave this at 0). */
export function requestCount(s: Servers): number {
  return s.openai.chatRequests.length + s.anthropic.requests.length + s.replay.requests.length;
}
