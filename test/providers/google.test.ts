import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { IncompleteReplyError, ModelHttpError } from '../../src/core/errors.js';
import { GoogleChatModel } from '../../src/core/models/google.js';
import type { Message } from '../../src/core/schema/message.js';
import { geminiSse, recorded, useReplayServer, type ReplayServer } from '../support/replay-server.js';
import { replay } from './helpers.js';

// Native Gemini through @google/genai, against a local server speaking streamGenerateContent?alt=sse.
let server: ReplayServer;
useReplayServer((s) => (server = s));

const gemini = (o: Partial<ConstructorParameters<typeof GoogleChatModel>[0]> = {}) =>
  new GoogleChatModel({ model: 'gemini-3-pro-preview', apiKey: 'AIza-test-key-5678', baseURL: server.url, ...o });

const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x));

describe('native Gemini', () => {
  it('parallel function calls with thought signatures kept across two tool loops (recorded Gemini 3 chunks)', async () => {
    // Loop 1: the recorded call (signature on the first call only, as Gemini 3 signs parallel calls) plus a second call.
    const [call, stop] = recorded('google-tool-call-gemini3.chunks.txt');
    const sig1 = call!.candidates[0].content.parts[0].thoughtSignature as string;
    const loop1 = clone(call!);
    loop1.candidates[0].content.parts[0].functionCall = { name: 'read_file', args: { path: 'notes.txt' } };
    loop1.candidates[0].content.parts.push({ functionCall: { name: 'current_time', args: {} } });
    // Loop 2: one more call, signed with the signature of the recorded text answer.
    const answer = recorded('google-reasoning-gemini3.chunks.txt');
    const sig2 = answer.at(-1)!.candidates[0].content.parts[0].thoughtSignature as string;
    const loop2 = clone(call!);
    loop2.candidates[0].content.parts = [{ functionCall: { name: 'current_time', args: {} }, thoughtSignature: sig2 }];
    // The answer: a thought summary, then the recorded text and its closing signed empty part.
    const thought = { candidates: [{ content: { parts: [{ text: 'Counting the letters first.', thought: true }], role: 'model' }, index: 0 }], modelVersion: 'gemini-3-pro-preview' };
    server.enqueue(geminiSse([loop1, stop!]), geminiSse([loop2, stop!]), geminiSse([thought, ...answer]));

    const r = await replay(gemini({ thinkingLevel: 'high' }), 'What is in notes.txt, and the time?');
    expect(r.errors).toEqual([]);
    expect(r.runs.map((x) => x.name)).toEqual(['read_file', 'current_time', 'current_time']);
    expect(r.output).toBe('There are **3** "r"s in strawberry.\n\nSt**r**awbe**rr**y');
    const assistants = r.messages.filter((m) => m.role === 'assistant');
    expect(assistants[0]!.usage).toEqual({ promptTokens: 29, completionTokens: 819, totalTokens: 848, reasoningTokens: 804 });
    expect(assistants.at(-1)!.reasoningContent).toBe('Counting the letters first.');

    const [req1, req2, req3] = server.requests;
    expect(req1!.url).toBe('/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse');
    expect(req1!.headers['x-goog-api-key']).toBe('AIza-test-key-5678');
    expect(req1!.body.generationConfig.thinkingConfig).toEqual({ includeThoughts: true, thinkingLevel: 'HIGH' });
    expect(req1!.body.tools[0].functionDeclarations.map((f: any) => f.name)).toEqual(['current_time', 'read_file']);
    expect(req1!.body.tools[0].functionDeclarations[1].parametersJsonSchema).toMatchObject({ type: 'object', required: ['path'] });

    // Loop 1's model turn goes back with its signature on the first call; both answers in one user turn.
    const model1 = req2!.body.contents[1];
    expect(model1.role).toBe('model');
    expect(model1.parts.map((p: any) => [p.functionCall.name, p.functionCall.args, p.thoughtSignature])).toEqual([
      ['read_file', { path: 'notes.txt' }, sig1],
      ['current_time', {}, undefined],
    ]);
    expect(req2!.body.contents[2].parts.map((p: any) => [p.functionResponse.name, p.functionResponse.response])).toEqual([
      ['read_file', { output: 'contents of notes.txt' }],
      ['current_time', { output: '2026-11-24T04:00:00Z' }],
    ]);
    // Loop 2: both model turns keep their own signatures.
    const models3 = req3!.body.contents.filter((c: any) => c.role === 'model');
    expect(models3.map((c: any) => c.parts[0].thoughtSignature)).toEqual([sig1, sig2]);

    // The text's signature is kept on the message and goes back with the next user turn.
    const last = assistants.at(-1)!;
    expect(last.providerItems).toEqual([{ provider: 'google', data: { thoughtSignature: answer.at(-1)!.candidates[0].content.parts[0].thoughtSignature } }]);
    server.enqueue(geminiSse(answer));
    const history: Message[] = clone([{ role: 'user', content: 'What is in notes.txt, and the time?' }, ...r.messages, { role: 'user', content: 'Thanks' }]);
    await gemini().generate(history);
    const lastModel = server.requests[3]!.body.contents.filter((c: any) => c.role === 'model').at(-1);
    expect(lastModel.parts).toEqual([{ text: r.output, thoughtSignature: last.providerItems![0]!.data.thoughtSignature }]);
  });

  it('a safety block (finishReason SAFETY, and a blocked prompt) ends the turn incomplete with reason content_filter', async () => {
    // Shaped as in the Vercel AI SDK's test "should expose PromptFeedback in provider metadata".
    const ratings = [{ category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH' }];
    server.enqueue(geminiSse([{ candidates: [{ content: { parts: [{ text: 'No' }], role: 'model' }, finishReason: 'SAFETY', index: 0, safetyRatings: ratings }], promptFeedback: { safetyRatings: ratings } }]));
    const r = await replay(gemini({ model: 'gemini-2.5-flash' }), 'something unsafe');
    expect(r.errors[0]).toBeInstanceOf(IncompleteReplyError);
    expect((r.errors[0] as IncompleteReplyError).reason).toBe('content_filter');
    expect(r.output).toBe('No');

    server.enqueue(geminiSse([{ promptFeedback: { blockReason: 'PROHIBITED_CONTENT', safetyRatings: ratings }, usageMetadata: { promptTokenCount: 9, totalTokenCount: 9 } }]));
    const blocked = await gemini().generate([{ role: 'user', content: 'something worse' }]);
    expect(blocked.finishReason).toBe('content_filter');
    expect(blocked.usage).toEqual({ promptTokens: 9, completionTokens: 0, totalTokens: 9 });
  });

  it('a recorded 429 RESOURCE_EXHAUSTED is a retryable HTTP error with the RetryInfo delay', async () => {
    const body = readFileSync(new URL('../fixtures/recorded/vercel-ai/google-429-retry-info.json', import.meta.url), 'utf8');
    server.enqueue({ status: 429, headers: { 'content-type': 'application/json' }, chunks: [body] });
    const err = await gemini().generate([{ role: 'user', content: 'Hi' }]).catch((e) => e);
    expect(err).toBeInstanceOf(ModelHttpError);
    expect(err.status).toBe(429);
    expect(err.retryable).toBe(true);
    expect(err.retryAfterMs).toBe(34_400);
    expect(err.providerCode).toBe('RESOURCE_EXHAUSTED');
    expect(err.message).toMatch(/You exceeded your current quota/);
    expect(err.message).not.toMatch(/AIza-test-key/);
  });

  it('a stream cut before any finish reason is a retryable connection error', async () => {
    const [call] = recorded('google-tool-call-gemini3.chunks.txt');
    server.enqueue(geminiSse([call!]));
    const err = await gemini().generate([{ role: 'user', content: 'Hi' }]).catch((e) => e);
    expect(err.code).toBe('model_connection');
    expect(err.retryable).toBe(true);
  });

  it('lists models with their windows (models.list inputTokenLimit)', async () => {
    server.enqueue({
      headers: { 'content-type': 'application/json' },
      chunks: [
        JSON.stringify({
          models: [
            { name: 'models/gemini-2.5-pro', displayName: 'Gemini 2.5 Pro', inputTokenLimit: 1048576, outputTokenLimit: 65536, supportedGenerationMethods: ['generateContent', 'countTokens'] },
            { name: 'models/text-embedding-004', inputTokenLimit: 2048, outputTokenLimit: 1, supportedGenerationMethods: ['embedContent'] },
          ],
        }),
      ],
    });
    const models = await gemini().listModelInfo();
    expect(models).toEqual([{ id: 'gemini-2.5-pro', contextWindow: 1048576, maxOutputTokens: 65536 }]);
    expect(server.requests[0]!.url).toMatch(/^\/v1beta\/models/);
  });
});
