import { EventStreamCodec } from '@smithy/core/event-streams';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelHttpError } from '../../src/core/errors.js';
import { BedrockChatModel } from '../../src/core/models/bedrock.js';
import { recorded, useReplayServer, type ReplayAnswer, type ReplayServer } from '../support/replay-server.js';
import { replay } from './helpers.js';

// Bedrock ConverseStream through @aws-sdk/client-bedrock-runtime, against a local server writing
// application/vnd.amazon.eventstream frames (encoded with the SDK's own codec).
let server: ReplayServer;
useReplayServer((s) => (server = s));

const codec = new EventStreamCodec(
  (b) => new TextDecoder().decode(b),
  (s) => new TextEncoder().encode(s),
);
const str = (value: string) => ({ type: 'string' as const, value });

/** Recorded events (`{contentBlockDelta: {...}}`) as event-stream frames, one per event. */
function eventStream(events: Array<Record<string, unknown>>, exception?: { type: string; message: string }): ReplayAnswer {
  const frames: Uint8Array[] = events.map((e) => {
    const [type, body] = Object.entries(e)[0]!;
    return codec.encode({ headers: { ':event-type': str(type), ':content-type': str('application/json'), ':message-type': str('event') }, body: new TextEncoder().encode(JSON.stringify(body)) });
  });
  if (exception) {
    frames.push(codec.encode({ headers: { ':exception-type': str(exception.type), ':content-type': str('application/json'), ':message-type': str('exception') }, body: new TextEncoder().encode(JSON.stringify({ message: exception.message })) }));
  }
  return { headers: { 'content-type': 'application/vnd.amazon.eventstream', 'x-amzn-requestid': 'req-bedrock-1' }, chunks: frames };
}

// The standard AWS chain: credentials and region from the environment.
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

const bedrock = (o: Partial<ConstructorParameters<typeof BedrockChatModel>[0]> = {}) =>
  new BedrockChatModel({ model: 'anthropic.claude-3-7-sonnet-20250219-v1:0', baseURL: server.url, ...o });

describe('Bedrock ConverseStream', () => {
  it('tool use (recorded stream), then reasoning with its signature sent back in the tool loop, signed with the AWS chain', async () => {
    const toolCall = recorded('amazon-bedrock-tool-call.1.chunks.txt').map((e) =>
      JSON.parse(JSON.stringify(e).replace('"tool-use-id"', '"tooluse_rec01"').replace('"test-tool"', '"read_file"').replace('{\\"value\\":', '{\\"path\\":').replace('\\"Sparkle Day\\"}', '\\"notes.txt\\"}')),
    );
    const reasoning = recorded('amazon-bedrock-reasoning.chunks.txt');
    // The first turn thinks before its call: the recorded reasoning block, then the recorded tool use at index 1.
    const thinkThenCall = [reasoning[0]!, ...reasoning.slice(1, 14), ...toolCall.map((e) => JSON.parse(JSON.stringify(e).replaceAll('"contentBlockIndex":0', '"contentBlockIndex":1')))];
    server.enqueue(eventStream(thinkThenCall), eventStream(reasoning));

    const r = await replay(bedrock({ extraBody: { thinking: { type: 'enabled', budget_tokens: 1024 } } }), 'What is in notes.txt?');
    expect(r.errors).toEqual([]);
    expect(r.runs).toEqual([{ name: 'read_file', args: { path: 'notes.txt' }, callId: 'tooluse_rec01' }]);
    expect(r.output).toBe('There are **3** r\'s in "strawberry":\n\n1. st**r**awbe**r****r**y');
    const first = r.messages.find((m) => m.toolCalls)!;
    expect(first.reasoningContent).toMatch(/^Let me count the r's in "strawberry"/);
    expect(first.usage).toEqual({ promptTokens: 125, completionTokens: 45, totalTokens: 170 });
    expect(r.messages.at(-1)!.usage).toEqual({ promptTokens: 51, completionTokens: 94, totalTokens: 145 });

    const [req1, req2] = server.requests;
    expect(req1!.url).toBe(`/model/${encodeURIComponent('anthropic.claude-3-7-sonnet-20250219-v1:0')}/converse-stream`);
    // SigV4 with the environment's credentials and region.
    expect(req1!.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIATESTEXAMPLE\/\d{8}\/us-west-2\/bedrock\/aws4_request/);
    expect(req1!.body.toolConfig.tools.map((t: any) => t.toolSpec.name)).toEqual(['current_time', 'read_file']);
    expect(req1!.body.additionalModelRequestFields).toEqual({ thinking: { type: 'enabled', budget_tokens: 1024 } });
    const signature = reasoning.find((e) => e.contentBlockDelta?.delta?.reasoningContent?.signature)!.contentBlockDelta.delta.reasoningContent.signature;
    const assistant = req2!.body.messages[1];
    expect(assistant.role).toBe('assistant');
    expect(assistant.content[0].reasoningContent.reasoningText.signature).toBe(signature);
    expect(assistant.content[0].reasoningContent.reasoningText.text).toMatch(/So there are 3 r's\.$/);
    expect(assistant.content[1]).toEqual({ toolUse: { toolUseId: 'tooluse_rec01', name: 'read_file', input: { path: 'notes.txt' } } });
    expect(req2!.body.messages[2]).toEqual({ role: 'user', content: [{ toolResult: { toolUseId: 'tooluse_rec01', content: [{ text: 'contents of notes.txt' }] } }] });
  });

  // Issue 43, item 7: Nova's code interpreter is a call Bedrock runs itself (`type: server_tool_use`,
  // then its `toolResult` in the same turn, shapes from AWS's Nova user guide). adk ran it as one of
  // its own tools (an unknown one). It is shown (as the model's thought), kept, and sent back as it came.
  it("a server-side tool call (Nova's code interpreter) is shown and sent back, never run as adk's", async () => {
    const code = "numbers = [10, 24, 2]\nsum(numbers) / len(numbers)";
    const result = '{"stdOut":"12.0","stdErr":"","exitCode":0,"isError":false}';
    server.enqueue(
      eventStream([
        { messageStart: { role: 'assistant' } },
        { contentBlockStart: { contentBlockIndex: 0, start: { toolUse: { toolUseId: 'tooluse_WytfF0g1S5qUeEPm0ptOdQ', name: 'nova_code_interpreter', type: 'server_tool_use' } } } },
        { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: JSON.stringify({ code }).slice(0, 20) } } } },
        { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: JSON.stringify({ code }).slice(20) } } } },
        { contentBlockStop: { contentBlockIndex: 0 } },
        { contentBlockStart: { contentBlockIndex: 1, start: { toolResult: { toolUseId: 'tooluse_WytfF0g1S5qUeEPm0ptOdQ', type: 'nova_code_interpreter_result', status: 'success' } } } },
        { contentBlockDelta: { contentBlockIndex: 1, delta: { toolResult: [{ text: result }] } } },
        { contentBlockStop: { contentBlockIndex: 1 } },
        { contentBlockDelta: { contentBlockIndex: 2, delta: { text: 'The average is 12.' } } },
        { contentBlockStop: { contentBlockIndex: 2 } },
        { messageStop: { stopReason: 'end_turn' } },
        { metadata: { usage: { inputTokens: 30, outputTokens: 20, totalTokens: 50 }, metrics: { latencyMs: 100 } } },
      ]),
    );
    const r = await replay(bedrock({ model: 'us.amazon.nova-2-lite-v1:0' }), 'What is the average of 10, 24 and 2?');
    expect(r.errors).toEqual([]);
    expect(r.runs).toEqual([]);
    expect(r.output).toBe('The average is 12.');
    const answer = r.messages.at(-1)!;
    expect(answer.toolCalls ?? []).toEqual([]);
    expect(answer.reasoningContent).toContain('[nova_code_interpreter ran on Bedrock]');
    expect(answer.reasoningContent).toContain('12.0');
    // The next request carries both blocks back, unchanged, before the answer's text.
    const { toBedrockRequest } = await import('../../src/core/models/bedrock-convert.js');
    const next = toBedrockRequest([{ role: 'user', content: 'average?' }, answer, { role: 'user', content: 'thanks' }]);
    expect(next.messages[1]!.content).toEqual([
      { toolUse: { toolUseId: 'tooluse_WytfF0g1S5qUeEPm0ptOdQ', name: 'nova_code_interpreter', type: 'server_tool_use', input: { code } } },
      { toolResult: { toolUseId: 'tooluse_WytfF0g1S5qUeEPm0ptOdQ', type: 'nova_code_interpreter_result', status: 'success', content: [{ text: result }] } },
      { text: 'The average is 12.' },
    ]);
  });

  it('a ThrottlingException frame mid-stream is a 429 the agent retries; the retry answers', async () => {
    const reasoning = recorded('amazon-bedrock-reasoning.chunks.txt');
    server.enqueue(eventStream([{ messageStart: { role: 'assistant' } }], { type: 'ThrottlingException', message: 'Too many requests, please wait before trying again.' }), eventStream(reasoning));
    const r = await replay(bedrock(), 'How many r in strawberry?');
    expect(r.errors).toEqual([]);
    expect(server.requests).toHaveLength(2);
    expect(r.output).toMatch(/There are \*\*3\*\* r's/);

    server.enqueue(eventStream([], { type: 'ThrottlingException', message: 'Too many requests, please wait before trying again.' }));
    const err = await bedrock().generate([{ role: 'user', content: 'Hi' }]).catch((e) => e);
    expect(err).toBeInstanceOf(ModelHttpError);
    expect(err.status).toBe(429);
    expect(err.retryable).toBe(true);
    expect(err.providerCode).toBe('ThrottlingException');
  });

  it('a throttled request (HTTP 429 before the stream) is a 429 too', async () => {
    server.enqueue({
      status: 429,
      headers: { 'content-type': 'application/json', 'x-amzn-errortype': 'ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/' },
      chunks: [JSON.stringify({ message: 'Too many tokens, please wait before trying again.' })],
    });
    const err = await bedrock().generate([{ role: 'user', content: 'Hi' }]).catch((e) => e);
    expect(err).toBeInstanceOf(ModelHttpError);
    expect(err.status).toBe(429);
    expect(err.message).toMatch(/Too many tokens/);
  });
});
