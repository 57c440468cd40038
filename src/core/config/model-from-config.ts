import type { ModelConfig } from './types.js';
import { ConfigError } from '../errors.js';
import { AnthropicChatModel } from '../models/anthropic.js';
import type { ChatModel } from '../models/chat-model.js';
import { createDemoModel, DEMO_MODEL_NAME } from '../models/demo.js';
import { modelFromEnv, positiveMs } from '../models/from-env.js';
import { OpenAIChatModel, OPENAI_DEFAULT_BASE_URL } from '../models/openai.js';
import type { SamplingOptions } from '../models/openai-params.js';
import { PROFILES, profileForURL } from '../models/providers.js';
import { nativeModelFromConfig } from './native-model-config.js';
import { FallbackChatModel } from '../models/fallback.js';

type Env = Record<string, string | undefined>;

/** The environment variable that holds this entry's key: `api_key_env`, else the provider's usual one. */
export function modelKeyEnv(mc: ModelConfig): string | undefined {
  if (mc.provider === 'demo') return undefined;
  return mc.apiKeyEnv ?? (mc.fromEnvironment ? 'OPENAI_API_KEY' : PROFILES[mc.provider].keyEnv) ?? 'OPENAI_API_KEY';
}

/** Values in this entry that are secrets: its key, and header values that carry credentials. */
export function modelSecrets(mc: ModelConfig, env: Env): string[] {
  const keyVar = modelKeyEnv(mc);
  const out = keyVar && env[keyVar] ? [env[keyVar]!] : [];
  for (const [name, value] of Object.entries(mc.headers ?? {})) if (/auth|key|token|secret|cookie/i.test(name)) out.push(value.replace(/^(Bearer|Basic)\s+/i, ''));
  return out;
}

/**
 * The model for one `models:` entry of agents.yaml. `override` (from --model) replaces the model
 * name of every real entry; `demo` turns every entry into the offline demo model.
 */
export function modelFromConfig(mc: ModelConfig, env: Env = process.env, override?: string): ChatModel {
  if (override === DEMO_MODEL_NAME || (!override && (mc.provider === 'demo' || mc.model === DEMO_MODEL_NAME))) return createDemoModel();
  if (mc.fromEnvironment) return modelFromEnv(env, override ? { model: override } : {});
  if (mc.provider === 'demo') return createDemoModel();
  const profile = PROFILES[mc.provider];
  const keyVar = modelKeyEnv(mc)!;
  const apiKey = env[keyVar]?.trim() || undefined;
  // OPENAI_BASE_URL only steers the generic OpenAI profile; a named provider has its own endpoint.
  const baseURL = mc.baseUrl || (mc.provider === 'openai' ? env.OPENAI_BASE_URL?.trim() : undefined) || profile.baseURL;
  if (apiKey === undefined && profile.keyRequired && profile.api === 'gemini') throw new ConfigError(`model '${mc.name}' needs an API key: ${keyVar} is not set.`);
  const native = nativeModelFromConfig(mc, env, {
    // Native providers have no sensible default model: their entry names one.
    model: override ?? mc.model ?? (profile.api === 'chat_completions' ? (env.ADK_MODEL ?? 'gpt-4o-mini') : ''),
    apiKey,
    baseURL,
    timeoutMs: mc.timeoutMs ?? positiveMs(env.ADK_REQUEST_TIMEOUT_MS),
    idleTimeoutMs: mc.idleTimeoutMs ?? positiveMs(env.ADK_IDLE_TIMEOUT_MS),
  });
  if (native && profile.api !== 'chat_completions') return native;
  if (!baseURL) {
    throw new ConfigError(`model '${mc.name}' (provider: ${mc.provider}) needs base_url, e.g. https://<resource>.openai.azure.com/openai/deployments/<deployment>`);
  }
  const hosted = mc.provider !== 'openai' || baseURL.replace(/\/+$/, '') === OPENAI_DEFAULT_BASE_URL;
  if (!apiKey && profile.keyRequired && hosted && !mc.baseUrl) {
    throw new ConfigError(
      `model '${mc.name}' needs an API key: ${keyVar} is not set. Set it, point base_url at an ` +
        'OpenAI-compatible server such as Ollama, or run with --model demo for the offline demo.',
    );
  }
  if (native) return native;
  const model = override ?? mc.model ?? env.ADK_MODEL ?? 'gpt-4o-mini';
  const timeoutMs = mc.timeoutMs ?? positiveMs(env.ADK_REQUEST_TIMEOUT_MS);
  const idleTimeoutMs = mc.idleTimeoutMs ?? positiveMs(env.ADK_IDLE_TIMEOUT_MS);
  if (mc.provider === 'anthropic') {
    return new AnthropicChatModel({
      model,
      apiKey,
      baseURL,
      configName: mc.name,
      contextWindow: mc.contextWindow,
      vision: mc.vision,
      price: mc.price,
      timeoutMs,
      idleTimeoutMs,
      headers: mc.headers,
      temperature: mc.temperature,
      topP: mc.topP,
      maxTokens: mc.maxTokens,
      stop: mc.stop,
      extraBody: mc.extraBody,
    });
  }
  return new OpenAIChatModel({
    model,
    apiKey,
    baseURL,
    // `provider: openai` (the default) at another provider's URL still gets that provider's quirks handled.
    profile: mc.provider === 'openai' ? profileForURL(baseURL) : profile,
    detectServer: mc.provider === 'openai',
    configName: mc.name,
    ...samplingOptions(mc),
    headers: mc.headers,
    query: mc.query,
    timeoutMs,
    idleTimeoutMs,
    contextWindow: mc.contextWindow,
    vision: mc.vision,
    price: mc.price,
  });
}

function samplingOptions(mc: ModelConfig): SamplingOptions {
  const { temperature, topP, maxTokens, stop, seed, reasoningEffort, parallelToolCalls, streamUsage, extraBody } = mc;
  return { temperature, topP, maxTokens, stop, seed, reasoningEffort, parallelToolCalls, streamUsage, extraBody };
}

/**
 * The model of `mc` with its fallbacks (`fallback:` names, then `extra` from --fallback: entry names
 * or model ids of the same entry's endpoint), each built as modelFromConfig builds it.
 */
export function modelWithFallbacks(mc: ModelConfig, models: ReadonlyMap<string, ModelConfig>, env: Env = process.env, override?: string, extra: readonly string[] = []): ChatModel {
  const primary = modelFromConfig(mc, env, override);
  const others = [...(mc.fallback ?? []), ...extra].filter((n, i, all) => n !== mc.name && all.indexOf(n) === i);
  if (!others.length) return primary;
  const fallbacks = others.map((name) => {
    const entry = models.get(name);
    // --fallback may name a model id rather than an entry: the same endpoint and settings, another model.
    return entry ? modelFromConfig(entry, env) : modelFromConfig({ ...mc, fallback: undefined }, env, name);
  });
  return new FallbackChatModel(primary, fallbacks);
}
