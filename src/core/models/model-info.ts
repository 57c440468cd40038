import type { ChatModel } from './chat-model.js';

/** One model a provider offers, with the limits the provider states (tokens). */
export interface ModelInfo {
  id: string;
  contextWindow?: number | undefined;
  maxOutputTokens?: number | undefined;
}

/** A model whose provider lists its models with their limits (Gemini's `models.list`). */
export interface ListsModelInfo {
  listModelInfo(signal?: AbortSignal): Promise<ModelInfo[]>;
}

export function listsModelInfo(model: ChatModel): model is ChatModel & ListsModelInfo {
  return typeof (model as Partial<ListsModelInfo>).listModelInfo === 'function';
}
