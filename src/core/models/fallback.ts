import { ModelConnectionError, ModelHttpError, ModelTimeoutError, RetryExhaustedError } from '../errors.js';
import type { Message, MessageChunk } from '../schema/message.js';
import type { ChatModel, ContextWindowInfo, ModelCallOptions } from './chat-model.js';

/**
 * A model with others to ask when it is unavailable (`fallback:` on a `models:` entry, `--fallback`).
 * On its own it is the primary model; the agent's model step walks `chain` once a model's retries
 * are spent on an error allowsFallback accepts.
 */
export class FallbackChatModel implements ChatModel {
  readonly chain: readonly ChatModel[];

  constructor(readonly primary: ChatModel, fallbacks: readonly ChatModel[]) {
    this.chain = [primary, ...fallbacks];
    if (primary.listModels) this.listModels = (signal) => primary.listModels!(signal);
    if (primary.resolveContextWindow) this.resolveContextWindow = (signal) => primary.resolveContextWindow!(signal);
  }

  get modelName() {
    return this.primary.modelName;
  }
  get contextWindow() {
    return this.primary.contextWindow;
  }
  get price() {
    return this.primary.price;
  }
  get structuredOutput() {
    return this.primary.structuredOutput;
  }
  get telemetry() {
    return this.primary.telemetry;
  }
  generate(messages: Message[], options?: ModelCallOptions): Promise<Message> {
    return this.primary.generate(messages, options);
  }
  stream(messages: Message[], options?: ModelCallOptions): AsyncIterable<MessageChunk> {
    return this.primary.stream(messages, options);
  }
  /** The primary's, when it has them. */
  readonly listModels?: ((signal?: AbortSignal) => Promise<string[]>) | undefined;
  readonly resolveContextWindow?: ((signal?: AbortSignal) => Promise<ContextWindowInfo>) | undefined;
}

/** The models to try in order: a FallbackChatModel's chain, else the model alone. */
export function modelChain(model: ChatModel): readonly ChatModel[] {
  return model instanceof FallbackChatModel ? model.chain : [model];
}

/**
 * Whether another model may answer after this failure: the provider was unavailable (429, Anthropic's
 * 529 overloaded, any 5xx, a timeout, an unreachable endpoint). Never a 4xx request error: the
 * request itself is wrong and another model would only hide it.
 */
export function allowsFallback(err: unknown): boolean {
  const e = err instanceof RetryExhaustedError ? err.lastError : err;
  if (e instanceof ModelHttpError) return e.status === 429 || e.status >= 500;
  if (e instanceof ModelTimeoutError) return true;
  return e instanceof ModelConnectionError && e.retryable;
}
