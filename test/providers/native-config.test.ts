import { describe, expect, it } from 'vitest';
import { listTeamModels } from '../../src/cli/commands/models.js';
import { modelFromConfig } from '../../src/core/config/model-from-config.js';
import type { ModelConfig } from '../../src/core/config/types.js';
import { ConfigError } from '../../src/core/errors.js';
import { BedrockChatModel } from '../../src/core/models/bedrock.js';
import { GoogleChatModel } from '../../src/core/models/google.js';
import { OpenAIChatModel } from '../../src/core/models/openai.js';
import { OpenAIResponsesModel } from '../../src/core/models/openai-responses.js';
import { useReplayServer, type ReplayServer } from '../support/replay-server.js';

let server: ReplayServer;
useReplayServer((s) => (server = s));

const entry = (o: Partial<ModelConfig>): ModelConfig => ({ name: 'm', provider: 'openai', fromEnvironment: false, ...o });

describe('agents.yaml: api: responses, google, vertex, bedrock', () => {
  it('builds the model each entry names', () => {
    expect(modelFromConfig(entry({ model: 'o3-pro', api: 'responses' }), { OPENAI_API_KEY: 'sk-1' })).toBeInstanceOf(OpenAIResponsesModel);
    expect(modelFromConfig(entry({ model: 'gpt-4o' }), { OPENAI_API_KEY: 'sk-1' })).toBeInstanceOf(OpenAIChatModel);
    expect(modelFromConfig(entry({ provider: 'azure', model: 'dep', api: 'responses', baseUrl: 'https://r.openai.azure.com/openai/v1' }), { AZURE_OPENAI_API_KEY: 'k' })).toBeInstanceOf(OpenAIResponsesModel);
    const g = modelFromConfig(entry({ provider: 'google', model: 'gemini-2.5-pro', thinkingBudget: 2048 }), { GEMINI_API_KEY: 'AIza' });
    expect(g).toBeInstanceOf(GoogleChatModel);
    expect(g.contextWindow).toBe(1_048_576);
    expect(modelFromConfig(entry({ provider: 'vertex', model: 'gemini-2.5-flash', project: 'p1', location: 'europe-west4' }), {})).toBeInstanceOf(GoogleChatModel);
    const b = modelFromConfig(entry({ provider: 'bedrock', model: 'us.anthropic.claude-sonnet-4-20250514-v1:0', region: 'us-east-1' }), {});
    expect(b).toBeInstanceOf(BedrockChatModel);
    expect(b.contextWindow).toBe(200_000);
    expect((b as BedrockChatModel).baseURL).toBe('https://bedrock-runtime.us-east-1.amazonaws.com');
  });

  it('refuses what cannot work, saying which key to change', () => {
    const refuses = (mc: ModelConfig, env: Record<string, string>, re: RegExp) => {
      expect(() => modelFromConfig(mc, env)).toThrow(ConfigError);
      expect(() => modelFromConfig(mc, env)).toThrow(re);
    };
    refuses(entry({ provider: 'google', model: 'gemini-2.5-pro' }), {}, /GEMINI_API_KEY is not set/);
    refuses(entry({ provider: 'vertex', model: 'gemini-2.5-pro' }), {}, /needs a Google Cloud project: set `project:` or GOOGLE_CLOUD_PROJECT/);
    refuses(entry({ provider: 'bedrock' }), {}, /needs `model:`/);
    refuses(entry({ provider: 'anthropic', model: 'claude', api: 'responses' }), { ANTHROPIC_API_KEY: 'k' }, /`api: responses` applies only to OpenAI-compatible/);
    refuses(entry({ model: 'gpt-4o', store: true }), { OPENAI_API_KEY: 'k' }, /`store` applies only to api: responses/);
    refuses(entry({ model: 'o3', api: 'responses', previousResponseId: true }), { OPENAI_API_KEY: 'k' }, /previous_response_id needs store: true/);
    refuses(entry({ model: 'gpt-4o', thinkingBudget: 1 }), { OPENAI_API_KEY: 'k' }, /`thinking_budget` applies only to provider: google or vertex/);
    refuses(entry({ provider: 'azure', model: 'd', api: 'responses', baseUrl: 'https://r.openai.azure.com/openai/deployments/d' }), { AZURE_OPENAI_API_KEY: 'k' }, /not under \/deployments\//);
  });

  it("adk models lists a native provider's models with their windows", async () => {
    server.enqueue({
      headers: { 'content-type': 'application/json' },
      chunks: [JSON.stringify({ models: [{ name: 'models/gemini-2.5-flash', inputTokenLimit: 1048576, outputTokenLimit: 65536, supportedGenerationMethods: ['generateContent'] }] })],
    });
    const [listing] = await listTeamModels([entry({ name: 'g', provider: 'google', model: 'gemini-2.5-flash', baseUrl: server.url })], { GEMINI_API_KEY: 'AIza' });
    expect(listing).toEqual({ entry: 'g', provider: 'google', baseURL: server.url, models: ['gemini-2.5-flash'], windows: { 'gemini-2.5-flash': 1048576 } });
  });
});
