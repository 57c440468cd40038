import type { Message, MessageChunk } from '../schema/message.js';
import type { ToolInfo } from '../tools/tool.js';

export type ToolChoice = 'auto' | 'none' | 'required' | { name: string };

export interface ModelCallOptions {
  tools?: ToolInfo[];
  toolChoice?: ToolChoice;
  signal?: AbortSignal;
}

/**
 * A chat-completions model. Implementations throw typed errors (ModelHttpError,
 * ModelConnectionError, ModelTimeoutError) so callers can decide whether to retry.
 */
export interface ChatModel {
  /** The model id shown to users, e.g. `gpt-4o-mini` or `demo`. */
  readonly modelName: string;
  /** Largest prompt plus reply the model takes, in tokens, when known (`context_window`, or known for the name). */
  readonly contextWindow?: number;
  generate(messages: Message[], options?: ModelCallOptions): Promise<Message>;
  stream(messages: Message[], options?: ModelCallOptions): AsyncIterable<MessageChunk>;
  /** The model ids the endpoint offers (`GET /models`), newest or alphabetical as the server lists them. */
  listModels?(signal?: AbortSignal): Promise<string[]>;
}
