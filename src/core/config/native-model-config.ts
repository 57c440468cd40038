import type { ModelConfig } from './types.js';
import { ConfigError } from '../errors.js';
import { BedrockChatModel } from '../models/bedrock.js';
import type { ChatModel } from '../models/chat-model.js';
import { GoogleChatModel } from '../models/google.js';
import { OpenAIResponsesModel } from '../models/openai-responses.js';

type Env = Record<string, string | undefined>;

/** What modelFromConfig already worked out for every entry. */
export interface CommonModelSettings {
  model: string;
  apiKey?: string | undefined;
  baseURL?: string | undefined;
  timeoutMs?: number | undefined;
  idleTimeoutMs?: number | undefined;
}

/** Keys that only some providers or APIs read: set elsewhere they are a mistake worth saying. */
function checkKeys(mc: ModelConfig): void {
  const bad = (key: string, where: string) => new ConfigError(`model '${mc.name}' (provider: ${mc.provider}): \`${key}\` applies only to ${where}`);
  const gemini = mc.provider === 'google' || mc.provider === 'vertex';
  if (mc.api === 'responses' && (gemini || mc.provider === 'bedrock' || mc.provider === 'anthropic')) throw bad('api: responses', 'OpenAI-compatible providers (openai, azure, …)');
  if (mc.api !== 'responses' && (mc.store !== undefined || mc.previousResponseId !== undefined || mc.reasoningSummary !== undefined)) throw bad(mc.store !== undefined ? 'store' : mc.previousResponseId !== undefined ? 'previous_response_id' : 'reasoning_summary', 'api: responses');
  if (mc.previousResponseId && !mc.store) throw new ConfigError(`model '${mc.name}': previous_response_id needs store: true (without storage there is no response to chain to)`);
  if (!gemini && (mc.thinkingBudget !== undefined || mc.thinkingLevel !== undefined)) throw bad(mc.thinkingBudget !== undefined ? 'thinking_budget' : 'thinking_level', 'provider: google or vertex');
  if (mc.region && mc.provider !== 'bedrock') throw bad('region', 'provider: bedrock');
  if ((mc.project || mc.location) && mc.provider !== 'vertex') throw bad(mc.project ? 'project' : 'location', 'provider: vertex');
}

/**
 * The model of an entry that is not on Chat Completions: the Responses API (`api: responses`), native
 * Gemini and Vertex, Bedrock. Undefined for the others (modelFromConfig builds those).
 */
export function nativeModelFromConfig(mc: ModelConfig, env: Env, s: CommonModelSettings): ChatModel | undefined {
  checkKeys(mc);
  if (!s.model) throw new ConfigError(`model '${mc.name}' (provider: ${mc.provider}) needs \`model:\`, the provider's model id`);
  const common = { configName: mc.name, contextWindow: mc.contextWindow, vision: mc.vision, price: mc.price, timeoutMs: s.timeoutMs, idleTimeoutMs: s.idleTimeoutMs };
  const sampling = { temperature: mc.temperature, topP: mc.topP, maxTokens: mc.maxTokens, stop: mc.stop, seed: mc.seed, extraBody: mc.extraBody };
  if (mc.provider === 'google' || mc.provider === 'vertex') {
    const vertex = mc.provider === 'vertex';
    const project = mc.project ?? env.GOOGLE_CLOUD_PROJECT?.trim();
    if (vertex && !project && !s.apiKey) throw new ConfigError(`model '${mc.name}' (provider: vertex) needs a Google Cloud project: set \`project:\` or GOOGLE_CLOUD_PROJECT (credentials: gcloud auth application-default login)`);
    return new GoogleChatModel({
      ...common,
      ...sampling,
      model: s.model,
      apiKey: s.apiKey,
      vertex,
      project,
      location: mc.location ?? env.GOOGLE_CLOUD_LOCATION?.trim(),
      baseURL: mc.baseUrl,
      headers: mc.headers,
      thinkingBudget: mc.thinkingBudget,
      thinkingLevel: mc.thinkingLevel,
    });
  }
  if (mc.provider === 'bedrock') {
    return new BedrockChatModel({ ...common, ...sampling, model: s.model, apiKey: s.apiKey, region: mc.region, baseURL: mc.baseUrl });
  }
  if (mc.api === 'responses') {
    return new OpenAIResponsesModel({
      ...common,
      ...sampling,
      model: s.model,
      apiKey: s.apiKey,
      baseURL: s.baseURL,
      azure: mc.provider === 'azure',
      reasoningEffort: mc.reasoningEffort,
      parallelToolCalls: mc.parallelToolCalls,
      store: mc.store,
      previousResponseId: mc.previousResponseId,
      reasoningSummary: mc.reasoningSummary,
      headers: mc.headers,
      query: mc.query,
    });
  }
  return undefined;
}
