import type Anthropic from '@anthropic-ai/sdk';
import { AdkError, CancelledError, ConfigError, ModelConnectionError, ModelHttpError, ModelTimeoutError } from '../errors.js';
import type { Message, MessageChunk } from '../schema/message.js';
import { AnthropicStreamDecoder, fromAnthropicMessage, toAnthropicRequest, toAnthropicToolChoice, toAnthropicTools } from './anthropic-convert.js';
import { withModelOptions, type ChatModel, type ModelCallOptions, type ModelTelemetry } from './chat-model.js';
import { modelVision } from './vision.js';
import { knownContextWindow } from './context-window.js';
import { knownPrice, type ModelPrice } from './pricing.js';
import { importOptional, notInstalled } from '../optional-peer.js';
import { CallGuard, probingFetch } from './openai-call.js';
import { explainRejectedParameter } from './openai-params.js';
import { bodyMessage, conciseDetail, describeCause, endpointHint, parseRetryAfter, redact } from './openai-errors.js';
import { DEFAULT_IDLE_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS } from './openai.js';

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';
/** Anthropic requires `max_tokens`; this leaves room for thinking and long tool arguments. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 8192;

/**
 * Settings of AnthropicChatModel. Timeouts are in milliseconds and default as for OpenAIChatModel;
 * without `apiKey` no `x-api-key` header is sent.
 */
export interface AnthropicChatModelOptions {
  model: string;
  apiKey?: string | undefined;
  baseURL?: string | undefined;
  /** The `models:` entry this model came from, named in error messages. */
  configName?: string | undefined;
  contextWindow?: number | undefined;
  /** Whether the model takes images and PDFs (`vision:` in agents.yaml); default: known text-only names say false, else unknown. */
  vision?: boolean | undefined;
  /** US dollars per million tokens. Default: the list price for the model's name, when known. */
  price?: ModelPrice | undefined;
  timeoutMs?: number | undefined;
  idleTimeoutMs?: number | undefined;
  headers?: Record<string, string> | undefined;
  temperature?: number | undefined;
  topP?: number | undefined;
  maxTokens?: number | undefined;
  stop?: string | string[] | undefined;
  /** Merged into every request body, last (e.g. `thinking: {type: enabled, budget_tokens: 4096}`). */
  extraBody?: Record<string, unknown> | undefined;
}

type AnthropicSdk = typeof import('@anthropic-ai/sdk');

/** Claude through Anthropic's own Messages API: thinking blocks, prompt caching and cache usage included. */
export class AnthropicChatModel implements ChatModel {
  readonly modelName: string;
  readonly baseURL: string;
  readonly contextWindow?: number | undefined;
  readonly vision?: boolean | undefined;
  readonly price?: ModelPrice | undefined;
  /** Provider, endpoint and request settings, for tracing (OpenTelemetry's GenAI attributes). */
  readonly telemetry: ModelTelemetry;
  private client?: Promise<Anthropic> | undefined;
  private sdk?: AnthropicSdk | undefined;
  private readonly timeoutMs: number;

  constructor(private readonly options: AnthropicChatModelOptions) {
    this.modelName = options.model;
    this.contextWindow = options.contextWindow ?? knownContextWindow(options.model);
    this.vision = modelVision(options.model, options.vision);
    this.price = options.price ?? knownPrice(options.model);
    this.baseURL = (options.baseURL || ANTHROPIC_DEFAULT_BASE_URL).replace(/\/+$/, '').replace(/\/v1$/, '');
    this.timeoutMs = Math.max(1, Math.round(options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS));
    this.telemetry = anthropicTelemetry(this.baseURL, options);
  }

  /** The SDK loads with the first request: it is an optional peer dependency, and a large one. */
  private connect(): Promise<Anthropic> {
    return (this.client ??= importOptional(() => import('@anthropic-ai/sdk'), '@anthropic-ai/sdk', () => new ConfigError(`provider: anthropic needs ${notInstalled('@anthropic-ai/sdk')}`)).then((sdk) => {
      this.sdk = sdk;
      return this.newClient(sdk);
    }));
  }

  private newClient(sdk: AnthropicSdk): Anthropic {
    const options = this.options;
    return new sdk.default({
      // Always explicit: without a key the SDK would look for credentials in the environment and on disk.
      apiKey: options.apiKey ?? 'none',
      baseURL: this.baseURL,
      maxRetries: 0,
      timeout: this.timeoutMs,
      logLevel: 'off',
      fetch: probingFetch(),
      // Anthropic's own header for API keys; the SDK's Bearer form is for OAuth tokens.
      defaultHeaders: { Authorization: null, ...(options.apiKey ? { 'x-api-key': options.apiKey } : {}), ...options.headers },
    });
  }

  private body(messages: Message[], options: ModelCallOptions): Record<string, unknown> {
    // A run's model options (temperature, max tokens, …) go over the model's own.
    const o = withModelOptions(this.options, options);
    const { system, messages: msgs } = toAnthropicRequest(messages);
    const body: Record<string, unknown> = { model: this.modelName, max_tokens: o.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS, messages: msgs };
    if (system) body.system = system;
    if (options.tools?.length) {
      body.tools = toAnthropicTools(options.tools);
      if (options.toolChoice) body.tool_choice = toAnthropicToolChoice(options.toolChoice);
    }
    if (o.temperature !== undefined) body.temperature = o.temperature;
    if (o.topP !== undefined) body.top_p = o.topP;
    if (o.stop !== undefined) body.stop_sequences = Array.isArray(o.stop) ? o.stop : [o.stop];
    return o.extraBody ? { ...body, ...o.extraBody } : body;
  }

  async generate(messages: Message[], options: ModelCallOptions = {}): Promise<Message> {
    const guard = new CallGuard(options.signal, this.timeoutMs);
    const body = this.body(messages, options);
    try {
      const res = await (await this.connect()).messages.create({ ...body, stream: false } as never, guard.requestOptions() as never);
      tellResponse(res, options);
      return fromAnthropicMessage(res as never);
    } catch (e) {
      throw guard.stopError() ?? this.explain(this.toError(e, guard.errorBody), body);
    } finally {
      guard.dispose();
    }
  }

  async *stream(messages: Message[], options: ModelCallOptions = {}): AsyncIterable<MessageChunk> {
    const guard = new CallGuard(options.signal, this.timeoutMs, this.options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS);
    const decoder = new AnthropicStreamDecoder();
    let complete = false;
    const body = this.body(messages, options);
    try {
      try {
        const stream = (await (await this.connect()).messages.create({ ...body, stream: true } as never, guard.requestOptions() as never)) as unknown as AsyncIterable<Record<string, unknown>>;
        for await (const ev of stream) {
          if (ev.type === 'message_start') tellResponse(ev.message, options);
          const chunk = decoder.decode(ev);
          if (!chunk) continue;
          guard.pause();
          yield chunk;
          guard.resume();
        }
      } catch (e) {
        throw guard.stopError() ?? this.explain(this.toError(e, guard.errorBody), body);
      }
      const stopped = guard.stopError();
      if (stopped) throw stopped;
      if (!decoder.finished) throw new ModelConnectionError('the model stream ended before message_stop: the connection was cut', true);
      complete = true;
    } finally {
      if (!complete) guard.abort();
      guard.dispose();
    }
  }

  async listModels(signal?: AbortSignal): Promise<string[]> {
    const guard = new CallGuard(signal, Math.min(this.timeoutMs, 30_000));
    try {
      const ids: string[] = [];
      for await (const m of (await this.connect()).models.list({}, guard.requestOptions() as never)) ids.push(m.id);
      return ids;
    } catch (e) {
      throw guard.stopError() ?? this.toError(e, guard.errorBody);
    } finally {
      guard.dispose();
    }
  }

  /** A 400 naming a parameter the models entry set says which key to change (as for OpenAI-compatible endpoints). */
  private explain(err: Error, body: Record<string, unknown>): Error {
    return err instanceof ModelHttpError ? explainRejectedParameter(err, body, this.options.configName) : err;
  }

  private toError(e: unknown, errorBody: string | undefined): Error {
    const r = (s: string) => redact(s, this.options.apiKey);
    if (e instanceof AdkError) return e;
    const sdk = this.sdk;
    if (!sdk) return e as Error;
    const { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } = sdk;
    if (e instanceof APIUserAbortError) return new CancelledError('model request cancelled');
    if (e instanceof APIConnectionTimeoutError) return new ModelTimeoutError(this.timeoutMs, 'request');
    if (e instanceof APIConnectionError) return new ModelConnectionError(r(`cannot reach the model endpoint at ${this.baseURL}: ${describeCause(e.cause ?? e)}`), true);
    if (e instanceof APIError) {
      const inner = (e.error ?? {}) as { error?: { type?: unknown; message?: unknown }; type?: unknown; message?: unknown };
      const err = inner.error ?? inner;
      const message = typeof err.message === 'string' ? err.message : errorBody ? bodyMessage(errorBody) : e.message;
      const detail = r(conciseDetail(message));
      if (typeof e.status === 'number') return new ModelHttpError(e.status, detail + endpointHint(e.status, `${this.baseURL}/v1`), parseRetryAfter(e.headers), { providerCode: typeof err.type === 'string' ? err.type : undefined });
      // An `error` event inside the stream: its type says what an HTTP status would have.
      const status = STREAM_ERROR_STATUS[String(err.type)];
      if (status) return new ModelHttpError(status, detail, undefined, { providerCode: String(err.type) });
      return new ModelConnectionError(`the model endpoint reported an error: ${detail}`, true);
    }
    if (e instanceof SyntaxError) return new ModelConnectionError(r(`the model endpoint sent invalid JSON: ${e.message}`), true);
    const message = e instanceof Error ? e.message : String(e);
    return new ModelConnectionError(r(`model request failed: ${message}`), false);
  }
}

const STREAM_ERROR_STATUS: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
};

function anthropicTelemetry(baseURL: string, o: AnthropicChatModelOptions): ModelTelemetry {
  const t: ModelTelemetry = { provider: 'anthropic' };
  try {
    const u = new URL(baseURL);
    t.serverAddress = u.hostname;
    t.serverPort = u.port ? Number(u.port) : u.protocol === 'http:' ? 80 : 443;
  } catch {
    // A base URL that is not a URL fails at the first request.
  }
  for (const k of ['temperature', 'topP', 'maxTokens', 'stop'] as const) if (o[k] !== undefined) Object.assign(t, { [k]: o[k] });
  // Always sent: Anthropic requires it.
  t.maxTokens ??= ANTHROPIC_DEFAULT_MAX_TOKENS;
  return t;
}

/** Tells the caller the message's id and the model that answered. */
function tellResponse(message: unknown, options: ModelCallOptions): void {
  const m = message as { id?: unknown; model?: unknown } | null;
  if (typeof m?.id === 'string' || typeof m?.model === 'string') options.onResponseInfo?.({ ...(typeof m.id === 'string' ? { id: m.id } : {}), ...(typeof m.model === 'string' ? { model: m.model } : {}) });
}
