import OpenAI from 'openai';
import type { ChatCompletionCreateParamsBase } from 'openai/resources/chat/completions';
import { ModelConnectionError } from '../errors.js';
import { messageToChunk } from '../schema/concat.js';
import type { Message, MessageChunk } from '../schema/message.js';
import type { ChatModel, ModelCallOptions } from './chat-model.js';
import { CallGuard, probingFetch } from './openai-call.js';
import { fromOpenAIChunk, fromOpenAICompletion, toOpenAIMessages, toOpenAIToolChoice, toOpenAITools } from './openai-convert.js';
import { htmlResponseError, redact, streamReportedError, toModelError, type ErrorContext } from './openai-errors.js';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';
export const DEFAULT_REQUEST_TIMEOUT_MS = 10 * 60_000;
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

export interface OpenAIChatModelOptions {
  model: string;
  /** Omitted: no Authorization header is sent (local servers such as Ollama need none). */
  apiKey?: string;
  /** Default `https://api.openai.com/v1`. The environment is not read here (see from-env.ts). */
  baseURL?: string;
  /** Whole request, stream included. Default 10 minutes. */
  timeoutMs?: number;
  /** Longest silence allowed while waiting for or reading a stream. Default 60 s. */
  idleTimeoutMs?: number;
  temperature?: number;
  maxTokens?: number;
  extraHeaders?: Record<string, string>;
}

/**
 * A model behind any OpenAI-compatible Chat Completions endpoint (OpenAI, Azure, Ollama, vLLM, LM Studio,
 * DeepSeek, OpenRouter, …). It never retries (the agent layer does) and throws only typed errors:
 * ModelHttpError, ModelConnectionError, ModelTimeoutError, CancelledError.
 */
export class OpenAIChatModel implements ChatModel {
  readonly modelName: string;
  readonly baseURL: string;
  private readonly client: OpenAI;
  private readonly errorContext: ErrorContext;

  constructor(private readonly options: OpenAIChatModelOptions) {
    this.modelName = options.model;
    this.baseURL = (options.baseURL || OPENAI_DEFAULT_BASE_URL).replace(/\/+$/, '');
    const timeoutMs = Math.max(1, Math.round(options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS));
    this.errorContext = { baseURL: redact(this.baseURL), timeoutMs, apiKey: options.apiKey };
    this.client = new OpenAI({
      apiKey: options.apiKey ?? '',
      baseURL: this.baseURL,
      maxRetries: 0,
      timeout: timeoutMs,
      logLevel: 'off',
      fetch: probingFetch(),
      defaultHeaders: { ...(options.apiKey ? {} : { Authorization: null }), ...options.extraHeaders },
    });
  }

  private get timeoutMs(): number {
    return this.errorContext.timeoutMs;
  }

  private get idleTimeoutMs(): number {
    return this.options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  }

  private params(messages: Message[], options: ModelCallOptions): ChatCompletionCreateParamsBase {
    const p: ChatCompletionCreateParamsBase = { model: this.modelName, messages: toOpenAIMessages(messages) };
    if (options.tools?.length) {
      p.tools = toOpenAITools(options.tools);
      if (options.toolChoice) p.tool_choice = toOpenAIToolChoice(options.toolChoice);
    }
    if (this.options.temperature !== undefined) p.temperature = this.options.temperature;
    if (this.options.maxTokens !== undefined) {
      // OpenAI's reasoning models reject `max_tokens`; most other servers only know `max_tokens`.
      if (this.baseURL === OPENAI_DEFAULT_BASE_URL) p.max_completion_tokens = this.options.maxTokens;
      else p.max_tokens = this.options.maxTokens;
    }
    return p;
  }

  async generate(messages: Message[], options: ModelCallOptions = {}): Promise<Message> {
    // No idle timeout: a non-streamed body arrives all at once after the whole generation.
    const guard = new CallGuard(options.signal, this.timeoutMs);
    try {
      const { data, response } = await this.client.chat.completions
        .create({ ...this.params(messages, options), stream: false }, guard.requestOptions())
        .withResponse();
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
      return fromOpenAICompletion(data);
    } catch (e) {
      throw guard.stopError() ?? toModelError(e, this.errorContext);
    } finally {
      guard.dispose();
    }
  }

  async *stream(messages: Message[], options: ModelCallOptions = {}): AsyncIterable<MessageChunk> {
    const guard = new CallGuard(options.signal, this.timeoutMs, this.idleTimeoutMs);
    let complete = false;
    try {
      let sawFinish = false;
      try {
        const { data: stream, response } = await this.client.chat.completions
          .create({ ...this.params(messages, options), stream: true, stream_options: { include_usage: true } }, guard.requestOptions())
          .withResponse();
        const type = response.headers.get('content-type') ?? '';
        if (/html/i.test(type)) throw htmlResponseError(this.baseURL, type);
        if (/json/i.test(type)) {
          // The server ignored `stream: true` (some proxies do): serve the whole answer as one chunk.
          yield await this.wholeAnswerChunk(response);
          complete = true;
          return;
        }
        for await (const raw of stream) {
          const chunk = fromOpenAIChunk(raw);
          if (!chunk) continue;
          if (chunk.finishReason) sawFinish = true;
          guard.pause();
          yield chunk;
          guard.resume();
        }
      } catch (e) {
        throw guard.stopError() ?? toModelError(e, this.errorContext);
      }
      // The SDK ends quietly when its request is aborted, so our own stops surface here.
      const stopped = guard.stopError();
      if (stopped) throw stopped;
      if (!sawFinish && !guard.sawDone) {
        throw new ModelConnectionError('the model stream ended before the reply was complete (no finish_reason and no [DONE]): the connection was cut', true);
      }
      complete = true;
    } finally {
      // An error or a consumer that stopped reading: release the connection now.
      if (!complete) guard.abort();
      guard.dispose();
    }
  }

  private async wholeAnswerChunk(response: Response): Promise<MessageChunk> {
    const body = (await response.json()) as { error?: unknown; choices?: unknown };
    if (body?.error) throw streamReportedError(body.error, this.redactor);
    if (!Array.isArray(body?.choices)) throw new ModelConnectionError('the model endpoint answered without `choices`: not a chat completion', false);
    return messageToChunk(fromOpenAICompletion(body as never));
  }

  private readonly redactor = (s: string) => redact(s, this.options.apiKey);
}
