import type { GoogleGenAI } from '@google/genai';
import { collectReply } from './collect-reply.js';
import { AdkError, CancelledError, ConfigError, ModelConnectionError, ModelHttpError } from '../errors.js';
import type { Message, MessageChunk } from '../schema/message.js';
import { importModule } from '../dynamic-import.js';
import { importOptional, notInstalled } from '../optional-peer.js';
import { withModelOptions, type ChatModel, type ModelCallOptions, type ModelOptions, type ModelTelemetry } from './chat-model.js';
import { modelVision } from './vision.js';
import { knownContextWindow } from './context-window.js';
import { GeminiStreamDecoder, MalformedCallError, toGeminiRequest, toGeminiToolConfig, toGeminiTools } from './google-convert.js';
import type { ModelInfo } from './model-info.js';
import { CallGuard, probingFetch } from './openai-call.js';
import { bodyMessage, conciseDetail, describeCause, redact } from './openai-errors.js';
import { DEFAULT_IDLE_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS } from './openai.js';
import { knownPrice, type ModelPrice } from './pricing.js';

const PKG = '@google/genai';

/** Settings of GoogleChatModel: the Gemini API with a key, or Vertex AI (application-default credentials). */
export interface GoogleChatModelOptions extends ModelOptions {
  model: string;
  /** Gemini API key (Vertex: an express-mode key; without one, application-default credentials). */
  apiKey?: string | undefined;
  /** Vertex AI instead of the Gemini API. */
  vertex?: boolean | undefined;
  /** Vertex: the Google Cloud project and location. */
  project?: string | undefined;
  location?: string | undefined;
  /** Another endpoint (a proxy, a regional one, a test server). */
  baseURL?: string | undefined;
  /** Thinking tokens (0 off, -1 dynamic) and Gemini 3's thinking level. */
  thinkingBudget?: number | undefined;
  thinkingLevel?: 'minimal' | 'low' | 'medium' | 'high' | undefined;
  configName?: string | undefined;
  contextWindow?: number | undefined;
  /** Whether the model takes images and PDFs (`vision:` in agents.yaml); default: known text-only names say false, else unknown. */
  vision?: boolean | undefined;
  price?: ModelPrice | undefined;
  timeoutMs?: number | undefined;
  idleTimeoutMs?: number | undefined;
  headers?: Record<string, string> | undefined;
}

/** Models that think (and so take a thinking config). */
const THINKING_MODEL = /gemini-(2\.5|3)/;

/**
 * Gemini through its native API (`@google/genai`, an optional peer loaded with the first request):
 * thought summaries shown as thinking, thought signatures kept on the message and sent back across tool
 * loops, parallel function calls, usage with thoughts and cached tokens, safety blocks ending the turn
 * `incomplete`. The SDK's own retries are off: the agent retries, as for every model.
 */
export class GoogleChatModel implements ChatModel {
  readonly modelName: string;
  readonly baseURL: string;
  readonly contextWindow?: number | undefined;
  readonly vision?: boolean | undefined;
  readonly price?: ModelPrice | undefined;
  readonly structuredOutput = true;
  readonly telemetry: ModelTelemetry;
  private client?: Promise<GoogleGenAI> | undefined;
  private readonly timeoutMs: number;

  constructor(private readonly options: GoogleChatModelOptions) {
    this.modelName = options.model.replace(/^models\//, '');
    this.contextWindow = options.contextWindow ?? knownContextWindow(this.modelName);
    this.vision = modelVision(this.modelName, options.vision);
    this.price = options.price ?? knownPrice(this.modelName);
    const location = options.location ?? 'global';
    this.baseURL = (
      options.baseURL || (options.vertex ? `https://${location === 'global' ? '' : `${location}-`}aiplatform.googleapis.com` : 'https://generativelanguage.googleapis.com')
    ).replace(/\/+$/, '');
    this.timeoutMs = Math.max(1, Math.round(options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS));
    this.telemetry = telemetryOf(options.vertex ? 'gcp.vertex_ai' : 'gcp.gemini', this.baseURL, options);
  }

  private connect(): Promise<GoogleGenAI> {
    const o = this.options;
    return (this.client ??= importOptional(() => importModule<typeof import('@google/genai')>(PKG), PKG, () => new ConfigError(`provider: ${o.vertex ? 'vertex' : 'google'} needs ${notInstalled(PKG)}`)).then(
      (sdk) =>
        new sdk.GoogleGenAI({
          ...(o.vertex ? { vertexai: true, project: o.project, location: o.location ?? 'global' } : {}),
          ...(o.apiKey ? { apiKey: o.apiKey } : {}),
          httpOptions: { ...(o.baseURL ? { baseUrl: this.baseURL } : {}), ...(o.headers ? { headers: o.headers } : {}) },
        }),
    ));
  }

  private config(messages: Message[], options: ModelCallOptions, guard: CallGuard): { contents: unknown; config: Record<string, unknown> } {
    const o = withModelOptions(this.options, options);
    const { systemInstruction, contents } = toGeminiRequest(messages);
    const config: Record<string, unknown> = {
      abortSignal: guard.signal,
      // Per request: the guard sees every byte (idle timeout, error bodies).
      httpOptions: { timeout: this.timeoutMs, fetch: guardedFetch(guard) },
    };
    if (systemInstruction) config.systemInstruction = systemInstruction;
    if (options.tools?.length) {
      config.tools = toGeminiTools(options.tools);
      if (options.toolChoice) config.toolConfig = toGeminiToolConfig(options.toolChoice);
    }
    if (options.responseFormat) {
      config.responseMimeType = 'application/json';
      config.responseJsonSchema = options.responseFormat.schema;
    }
    if (o.temperature !== undefined) config.temperature = o.temperature;
    if (o.topP !== undefined) config.topP = o.topP;
    if (o.maxTokens !== undefined) config.maxOutputTokens = o.maxTokens;
    if (o.stop !== undefined) config.stopSequences = Array.isArray(o.stop) ? o.stop : [o.stop];
    if (o.seed !== undefined) config.seed = o.seed;
    const thinking = this.options.thinkingBudget !== undefined || this.options.thinkingLevel !== undefined;
    if (thinking || THINKING_MODEL.test(this.modelName)) {
      config.thinkingConfig = {
        // Summaries of the thoughts, shown as thinking; none when thinking is off.
        includeThoughts: this.options.thinkingBudget !== 0,
        ...(this.options.thinkingBudget !== undefined ? { thinkingBudget: this.options.thinkingBudget } : {}),
        ...(this.options.thinkingLevel !== undefined ? { thinkingLevel: this.options.thinkingLevel.toUpperCase() } : {}),
      };
    }
    return { contents, config: o.extraBody ? { ...config, ...o.extraBody } : config };
  }

  generate(messages: Message[], options: ModelCallOptions = {}): Promise<Message> {
    return collectReply(this.stream(messages, options));
  }

  async *stream(messages: Message[], options: ModelCallOptions = {}): AsyncIterable<MessageChunk> {
    const guard = new CallGuard(options.signal, this.timeoutMs, this.options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS);
    const decoder = new GeminiStreamDecoder();
    let complete = false;
    try {
      try {
        const ai = await this.connect();
        const { contents, config } = this.config(messages, options, guard);
        const stream = await ai.models.generateContentStream({ model: this.modelName, contents: contents as never, config: config as never });
        let told = false;
        for await (const res of stream) {
          if (!told) told = tellResponse(res, options);
          const chunk = decoder.decode(res as unknown as Record<string, unknown>);
          if (!chunk) continue;
          guard.pause();
          yield chunk;
          guard.resume();
        }
      } catch (e) {
        throw guard.stopError() ?? this.toError(e, guard.errorBody);
      }
      const stopped = guard.stopError();
      if (stopped) throw stopped;
      if (!decoder.finished) throw new ModelConnectionError('the Gemini stream ended without a finish reason: the connection was cut', true);
      let last: MessageChunk;
      try {
        last = decoder.finish();
      } catch (e) {
        // A new sample usually writes the call properly.
        if (e instanceof MalformedCallError) throw new ModelConnectionError(e.message, true);
        throw e;
      }
      yield last;
      complete = true;
    } finally {
      if (!complete) guard.abort();
      guard.dispose();
    }
  }

  async listModels(signal?: AbortSignal): Promise<string[]> {
    return (await this.listModelInfo(signal)).map((m) => m.id);
  }

  /** The models the endpoint offers that generate content, with their input and output limits. */
  async listModelInfo(signal?: AbortSignal): Promise<ModelInfo[]> {
    const guard = new CallGuard(signal, Math.min(this.timeoutMs, 30_000));
    try {
      const ai = await this.connect();
      const out: ModelInfo[] = [];
      const pager = await ai.models.list({ config: { abortSignal: guard.signal, httpOptions: { fetch: guardedFetch(guard) } } as never });
      for await (const m of pager) {
        const actions = m.supportedActions;
        if (actions && !actions.includes('generateContent')) continue;
        const id = String(m.name ?? '').replace(/^(publishers\/google\/)?models\//, '');
        if (!id) continue;
        out.push({ id, ...(m.inputTokenLimit ? { contextWindow: m.inputTokenLimit } : {}), ...(m.outputTokenLimit ? { maxOutputTokens: m.outputTokenLimit } : {}) });
      }
      return out;
    } catch (e) {
      throw guard.stopError() ?? this.toError(e, guard.errorBody);
    } finally {
      guard.dispose();
    }
  }

  private toError(e: unknown, errorBody: string | undefined): Error {
    const r = (s: string) => redact(s, this.options.apiKey);
    if (e instanceof AdkError) return e;
    const err = e as { name?: unknown; status?: unknown; message?: unknown };
    if (err?.name === 'AbortError') return new CancelledError('model request cancelled');
    if (typeof err?.status === 'number' && err.status >= 400) {
      const raw = errorBody ?? String(err.message ?? '');
      const detail = r(conciseDetail(bodyMessage(raw.replace(/^[^{[]*(?=[{[])/, ''))));
      return new ModelHttpError(err.status, detail, retryDelayOf(raw), { providerCode: statusCodeOf(raw) });
    }
    if (e instanceof SyntaxError) return new ModelConnectionError(r(`the Gemini endpoint sent invalid JSON: ${e.message}`), true);
    if (e instanceof TypeError) return new ModelConnectionError(r(`cannot reach the Gemini endpoint at ${this.baseURL}: ${describeCause(e)}`), true);
    const message = e instanceof Error ? e.message : String(e);
    // The SDK reports a missing project or credentials with a plain Error: say what to set.
    if (/project|location|credential|API key/i.test(message)) return new ConfigError(r(`${this.options.vertex ? 'provider: vertex' : 'provider: google'}: ${message}`));
    return new ModelConnectionError(r(`Gemini request failed: ${message}`), false);
  }
}

/** Hands the request's CallGuard to probingFetch, which reads it from the fetch options. */
function guardedFetch(guard: CallGuard): typeof fetch {
  const probe = probingFetch();
  const extra = guard.requestOptions().fetchOptions;
  return (input, init) => probe(input, { ...init, ...extra });
}

/** Gemini's RetryInfo (`"retryDelay": "13s"`) in a 429 body, in milliseconds. */
function retryDelayOf(body: string): number | undefined {
  const m = /"retryDelay"\s*:\s*"(\d+(?:\.\d+)?)s"/.exec(body);
  return m ? Math.round(Number(m[1]) * 1000) : undefined;
}

function statusCodeOf(body: string): string | undefined {
  return /"status"\s*:\s*"([A-Z_]+)"/.exec(body)?.[1];
}

function telemetryOf(provider: string, url: string, o: GoogleChatModelOptions): ModelTelemetry {
  const t: ModelTelemetry = { provider };
  try {
    const u = new URL(url);
    t.serverAddress = u.hostname;
    t.serverPort = u.port ? Number(u.port) : u.protocol === 'http:' ? 80 : 443;
  } catch {
    // A base URL that is not a URL fails at the first request.
  }
  for (const k of ['temperature', 'topP', 'maxTokens', 'stop', 'seed'] as const) if (o[k] !== undefined) Object.assign(t, { [k]: o[k] });
  return t;
}

function tellResponse(res: unknown, options: ModelCallOptions): boolean {
  const r = res as { responseId?: unknown; modelVersion?: unknown } | null;
  const id = typeof r?.responseId === 'string' && r.responseId ? r.responseId : undefined;
  const model = typeof r?.modelVersion === 'string' && r.modelVersion ? r.modelVersion : undefined;
  if (!id && !model) return false;
  options.onResponseInfo?.({ ...(id ? { id } : {}), ...(model ? { model } : {}) });
  return true;
}
