import OpenAI, { APIError } from 'openai';
import { collectReply } from './collect-reply.js';
import { ConfigError, ModelConnectionError, ModelHttpError } from '../errors.js';
import type { Message, MessageChunk } from '../schema/message.js';
import { withModelOptions, type ChatModel, type ModelCallOptions, type ModelTelemetry } from './chat-model.js';
import { modelVision } from './vision.js';
import { knownContextWindow } from './context-window.js';
import { CallGuard, probingFetch } from './openai-call.js';
import { conciseDetail, redact, toModelError, type ErrorContext } from './openai-errors.js';
import { explainRejectedParameter, type SamplingOptions } from './openai-params.js';
import { DEFAULT_IDLE_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS, OPENAI_DEFAULT_BASE_URL } from './openai.js';
import { RESPONSES_PROVIDER, ResponsesStreamDecoder, responseIdOf, toResponsesInput, toResponsesToolChoice, toResponsesTools } from './openai-responses-convert.js';
import { knownPrice, type ModelPrice } from './pricing.js';

/** Settings of OpenAIResponsesModel: those of OpenAIChatModel that the Responses API has, and its own. */
export interface OpenAIResponsesModelOptions extends SamplingOptions {
  model: string;
  apiKey?: string | undefined;
  /** Default `https://api.openai.com/v1`; Azure: `https://<resource>.openai.azure.com/openai/v1`. */
  baseURL?: string | undefined;
  /** Azure's `api-key` header instead of a bearer token. */
  azure?: boolean | undefined;
  /** Keep responses on the provider's side. Default false: reasoning comes back encrypted and is sent with the history. */
  store?: boolean | undefined;
  /** With `store`: send only the messages after the last answer, chained by `previous_response_id`. */
  previousResponseId?: boolean | undefined;
  /** Reasoning summaries to ask for. Default `auto` for reasoning models (o-series, gpt-5, codex), none for others. */
  reasoningSummary?: 'auto' | 'concise' | 'detailed' | 'none' | undefined;
  configName?: string | undefined;
  contextWindow?: number | undefined;
  /** Whether the model takes images and PDFs (`vision:` in agents.yaml); default: known text-only names say false, else unknown. */
  vision?: boolean | undefined;
  price?: ModelPrice | undefined;
  timeoutMs?: number | undefined;
  idleTimeoutMs?: number | undefined;
  headers?: Record<string, string> | undefined;
  query?: Record<string, string> | undefined;
}

/** The api-version of Azure's preview Responses API under /openai (its /openai/v1 takes none). */
export const AZURE_RESPONSES_API_VERSION = '2025-04-01-preview';

/** Models that reason (and so take `reasoning` and return encrypted reasoning). */
const REASONING_MODEL = /^(o\d|gpt-5|codex|computer-use)/;

/**
 * A model on OpenAI's Responses API (`POST /responses`), for OpenAI and Azure: reasoning summaries shown
 * as thinking, encrypted reasoning items kept on the assistant message and sent back (store off), and
 * optionally chained by `previous_response_id`. Same ChatModel contract and typed errors as
 * OpenAIChatModel; retries are the agent's.
 */
export class OpenAIResponsesModel implements ChatModel {
  readonly modelName: string;
  readonly baseURL: string;
  readonly contextWindow?: number | undefined;
  readonly vision?: boolean | undefined;
  readonly price?: ModelPrice | undefined;
  readonly structuredOutput = true;
  readonly telemetry: ModelTelemetry;
  private readonly client: OpenAI;
  private readonly errorContext: ErrorContext;
  /** Learned from a 400 (organisations not verified for summaries): not asked again by this model. */
  private summaries: boolean;

  constructor(private readonly options: OpenAIResponsesModelOptions) {
    this.modelName = options.model;
    this.contextWindow = options.contextWindow ?? knownContextWindow(options.model);
    this.vision = modelVision(options.model, options.vision);
    this.price = options.price ?? knownPrice(options.model);
    const raw = options.baseURL || OPENAI_DEFAULT_BASE_URL;
    const at = raw.indexOf('?');
    this.baseURL = (at < 0 ? raw : raw.slice(0, at)).replace(/\/+$/, '');
    if (options.azure && /\/deployments\//.test(this.baseURL)) {
      throw new ConfigError(
        `model '${options.configName ?? options.model}': Azure's Responses API is not under /deployments/; set base_url to https://<resource>.openai.azure.com/openai/v1 and model to the deployment name`,
      );
    }
    const query: Record<string, string> = { ...(at < 0 ? {} : Object.fromEntries(new URLSearchParams(raw.slice(at + 1)))), ...options.query };
    // Azure's older /openai/responses needs a preview api-version; /openai/v1 takes none.
    if (options.azure && !query['api-version'] && /\/openai$/.test(this.baseURL)) query['api-version'] = AZURE_RESPONSES_API_VERSION;
    const timeoutMs = Math.max(1, Math.round(options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS));
    this.errorContext = { baseURL: redact(this.baseURL), timeoutMs, apiKey: options.apiKey };
    this.summaries = (options.reasoningSummary ?? 'auto') !== 'none';
    const auth: Record<string, string | null> = options.azure
      ? { Authorization: null, ...(options.apiKey ? { 'api-key': options.apiKey } : {}) }
      : options.apiKey
        ? {}
        : { Authorization: null };
    this.client = new OpenAI({
      apiKey: options.apiKey ?? '',
      baseURL: this.baseURL,
      maxRetries: 0,
      timeout: timeoutMs,
      logLevel: 'off',
      fetch: probingFetch(),
      defaultQuery: Object.keys(query).length ? query : undefined,
      defaultHeaders: { ...auth, ...options.headers },
    });
    this.telemetry = telemetryOf(options.azure ? 'azure.ai.openai' : 'openai', this.baseURL, options);
  }

  private body(messages: Message[], options: ModelCallOptions): Record<string, unknown> {
    const o = withModelOptions(this.options, options);
    const chained = this.options.store && this.options.previousResponseId ? lastResponse(messages) : undefined;
    const body: Record<string, unknown> = {
      model: this.modelName,
      input: toResponsesInput(messages, chained?.index),
      store: this.options.store ?? false,
    };
    if (chained) body.previous_response_id = chained.id;
    const reasoning = REASONING_MODEL.test(this.modelName.replace(/^[\w.-]+\//, '')) || o.reasoningEffort !== undefined;
    if (reasoning) {
      body.reasoning = { ...(o.reasoningEffort !== undefined ? { effort: o.reasoningEffort } : {}), ...(this.summaries ? { summary: this.options.reasoningSummary ?? 'auto' } : {}) };
      // Without storage the next turn needs the reasoning itself, encrypted.
      if (!this.options.store) body.include = ['reasoning.encrypted_content'];
    }
    if (options.tools?.length) {
      body.tools = toResponsesTools(options.tools);
      if (options.toolChoice) body.tool_choice = toResponsesToolChoice(options.toolChoice);
      if (o.parallelToolCalls !== undefined) body.parallel_tool_calls = o.parallelToolCalls;
    }
    if (options.responseFormat) {
      const { name, schema, strict } = options.responseFormat;
      body.text = { format: { type: 'json_schema', name, schema, ...(strict !== undefined ? { strict } : {}) } };
    }
    if (o.temperature !== undefined) body.temperature = o.temperature;
    if (o.topP !== undefined) body.top_p = o.topP;
    if (o.maxTokens !== undefined) body.max_output_tokens = o.maxTokens;
    return o.extraBody ? { ...body, ...o.extraBody } : body;
  }

  generate(messages: Message[], options: ModelCallOptions = {}): Promise<Message> {
    return collectReply(this.stream(messages, options));
  }

  async *stream(messages: Message[], options: ModelCallOptions = {}): AsyncIterable<MessageChunk> {
    for (let adapted = 0; ; adapted++) {
      const guard = new CallGuard(options.signal, this.errorContext.timeoutMs, this.options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS);
      const body = this.body(messages, options);
      const decoder = new ResponsesStreamDecoder();
      let complete = false;
      let yielded = false;
      try {
        try {
          const stream = (await this.client.responses.create({ ...body, stream: true } as never, guard.requestOptions())) as unknown as AsyncIterable<Record<string, unknown>>;
          for await (const ev of stream) {
            if (ev.type === 'response.created') tellResponse(ev.response, options);
            const chunk = decoder.decode(ev);
            if (decoder.failed) throw failedError(decoder.failed, this.redactor);
            if (!chunk) continue;
            guard.pause();
            yielded = true;
            yield chunk;
            guard.resume();
          }
        } catch (e) {
          throw guard.stopError() ?? this.toError(e, guard.errorBody);
        }
        const stopped = guard.stopError();
        if (stopped) throw stopped;
        if (!decoder.finished) throw new ModelConnectionError('the model stream ended before response.completed: the connection was cut', true);
        complete = true;
      } catch (e) {
        if (!yielded && adapted < 1 && this.adapt(e)) continue;
        throw e instanceof ModelHttpError ? explainRejectedParameter(e, body, this.options.configName) : e;
      } finally {
        if (!complete) guard.abort();
        guard.dispose();
      }
      return;
    }
  }

  async listModels(signal?: AbortSignal): Promise<string[]> {
    const guard = new CallGuard(signal, Math.min(this.errorContext.timeoutMs, 30_000));
    try {
      const ids: string[] = [];
      for await (const m of this.client.models.list(guard.requestOptions())) if (typeof m?.id === 'string') ids.push(m.id);
      return ids;
    } catch (e) {
      throw guard.stopError() ?? toModelError(e, this.errorContext, guard.errorBody);
    } finally {
      guard.dispose();
    }
  }

  /** Organisations not verified for reasoning summaries get a 400: ask without them from now on. */
  private adapt(err: unknown): boolean {
    if (!this.summaries || !(err instanceof ModelHttpError) || err.status !== 400) return false;
    if (!/reasoning\.summary|reasoning summar/i.test(err.message)) return false;
    this.summaries = false;
    return true;
  }

  /** An `error` event inside the stream carries a code instead of a status: the status it stands for. */
  private toError(e: unknown, errorBody: string | undefined): Error {
    if (e instanceof APIError && typeof e.status !== 'number') return streamError(e.error, this.redactor);
    return toModelError(e, this.errorContext, errorBody);
  }

  private readonly redactor = (s: string) => redact(s, this.options.apiKey);
}

const CODE_STATUS: Record<string, number> = {
  rate_limit_exceeded: 429,
  insufficient_quota: 429,
  server_error: 500,
  server_is_overloaded: 503,
  slow_down: 503,
  invalid_prompt: 400,
  invalid_request_error: 400,
  context_length_exceeded: 400,
  vector_store_timeout: 504,
};

function streamError(error: unknown, r: (s: string) => string): Error {
  const err = (error ?? {}) as { message?: unknown; code?: unknown; type?: unknown };
  const code = typeof err.code === 'string' ? err.code : typeof err.type === 'string' ? err.type : undefined;
  const detail = r(conciseDetail(typeof err.message === 'string' ? err.message : JSON.stringify(error ?? {})));
  const status = code ? CODE_STATUS[code] : undefined;
  if (status) return new ModelHttpError(status, detail, undefined, { providerCode: code });
  return new ModelConnectionError(`the model endpoint reported an error${code ? ` (${code})` : ''}: ${detail}`, true);
}

/** `response.failed` without an `error` event before it. */
function failedError(response: Record<string, unknown>, r: (s: string) => string): Error {
  return streamError(response.error ?? { message: 'the response failed' }, r);
}

/** The last assistant message that came from this API, and its response id. */
function lastResponse(messages: Message[]): { index: number; id: string } | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== 'assistant') continue;
    const id = responseIdOf(m);
    return id ? { index: i, id } : undefined;
  }
  return undefined;
}

function telemetryOf(provider: string, url: string, o: OpenAIResponsesModelOptions): ModelTelemetry {
  const t: ModelTelemetry = { provider };
  try {
    const u = new URL(url);
    t.serverAddress = u.hostname.replace(/^\[(.*)\]$/, '$1');
    t.serverPort = u.port ? Number(u.port) : u.protocol === 'http:' ? 80 : 443;
  } catch {
    // A base URL that is not a URL fails at the first request.
  }
  for (const k of ['temperature', 'topP', 'maxTokens', 'reasoningEffort'] as const) if (o[k] !== undefined) Object.assign(t, { [k]: o[k] });
  return t;
}

function tellResponse(response: unknown, options: ModelCallOptions): void {
  const r = response as { id?: unknown; model?: unknown } | null;
  const id = typeof r?.id === 'string' && r.id ? r.id : undefined;
  const model = typeof r?.model === 'string' && r.model ? r.model : undefined;
  if (id || model) options.onResponseInfo?.({ ...(id ? { id } : {}), ...(model ? { model } : {}) });
}

export { RESPONSES_PROVIDER };
