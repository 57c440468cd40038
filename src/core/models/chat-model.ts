import type { Message, MessageChunk } from '../schema/message.js';
import type { ToolInfo } from '../tools/tool-info.js';
import type { ModelPrice } from './pricing.js';

/** Whether the model may (`auto`), must (`required`), must not (`none`) call a tool, or must call the named one. */
export type ToolChoice = 'auto' | 'none' | 'required' | { name: string };

/**
 * Settings of a model request that a run may choose (Eino's `model.Option`s: WithTemperature,
 * WithMaxTokens, …), over the model's own: the Runner's `modelOptions` (see CallOptions). A provider
 * applies the ones its API has; `extraBody` is merged into the request body last.
 */
export interface ModelOptions {
  temperature?: number | undefined;
  topP?: number | undefined;
  maxTokens?: number | undefined;
  stop?: string | string[] | undefined;
  seed?: number | undefined;
  reasoningEffort?: string | undefined;
  /** Provider-specific request fields, merged into the request body last (as a model's own `extraBody`). */
  extraBody?: Record<string, unknown> | undefined;
}

/** Keys of ModelOptions, for providers that lay a request's options over their own settings. */
const MODEL_OPTION_KEYS = ['temperature', 'topP', 'maxTokens', 'stop', 'seed', 'reasoningEffort'] as const;

/**
 * A model's settings with one request's ModelOptions laid over them: each option the request sets
 * wins; `extraBody` objects are merged, the request's keys winning. What a provider sends.
 */
export function withModelOptions<T extends ModelOptions>(settings: T, request: ModelOptions | undefined): T {
  if (!request) return settings;
  const out: T = { ...settings };
  for (const k of MODEL_OPTION_KEYS) if (request[k] !== undefined) (out as ModelOptions)[k] = request[k] as never;
  if (request.extraBody) out.extraBody = { ...settings.extraBody, ...request.extraBody };
  return out;
}

/** Options of one model request: the run's ModelOptions, and what the agent asks of this request. */
export interface ModelCallOptions extends ModelOptions {
  tools?: ToolInfo[] | undefined;
  toolChoice?: ToolChoice | undefined;
  signal?: AbortSignal | undefined;
  /** Constrain a final answer to this JSON Schema (sent only to models whose `structuredOutput` is true). */
  responseFormat?: ResponseFormat | undefined;
  /** Told who answered (response id, the model that answered) as soon as the provider says: for tracing. */
  onResponseInfo?(info: ModelResponseInfo): void;
}

/**
 * What a model tells observers about its requests: the provider as OpenTelemetry's
 * `gen_ai.provider.name` spells it, the endpoint (`server.address`, `server.port`) and its own request
 * settings (`gen_ai.request.*`; a run's ModelOptions go over them).
 */
export interface ModelTelemetry extends Omit<ModelOptions, 'extraBody'> {
  /** `openai`, `azure.ai.openai`, `anthropic`, `deepseek`, `mistral_ai`, `gcp.gemini`, `groq`, … (a custom name for others). */
  provider: string;
  serverAddress?: string | undefined;
  serverPort?: number | undefined;
}

/** Who answered one request, as the provider reports it (OpenTelemetry's `gen_ai.response.id` and `gen_ai.response.model`). */
export interface ModelResponseInfo {
  /** The response's id, e.g. `chatcmpl-123`. */
  id?: string | undefined;
  /** The exact model that answered, e.g. `gpt-4o-2024-08-06` for `gpt-4o`. */
  model?: string | undefined;
}

/** A JSON Schema the model's final answer must match: OpenAI's `response_format: json_schema`. */
export interface ResponseFormat {
  name: string;
  schema: Record<string, unknown>;
  /**
   * OpenAI's strict mode. Default: the model's choice (OpenAIChatModel: strict on OpenAI and Azure,
   * with the schema made strict-compatible, see `strictOutput`).
   */
  strict?: boolean | undefined;
}

/**
 * A chat-completions model. Implementations throw typed errors (ModelHttpError,
 * ModelConnectionError, ModelTimeoutError) so callers can decide whether to retry.
 */
export interface ChatModel {
  /** The model id shown to users, e.g. `gpt-4o-mini` or `demo`. */
  readonly modelName: string;
  /** Largest prompt plus reply the model takes, in tokens, when known (`context_window`, or known for the name). */
  readonly contextWindow?: number | undefined;
  /** US dollars per million tokens, when known (`price:` in agents.yaml, or the list price for the name). */
  readonly price?: ModelPrice | undefined;
  /** Whether it takes images and PDFs (`vision:`): false refuses messages with parts before any request; undefined is unknown (sent). */
  readonly vision?: boolean | undefined;
  generate(messages: Message[], options?: ModelCallOptions): Promise<Message>;
  stream(messages: Message[], options?: ModelCallOptions): AsyncIterable<MessageChunk>;
  /**
   * Whether the provider constrains answers to `responseFormat` itself (`response_format:
   * json_schema`). Without it an agent with an output schema validates the answer and asks again.
   */
  readonly structuredOutput?: boolean | undefined;
  /** The model ids the endpoint offers (`GET /models`), newest or alphabetical as the server lists them. */
  listModels?(signal?: AbortSignal): Promise<string[]>;
  /** Provider, endpoint and request settings, for tracing (OpenTelemetry's GenAI attributes). */
  readonly telemetry?: ModelTelemetry | undefined;
  /**
   * The context window and where it came from, asking the server when neither the settings nor the
   * name tell it (OpenAI-compatible servers' `/models`). Absent: `contextWindow` is all there is.
   */
  resolveContextWindow?(signal?: AbortSignal): Promise<ContextWindowInfo>;
}

/** A model's context window: from `context_window`, its known name, its server, or adk's conservative default. */
export interface ContextWindowInfo {
  window: number;
  source: 'config' | 'known' | 'server' | 'default';
}
