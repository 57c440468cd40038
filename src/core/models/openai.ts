import OpenAI from 'openai';
import type { ChatCompletionCreateParamsBase } from 'openai/resources/chat/completions';
import { ModelConnectionError, ModelHttpError } from '../errors.js';
import { messageToChunk } from '../schema/concat.js';
import type { Message, MessageChunk } from '../schema/message.js';
import type { ChatModel, ModelCallOptions } from './chat-model.js';
import { CallGuard, probingFetch } from './openai-call.js';
import { fromOpenAICompletion, toOpenAIMessages, toOpenAIToolChoice, toOpenAITools } from './openai-convert.js';
import { htmlResponseError, redact, streamReportedError, toModelError, type ErrorContext } from './openai-errors.js';
import { OpenAIStreamDecoder } from './openai-stream.js';
import { explainRejectedParameter, rejectedAdaptation, type SamplingOptions } from './openai-params.js';
import { knownContextWindow } from './context-window.js';
import { knownPrice, type ModelPrice } from './pricing.js';
import { PROFILES, type ProviderProfile } from './providers.js';
import { estimateUsage } from './token-estimate.js';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';
export const DEFAULT_REQUEST_TIMEOUT_MS = 10 * 60_000;
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;
export const AZURE_DEFAULT_API_VERSION = '2024-10-21';

/** Settings of OpenAIChatModel: the endpoint, credentials, timeouts and the request defaults of SamplingOptions. */
export interface OpenAIChatModelOptions extends SamplingOptions {
  model: string;
  /** Omitted: no Authorization header is sent (local servers such as Ollama need none). */
  apiKey?: string | undefined;
  /** Default: the profile's, else `https://api.openai.com/v1`. A `?query` in it is sent with every request. */
  baseURL?: string | undefined;
  /** How this provider differs from OpenAI. Default: the `openai` profile. */
  profile?: ProviderProfile | undefined;
  /** Whether the endpoint takes `response_format: json_schema`. Default: the profile's. */
  structuredOutput?: boolean | undefined;
  /** US dollars per million tokens. Default: the list price for the model's name, when known. */
  price?: ModelPrice | undefined;
  /** The `models:` entry this model came from, named in error messages. */
  configName?: string | undefined;
  /** Whole request, stream included. Default 10 minutes. */
  timeoutMs?: number | undefined;
  /** Longest silence allowed while waiting for or reading a stream. Default 60 s. */
  idleTimeoutMs?: number | undefined;
  headers?: Record<string, string> | undefined;
  /** @deprecated use `headers`. */
  extraHeaders?: Record<string, string> | undefined;
  /** Query parameters sent with every request (Azure's `api-version`). */
  query?: Record<string, string> | undefined;
  /** Largest prompt the model takes, in tokens; informational for compaction. */
  contextWindow?: number | undefined;
}

/**
 * A model behind any OpenAI-compatible Chat Completions endpoint (OpenAI, Azure, Ollama, vLLM, LM Studio,
 * DeepSeek, OpenRouter, …). Its provider profile decides how requests are shaped; the stream decoder
 * survives how servers stream. It never retries failures (the agent layer does) and throws only typed
 * errors: ModelHttpError, ModelConnectionError, ModelTimeoutError, CancelledError.
 */
export class OpenAIChatModel implements ChatModel {
  readonly modelName: string;
  readonly baseURL: string;
  readonly profile: ProviderProfile;
  readonly contextWindow?: number | undefined;
  readonly structuredOutput: boolean;
  readonly price?: ModelPrice | undefined;
  private readonly client: OpenAI;
  private readonly errorContext: ErrorContext;
  /** Learned from a server that rejected them: not sent again by this model. */
  private streamUsage: boolean;
  private maxTokensParam: ProviderProfile['maxTokensParam'];

  constructor(private readonly options: OpenAIChatModelOptions) {
    this.modelName = options.model;
    this.profile = options.profile ?? PROFILES.openai;
    this.contextWindow = options.contextWindow ?? knownContextWindow(options.model);
    this.structuredOutput = options.structuredOutput ?? this.profile.jsonSchema;
    this.price = options.price ?? knownPrice(options.model);
    const { url, query } = splitQuery(options.baseURL || this.profile.baseURL || OPENAI_DEFAULT_BASE_URL);
    this.baseURL = url;
    const timeoutMs = Math.max(1, Math.round(options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS));
    this.errorContext = { baseURL: redact(this.baseURL), timeoutMs, apiKey: options.apiKey };
    this.streamUsage = options.streamUsage ?? this.profile.streamUsage;
    this.maxTokensParam = this.profile.name === 'openai' && this.baseURL !== OPENAI_DEFAULT_BASE_URL ? 'max_tokens' : this.profile.maxTokensParam;
    const azure = this.profile.auth === 'azure';
    const defaultQuery: Record<string, string> = { ...query, ...options.query };
    // Classic deployment URLs need an api-version; Azure's newer /openai/v1 endpoint takes none.
    if (azure && !defaultQuery['api-version'] && /\/deployments\//.test(url)) defaultQuery['api-version'] = AZURE_DEFAULT_API_VERSION;
    const auth: Record<string, string | null> = azure
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
      defaultQuery: Object.keys(defaultQuery).length ? defaultQuery : undefined,
      defaultHeaders: { ...auth, ...options.extraHeaders, ...options.headers },
    });
  }

  private get timeoutMs(): number {
    return this.errorContext.timeoutMs;
  }

  private get idleTimeoutMs(): number {
    return this.options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  }

  private params(messages: Message[], options: ModelCallOptions): ChatCompletionCreateParamsBase & Record<string, unknown> {
    const o = this.options;
    const p: ChatCompletionCreateParamsBase & Record<string, unknown> = { model: this.modelName, messages: toOpenAIMessages(messages, this.profile) };
    if (options.tools?.length) {
      p.tools = toOpenAITools(options.tools);
      if (options.toolChoice) p.tool_choice = toOpenAIToolChoice(options.toolChoice);
      if (o.parallelToolCalls !== undefined) p.parallel_tool_calls = o.parallelToolCalls;
    }
    if (options.responseFormat && this.structuredOutput) {
      const { name, schema, strict } = options.responseFormat;
      p.response_format = { type: 'json_schema', json_schema: { name, schema, ...(strict !== undefined ? { strict } : {}) } };
    }
    if (o.temperature !== undefined) p.temperature = o.temperature;
    if (o.topP !== undefined) p.top_p = o.topP;
    if (o.stop !== undefined) p.stop = o.stop;
    if (o.seed !== undefined) p.seed = o.seed;
    if (o.reasoningEffort !== undefined) p.reasoning_effort = o.reasoningEffort as never;
    if (o.maxTokens !== undefined) p[this.maxTokensParam] = o.maxTokens;
    // Extra body fields last: they are the user's escape hatch and win over ours.
    return o.extraBody ? { ...p, ...o.extraBody } : p;
  }

  async generate(messages: Message[], options: ModelCallOptions = {}): Promise<Message> {
    for (let adapted = 0; ; adapted++) {
      // No idle timeout: a non-streamed body arrives all at once after the whole generation.
      const guard = new CallGuard(options.signal, this.timeoutMs);
      const params = this.params(messages, options);
      try {
        const { data, response } = await this.client.chat.completions.create({ ...params, stream: false }, guard.requestOptions()).withResponse();
        const body = data as unknown;
        if (typeof body !== 'object' || body === null) {
          const type = response.headers.get('content-type') ?? 'no content type';
          if (/html/i.test(type)) throw htmlResponseError(this.baseURL, type);
          throw new ModelConnectionError(`the model endpoint at ${this.errorContext.baseURL} did not answer with JSON (${type})`, false);
        }
        if ('error' in body && (body as { error?: unknown }).error) throw streamReportedError((body as { error: unknown }).error, this.redactor);
        if (!Array.isArray((body as { choices?: unknown }).choices)) {
          throw new ModelConnectionError('the model endpoint answered without `choices`: not a chat completion', false);
        }
        return await this.withUsage(fromOpenAICompletion(data, toolNames(options)), messages, options);
      } catch (e) {
        const err = guard.stopError() ?? toModelError(e, this.errorContext, guard.errorBody);
        if (adapted < 2 && this.adapt(err, params)) continue;
        throw this.explain(err, params);
      } finally {
        guard.dispose();
      }
    }
  }

  async *stream(messages: Message[], options: ModelCallOptions = {}): AsyncIterable<MessageChunk> {
    for (let adapted = 0; ; adapted++) {
      const guard = new CallGuard(options.signal, this.timeoutMs, this.idleTimeoutMs, this.profile.patientFirstToken);
      const params = this.params(messages, options);
      const decoder = new OpenAIStreamDecoder({ toolNames: toolNames(options) });
      let complete = false;
      let yielded = false;
      let sawUsage = false;
      const reply: string[] = [];
      try {
        let sawFinish = false;
        try {
          const request = { ...params, stream: true as const, ...(this.streamUsage ? { stream_options: { include_usage: true } } : {}) };
          const { data: stream, response } = await this.client.chat.completions.create(request, guard.requestOptions()).withResponse();
          const type = response.headers.get('content-type') ?? '';
          if (/html/i.test(type)) throw htmlResponseError(this.baseURL, type);
          if (/ndjson/i.test(type)) throw ndjsonError(this.errorContext.baseURL);
          if (/json/i.test(type)) {
            // The server ignored `stream: true` (some proxies do): serve the whole answer as one chunk.
            yield await this.wholeAnswerChunk(response, messages, options);
            complete = true;
            return;
          }
          for await (const raw of stream) {
            const chunk = decoder.decode(raw);
            if (!chunk) continue;
            if (chunk.finishReason) sawFinish = true;
            if (chunk.usage) sawUsage = true;
            collectReply(chunk, reply);
            guard.pause();
            yielded = true;
            yield chunk;
            guard.resume();
          }
        } catch (e) {
          throw guard.stopError() ?? toModelError(e, this.errorContext, guard.errorBody);
        }
        // The SDK ends quietly when its request is aborted, so our own stops surface here.
        const stopped = guard.stopError();
        if (stopped) throw stopped;
        if (!sawFinish && !guard.sawDone) {
          throw new ModelConnectionError('the model stream ended before the reply was complete (no finish_reason and no [DONE]): the connection was cut', true);
        }
        const rest = decoder.finish();
        if (rest) yield rest;
        if (!sawUsage) yield { usage: await estimateUsage(this.modelName, messages, options.tools, reply.join('')) };
        complete = true;
      } catch (e) {
        if (!yielded && adapted < 2 && this.adapt(e, params)) continue;
        throw this.explain(e, params);
      } finally {
        // An error or a consumer that stopped reading: release the connection now.
        if (!complete) guard.abort();
        guard.dispose();
      }
      return;
    }
  }

  async listModels(signal?: AbortSignal): Promise<string[]> {
    const guard = new CallGuard(signal, Math.min(this.timeoutMs, 30_000));
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

  /** A parameter adk added on its own was rejected: drop or rename it for this and every later request. */
  private adapt(err: unknown, params: Record<string, unknown>): boolean {
    const fix = rejectedAdaptation(err, { sentStreamUsage: this.streamUsage, maxTokensParam: params.max_tokens !== undefined ? 'max_tokens' : params.max_completion_tokens !== undefined ? 'max_completion_tokens' : undefined });
    if (fix === 'drop_stream_usage') this.streamUsage = false;
    else if (fix === 'use_max_completion_tokens') this.maxTokensParam = 'max_completion_tokens';
    else if (fix === 'use_max_tokens') this.maxTokensParam = 'max_tokens';
    return fix !== undefined;
  }

  private explain(err: unknown, params: Record<string, unknown>): unknown {
    return err instanceof ModelHttpError ? explainRejectedParameter(err, params, this.options.configName) : err;
  }

  private async wholeAnswerChunk(response: Response, messages: Message[], options: ModelCallOptions): Promise<MessageChunk> {
    const body = (await response.json()) as { error?: unknown; choices?: unknown };
    if (body?.error) throw streamReportedError(body.error, this.redactor);
    if (!Array.isArray(body?.choices)) throw new ModelConnectionError('the model endpoint answered without `choices`: not a chat completion', false);
    return messageToChunk(await this.withUsage(fromOpenAICompletion(body, toolNames(options)), messages, options));
  }

  /** A reply the server reported no usage for gets an estimate, so meters and totals still move. */
  private async withUsage(reply: Message, messages: Message[], options: ModelCallOptions): Promise<Message> {
    if (reply.usage) return reply;
    const text = [reply.content, reply.reasoningContent ?? '', ...(reply.toolCalls ?? []).map((c) => c.function.name + c.function.arguments)].join('');
    return { ...reply, usage: await estimateUsage(this.modelName, messages, options.tools, text) };
  }

  private readonly redactor = (s: string) => redact(s, this.options.apiKey);
}

/** The text a reply's tokens come from: content, reasoning and call arguments. */
function collectReply(chunk: MessageChunk, into: string[]): void {
  if (chunk.content) into.push(chunk.content);
  if (chunk.reasoningContent) into.push(chunk.reasoningContent);
  for (const c of chunk.toolCalls ?? []) {
    if (c.function?.name) into.push(c.function.name);
    if (c.function?.arguments) into.push(c.function.arguments);
  }
}

function toolNames(options: ModelCallOptions): string[] | undefined {
  return options.tools?.map((t) => t.name);
}

/** `https://host/path?api-version=x` → the URL without its query, and the query as parameters. */
function splitQuery(raw: string): { url: string; query: Record<string, string> } {
  const at = raw.indexOf('?');
  const url = (at < 0 ? raw : raw.slice(0, at)).replace(/\/+$/, '');
  const query: Record<string, string> = {};
  if (at >= 0) for (const [k, v] of new URLSearchParams(raw.slice(at + 1))) query[k] = v;
  return { url, query };
}

function ndjsonError(baseURL: string): ModelConnectionError {
  return new ModelConnectionError(
    `the model endpoint at ${baseURL} answered with NDJSON, which is Ollama's native API; use its OpenAI-compatible endpoint (…/v1, e.g. http://localhost:11434/v1)`,
    false,
  );
}
