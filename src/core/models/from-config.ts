import type { ModelConfig } from '../config/types.js';
import { ConfigError } from '../errors.js';
import type { ChatModel } from './chat-model.js';
import { createDemoModel, DEMO_MODEL_NAME } from './demo.js';
import { modelFromEnv, positiveMs } from './from-env.js';
import { OpenAIChatModel, OPENAI_DEFAULT_BASE_URL } from './openai.js';

type Env = Record<string, string | undefined>;

/**
 * The model for one `models:` entry of agents.yaml. `override` (from --model) replaces the model
 * name of every real entry; `demo` turns every entry into the offline demo model.
 */
export function modelFromConfig(mc: ModelConfig, env: Env = process.env, override?: string): ChatModel {
  if (override === DEMO_MODEL_NAME || (!override && (mc.provider === 'demo' || mc.model === DEMO_MODEL_NAME))) return createDemoModel();
  if (mc.fromEnvironment) return modelFromEnv(env, override ? { model: override } : {});
  const keyVar = mc.apiKeyEnv ?? 'OPENAI_API_KEY';
  const apiKey = env[keyVar] || undefined;
  const baseURL = mc.baseUrl || env.OPENAI_BASE_URL || OPENAI_DEFAULT_BASE_URL;
  if (!apiKey && baseURL === OPENAI_DEFAULT_BASE_URL) {
    throw new ConfigError(
      `model '${mc.name}' needs an API key: ${keyVar} is not set. Set it, point base_url (or OPENAI_BASE_URL) at an ` +
        'OpenAI-compatible server such as Ollama, or run with --model demo for the offline demo.',
    );
  }
  return new OpenAIChatModel({
    model: override ?? mc.model ?? env.ADK_MODEL ?? 'gpt-4o-mini',
    apiKey,
    baseURL,
    temperature: mc.temperature,
    maxTokens: mc.maxTokens,
    timeoutMs: mc.timeoutMs ?? positiveMs(env.ADK_REQUEST_TIMEOUT_MS),
    idleTimeoutMs: positiveMs(env.ADK_IDLE_TIMEOUT_MS),
  });
}
