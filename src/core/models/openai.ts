import OpenAI from 'openai';
import type { ChatCompletionCreateParamsBase } from 'openai/resources/chat/completions';
import { ConfigError, ModelConnectionError, ModelHttpError } from '../errors.js';
import { messageToChunk } from '../schema/concat.js';
import type { Message, MessageChunk } from '../schema/message.js';
import { withModelOptions, type ChatModel, type ContextWindowInfo, type ModelCallOptions, type ModelTelemetry } from './chat-model.js';
import { modelVision } from './vision.js';
import { CallGuard, probingFetch } from './openai-call.js';
import { fromOpenAICompletion, toOpenAIMessages, toOpenAIToolChoice, toOpenAITools } from './openai-convert.js';
import { htmlResponseError, redact, streamReportedError, toModelError, unwrappedStreamError, type ErrorContext } from './openai-errors.js';
import { OpenAIStreamDecoder } from './openai-stream.js';
import { withResponsesHint } from './openai-responses-hint.js';
import { explainRejectedParameter, rejectedAdaptation, takesMaxCompletionTokens, type SamplingOptions } from './openai-params.js';
import { knownContextWindow } from './context-window.js';
import { knownPrice, type ModelPrice } from './pricing.js';
import { PROFILES, type ProviderProfile } from './providers.js';
import { estimateUsage } from './token-estimate.js';
import { serverOfChunk, serverOfModelEntry, type DetectedServer } from './server-kind.js';
import { DEFAULT_CONTEXT_WINDOW, windowOfModelEntry, windowOfOllamaShow } from './server-window.js';
import { StrictSchemaError, toStrictJsonSchema } from './openai-strict.js';
import type { JsonSchema } from '../tools/tool.js';

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
  /**
   * Whether output schemas are sent in OpenAI's strict mode (`json_schema.strict: true`), made
   * strict-compatible: every property required (optional ones nullable, `null` read as absent),
   * `additionalProperties: false`, keywords strict mode refuses moved into descriptions. A schema that
   * cannot be strict (open keys, tuples, intersections, …) is then a ConfigError naming what and where.
   * Default: true for the `openai` and `azure` profiles; false sends schemas as they are.
   */
  strictOutput?: boolean | undefined;
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
  /** Whether the model takes images and PDFs (`vision:` in agents.yaml); default: false where the profile takes no images or the name is text-only, else unknown. */
  vision?: boolean | undefined;
  /**
   * The profile was guessed from the URL (no `provider:`): the server's answers may tell which server
   * it is (Ollama, vLLM, LM Studio, llama.cpp, DeepSeek), and its quirks are handled from then on.
   */
  detectServer?: boolean | undefined;
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
  /** Replaced once by the detected server's profile when `detectServer` is set. */
  profile: ProviderProfile;
  /** Known from the settings or the name; else learned from the server (resolveContextWindow). */
  contextWindow?: number | undefined;
  readonly structuredOutput: boolean;
  /** Whether output schemas are sent in strict mode (see OpenAIChatModelOptions.strictOutput). */
  readonly strictOutput: boolean;
  readonly price?: ModelPrice | undefined;
  /** Provider (as OpenTelemetry names it), endpoint and request settings, for tracing. */
  readonly telemetry: ModelTelemetry;
  private readonly client: OpenAI;
  private readonly errorContext: ErrorContext;
  /** Learned from a server that rejected them: not sent again by this model. */
  private streamUsage: boolean;
  private maxTokensParam: ProviderProfile['maxTokensParam'];
  private windowInfo?: Promise<ContextWindowInfo> | undefined;

  /** Follows the profile, which a detected server may replace. */
  get vision(): boolean | undefined {
    return modelVision(this.modelName, this.options.vision, this.profile.images);
  }

  constructor(private readonly options: OpenAIChatModelOptions) {
    refuseSeveralChoices(options.extraBody, options.configName);
    this.modelName = options.model;
    this.profile = options.profile ?? PROFILES.openai;
    this.contextWindow = options.contextWindow ?? knownContextWindow(options.model);
    this.structuredOutput = options.structuredOutput ?? this.profile.jsonSchema;
    this.strictOutput = options.strictOutput ?? (this.profile.name === 'openai' || this.profile.name === 'azure');
    this.price = options.price ?? knownPrice(options.model);
    const { url, query } = splitQuery(options.baseURL || this.profile.baseURL || OPENAI_DEFAULT_BASE_URL);
    this.baseURL = url;
    this.telemetry = telemetryOf(this.profile, url, options);
    const timeoutMs = Math.max(1, Math.round(options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS));
    this.errorContext = { baseURL: redact(this.baseURL), timeoutMs, apiKey: options.apiKey };
    this.streamUsage = options.streamUsage ?? this.profile.streamUsage;
    const openaiLike = this.profile.name === 'openai' || this.profile.name === 'azure';
    this.maxTokensParam =
      openaiLike && takesMaxCompletionTokens(options.model) ? 'max_completion_tokens' : this.profile.name === 'openai' && this.baseURL !== OPENAI_DEFAULT_BASE_URL ? 'max_tokens' : this.profile.maxTokensParam;
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
    // The run's model options (Runner.run's modelOptions, per agent) over the model's own settings.
    const o = withModelOptions(this.options, options);
    refuseSeveralChoices(options.extraBody, this.options.configName);
    const p: ChatCompletionCreateParamsBase & Record<string, unknown> = { model: this.modelName, messages: toOpenAIMessages(messages, this.profile) };
    if (options.tools?.length) {
      p.tools = toOpenAITools(options.tools);
      if (options.toolChoice) p.tool_choice = toOpenAIToolChoice(options.toolChoice);
      if (o.parallelToolCalls !== undefined) p.parallel_tool_calls = o.parallelToolCalls;
    }
    if (options.responseFormat && this.structuredOutput) {
      const { name, schema } = options.responseFormat;
      const strict = options.responseFormat.strict ?? (this.strictOutput || undefined);
      const sent = strict ? strictSchema(name, schema) : schema;
      p.response_format = { type: 'json_schema', json_schema: { name, schema: sent, ...(strict !== undefined ? { strict } : {}) } };
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
        tellResponse(body, options);
        this.learnServer(serverOfChunk(body));
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
          let told = false;
          for await (const raw of stream) {
            if (!told) {
              told = tellResponse(raw, options);
              this.learnServer(serverOfChunk(raw));
            }
            // `{"object":"error",…}` without an `error` key (vLLM, Mistral) passes the SDK's check.
            const unwrapped = unwrappedStreamError(raw);
            // An error after the reply's finish reason (OpenRouter after `length`) does not undo the reply.
            if (unwrapped && sawFinish) break;
            if (unwrapped) throw streamReportedError(unwrapped, this.redactor);
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
          const stop = guard.stopError();
          // The reply had finished (its finish reason came): an error event the server sends after it is not the reply's.
          if (stop || !sawFinish) throw stop ?? toModelError(e, this.errorContext, guard.errorBody);
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

  /**
   * The model's context window and where it comes from: the settings or the name, else what the
   * server states (`GET /models`, Ollama's `/api/show`), else DEFAULT_CONTEXT_WINDOW. Asked once.
   */
  resolveContextWindow(signal?: AbortSignal): Promise<ContextWindowInfo> {
    if (this.contextWindow) return Promise.resolve({ window: this.contextWindow, source: this.options.contextWindow ? 'config' : 'known' });
    return (this.windowInfo ??= this.askServerWindow(signal).then((w) => {
      if (w) this.contextWindow = w;
      return w ? { window: w, source: 'server' as const } : { window: DEFAULT_CONTEXT_WINDOW, source: 'default' as const };
    }));
  }

  private async askServerWindow(signal?: AbortSignal): Promise<number | undefined> {
    const guard = new CallGuard(signal, Math.min(this.timeoutMs, 10_000));
    try {
      for await (const m of this.client.models.list(guard.requestOptions())) {
        const entry = m as unknown as Record<string, unknown>;
        if (entry.id !== this.modelName) continue;
        this.learnServer(serverOfModelEntry(entry));
        const w = windowOfModelEntry(entry);
        if (w) return w;
      }
      if (this.profile.name === 'ollama') return await this.ollamaWindow(guard);
      return undefined;
    } catch {
      // A server without /models (or one that fails it) gets the default window and its notice.
      return undefined;
    } finally {
      guard.dispose();
    }
  }

  private async ollamaWindow(guard: CallGuard): Promise<number | undefined> {
    const root = this.baseURL.replace(/\/v1$/, '');
    const res = await fetch(`${root}/api/show`, { method: 'POST', body: JSON.stringify({ model: this.modelName }), headers: { 'content-type': 'application/json' }, signal: guard.signal });
    return res.ok ? windowOfOllamaShow(await res.json()) : undefined;
  }

  /** A plain OpenAI-compatible URL answered like a server adk knows: its quirks apply from now on. */
  private learnServer(kind: DetectedServer | undefined): void {
    if (!kind || !this.options.detectServer || this.profile.name !== 'openai') return;
    this.profile = PROFILES[kind];
    this.telemetry.provider = this.profile.name;
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
    return err instanceof ModelHttpError ? explainRejectedParameter(withResponsesHint(err, this.options.configName), params, this.options.configName) : err;
  }

  private async wholeAnswerChunk(response: Response, messages: Message[], options: ModelCallOptions): Promise<MessageChunk> {
    const body = (await response.json()) as { error?: unknown; choices?: unknown };
    if (body?.error) throw streamReportedError(body.error, this.redactor);
    if (!Array.isArray(body?.choices)) throw new ModelConnectionError('the model endpoint answered without `choices`: not a chat completion', false);
    tellResponse(body, options);
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

/** adk's provider names as OpenTelemetry's `gen_ai.provider.name` spells them (others keep adk's name). */
const OTEL_PROVIDERS: Partial<Record<ProviderProfile['name'], string>> = { azure: 'azure.ai.openai', mistral: 'mistral_ai', gemini: 'gcp.gemini' };

function telemetryOf(profile: ProviderProfile, url: string, o: OpenAIChatModelOptions): ModelTelemetry {
  const t: ModelTelemetry = { provider: OTEL_PROVIDERS[profile.name] ?? profile.name };
  try {
    const u = new URL(url);
    t.serverAddress = u.hostname.replace(/^\[(.*)\]$/, '$1');
    t.serverPort = u.port ? Number(u.port) : u.protocol === 'http:' ? 80 : 443;
  } catch {
    // A base URL that is not a URL fails at the first request, with its own message.
  }
  for (const k of ['temperature', 'topP', 'maxTokens', 'stop', 'seed', 'reasoningEffort'] as const) if (o[k] !== undefined) Object.assign(t, { [k]: o[k] });
  return t;
}

/** Tells the caller the response's id and model from the first body or chunk that has them; true once told. */
function tellResponse(raw: unknown, options: ModelCallOptions): boolean {
  const r = raw as { id?: unknown; model?: unknown } | null;
  const id = typeof r?.id === 'string' && r.id ? r.id : undefined;
  const model = typeof r?.model === 'string' && r.model ? r.model : undefined;
  if (!id && !model) return false;
  options.onResponseInfo?.({ ...(id ? { id } : {}), ...(model ? { model } : {}) });
  return true;
}

const strictSchemas = new WeakMap<object, Record<string, unknown> | StrictSchemaError>();

/** An output schema as strict mode takes it (made once per schema object), or the ConfigError saying why it cannot be. */
function strictSchema(name: string, schema: Record<string, unknown>): Record<string, unknown> {
  let strict = strictSchemas.get(schema);
  if (!strict) {
    try {
      strict = toStrictJsonSchema(schema as JsonSchema) as Record<string, unknown>;
    } catch (e) {
      if (!(e instanceof StrictSchemaError)) throw e;
      strict = e;
    }
    strictSchemas.set(schema, strict);
  }
  if (strict instanceof StrictSchemaError) {
    throw new ConfigError(
      `the output schema "${name}" cannot be sent in OpenAI's strict mode (json_schema strict: true): ${strict.problems.join('; ')}. Change the schema, or send it as it is with strictOutput: false on the model`,
    );
  }
  return strict;
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

/**
 * `n > 1` asks for several answers in one response; adk reads one answer per request (and a stream
 * of several interleaves them), so it is refused before any request.
 */
function refuseSeveralChoices(extraBody: Record<string, unknown> | undefined, configName: string | undefined): void {
  const n = extraBody?.n;
  if (n === undefined || n === null || n === 1) return;
  const where = configName ? `model '${configName}'` : 'the model';
  throw new ConfigError(`extra_body.n is ${JSON.stringify(n)} on ${where}: adk reads one answer per request; remove \`n\` from extra_body (run the request several times instead)`);
}
