import { ConfigError } from '../errors.js';
import type { Message, MessageChunk } from '../schema/message.js';
import type { ChatModel } from './chat-model.js';
import { OPENAI_DEFAULT_BASE_URL, OpenAIChatModel } from './openai.js';
import { profileForURL } from './providers.js';

export const DEFAULT_MODEL_NAME = 'gpt-4o-mini';

export interface ModelOverrides {
  model?: string | undefined;
}

/** What a model from the environment would use, safe to display: never the key itself. */
export interface ModelSettings {
  model: string;
  /** The endpoint; `https://api.openai.com/v1` when OPENAI_BASE_URL is unset. */
  baseURL: string;
  hasKey: boolean;
}

type Env = Record<string, string | undefined>;

/** Empty values count as unset, so `${OPENAI_BASE_URL:-}` in a config behaves like no setting. */
const read = (env: Env, name: string): string | undefined => env[name]?.trim() || undefined;

/** True when `name` selects the offline demo model (`demo`, ignoring case and surrounding spaces). */
export function isDemoModelName(name: string | undefined): boolean {
  return name?.trim().toLowerCase() === 'demo';
}

/**
 * The model modelFromEnv would use: `overrides.model`, else ADK_MODEL, else gpt-4o-mini, at
 * OPENAI_BASE_URL (trailing slashes removed). Empty variables count as unset.
 */
export function resolveModelSettings(env: Env = process.env, overrides: ModelOverrides = {}): ModelSettings {
  return {
    model: overrides.model?.trim() || read(env, 'ADK_MODEL') || DEFAULT_MODEL_NAME,
    baseURL: read(env, 'OPENAI_BASE_URL')?.replace(/\/+$/, '') || OPENAI_DEFAULT_BASE_URL,
    hasKey: read(env, 'OPENAI_API_KEY') !== undefined,
  };
}

/**
 * Stands in for the offline demo model, which is built elsewhere: callers recognise it with
 * `isDemoModelName(model.modelName)` and swap in the real one. Using it directly is a configuration bug.
 */
export class DemoModelPlaceholder implements ChatModel {
  readonly modelName = 'demo';
  async generate(_messages: Message[]): Promise<Message> {
    throw placeholderError();
  }
  // eslint-disable-next-line require-yield
  async *stream(_messages: Message[]): AsyncIterable<MessageChunk> {
    throw placeholderError();
  }
}

const placeholderError = () =>
  new ConfigError("the 'demo' model placeholder was used directly; build the demo model (models/demo.ts) instead");

/**
 * The model named by `overrides.model` or ADK_MODEL (default gpt-4o-mini) at OPENAI_BASE_URL with
 * OPENAI_API_KEY. A key is required only for the official OpenAI endpoint; local servers need none.
 */
export function modelFromEnv(env: Env = process.env, overrides: ModelOverrides = {}): ChatModel {
  const settings = resolveModelSettings(env, overrides);
  if (isDemoModelName(settings.model)) return new DemoModelPlaceholder();
  const apiKey = read(env, 'OPENAI_API_KEY');
  if (!apiKey && settings.baseURL === OPENAI_DEFAULT_BASE_URL) {
    throw new ConfigError(
      'OPENAI_API_KEY is not set. Set it, point OPENAI_BASE_URL at an OpenAI-compatible server ' +
        '(e.g. http://localhost:11434/v1 for Ollama), or use the offline demo model (ADK_MODEL=demo).',
    );
  }
  return new OpenAIChatModel({
    model: settings.model,
    apiKey,
    baseURL: settings.baseURL,
    profile: profileForURL(settings.baseURL),
    // No `provider:` at all: what the server answers may tell which one it is.
    detectServer: true,
    timeoutMs: positiveMs(read(env, 'ADK_REQUEST_TIMEOUT_MS')),
    idleTimeoutMs: positiveMs(read(env, 'ADK_IDLE_TIMEOUT_MS')),
  });
}

/** A positive whole number of milliseconds from the environment; anything else means "unset". */
export function positiveMs(raw: string | undefined): number | undefined {
  const t = raw?.trim();
  return t && /^\d+$/.test(t) && Number(t) > 0 ? Number(t) : undefined;
}
