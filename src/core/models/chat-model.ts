import type { Message, MessageChunk } from '../schema/message.js';
import type { ToolInfo } from '../tools/tool-info.js';
import type { ModelPrice } from './pricing.js';

/** Whether the model may (`auto`), must (`required`), must not (`none`) call a tool, or must call the named one. */
export type ToolChoice = 'auto' | 'none' | 'required' | { name: string };

/** Options of one model request. */
export interface ModelCallOptions {
  tools?: ToolInfo[] | undefined;
  toolChoice?: ToolChoice | undefined;
  signal?: AbortSignal | undefined;
  /** Constrain a final answer to this JSON Schema (sent only to models whose `structuredOutput` is true). */
  responseFormat?: ResponseFormat | undefined;
}

/** A JSON Schema the model's final answer must match: OpenAI's `response_format: json_schema`. */
export interface ResponseFormat {
  name: string;
  schema: Record<string, unknown>;
  /** OpenAI's strict mode; only for schemas it accepts (every property required, no extra ones). */
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
  generate(messages: Message[], options?: ModelCallOptions): Promise<Message>;
  stream(messages: Message[], options?: ModelCallOptions): AsyncIterable<MessageChunk>;
  /**
   * Whether the provider constrains answers to `responseFormat` itself (`response_format:
   * json_schema`). Without it an agent with an output schema validates the answer and asks again.
   */
  readonly structuredOutput?: boolean | undefined;
  /** The model ids the endpoint offers (`GET /models`), newest or alphabetical as the server lists them. */
  listModels?(signal?: AbortSignal): Promise<string[]>;
}
