import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ChatModelAgent,
  OpenAIChatModel,
  PROFILES,
  Runner,
  ScriptedChatModel,
  StructuredOutputError,
  planExecute,
  Planner,
  Executor,
  Replanner,
} from '../../src/core/index.js';
import { useOpenAIServer, type OpenAITestServer } from '../support/openai-server.js';

// Issue 16: `outputSchema` on ChatModelAgent, over the real openai client against a local server
// that speaks OpenAI's wire format; plan-execute's answer as text and `structured`.
const Weather = z.object({ city: z.string().describe('The city asked about'), celsius: z.number().int() });

describe('structured output (issue 16)', () => {
  let server!: OpenAITestServer;
  useOpenAIServer((s) => (server = s));
  const model = (provider: 'openai' | 'deepseek') => new OpenAIChatModel({ model: 'm', apiKey: 'k', baseURL: server.url, profile: PROFILES[provider] });

  it('a provider with json_schema gets response_format and the answer is parsed into `structured`', async () => {
    server.enqueue({ content: '{"city":"Oslo","celsius":4}' });
    const agent = new ChatModelAgent({ name: 'w', description: 'weather', instruction: 'Report the weather.', model: model('openai'), outputSchema: Weather, outputSchemaName: 'weather' });
    const r = await new Runner({ agent, enableStreaming: true }).query('Oslo?').result;
    expect(r).toMatchObject({ status: 'completed', finalOutput: '{"city":"Oslo","celsius":4}', structured: { city: 'Oslo', celsius: 4 } });
    const body = server.chatRequests[0].body;
    expect(body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'weather', schema: { type: 'object', required: ['city', 'celsius'] } } });
    // .describe() and .int() survive into the schema the provider sees.
    expect(body.response_format.json_schema.schema.properties.city.description).toBe('The city asked about');
    expect(body.response_format.json_schema.schema.properties.celsius.type).toBe('integer');
    expect(body.messages[0].content).not.toContain('JSON Schema');
  });

  it('a provider without json_schema is asked in the instruction; a wrong answer is sent back once and the retry is used', async () => {
    server.enqueue({ content: 'It is 4 degrees in Oslo.' }, { content: '```json\n{"city":"Oslo","celsius":4.5}\n```' }, { content: '{"city":"Oslo","celsius":4}' });
    const agent = new ChatModelAgent({ name: 'w', description: 'weather', model: model('deepseek'), outputSchema: Weather });
    const r = await new Runner({ agent }).query('Oslo?').result;
    expect(r.status).toBe('completed');
    expect(r.structured).toEqual({ city: 'Oslo', celsius: 4 });
    const [first, second, third] = server.chatRequests.map((q) => q.body);
    expect(first.response_format).toBeUndefined();
    expect(first.messages[0].content).toContain('JSON Schema');
    expect(second.messages.at(-1)).toMatchObject({ role: 'user' });
    expect(second.messages.at(-1).content).toContain('not JSON');
    expect(third.messages.at(-1).content).toMatch(/celsius: .*expected int/);
  });

  it('answers that never match end the run with StructuredOutputError after the retries', async () => {
    const scripted = new ScriptedChatModel([{ content: 'no' }, { content: '{}' }]);
    const agent = new ChatModelAgent({ name: 'w', description: 'weather', model: scripted, outputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }, outputRetries: 1 });
    const r = await new Runner({ agent }).query('Oslo?').result;
    expect(r.status).toBe('error');
    expect(r.error).toBeInstanceOf(StructuredOutputError);
    expect(r.error!.message).toContain('after 2 attempt(s)');
    expect(r.structured).toBeUndefined();
  });

  it("plan-execute's answer is text, with the respond arguments as `structured`", async () => {
    const planner = new Planner({ model: new ScriptedChatModel([{ toolCalls: [{ name: 'plan', arguments: { steps: ['look it up'] } }] }]) });
    const executor = new Executor({ model: new ScriptedChatModel([{ content: 'Oslo: 4 °C' }]) });
    const replanner = new Replanner({ model: new ScriptedChatModel([{ toolCalls: [{ name: 'respond', arguments: { response: 'It is 4 °C in Oslo.' } }] }]) });
    const agent = planExecute({ planner, executor, replanner });
    const r = await new Runner({ agent, enableStreaming: true }).query('Weather in Oslo?').result;
    expect(r).toMatchObject({ status: 'completed', finalOutput: 'It is 4 °C in Oslo.', structured: { response: 'It is 4 °C in Oslo.' }, lastAgent: 'replanner' });
  });
});
