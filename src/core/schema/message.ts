export type Role = 'system' | 'user' | 'assistant' | 'tool';

export interface ToolCall {
  id: string;
  /** Position of the call in a streamed response; used only while concatenating chunks. */
  index?: number;
  /** The id the provider sent, when adk gave the call another one (the provider's was repeated or empty). */
  providerId?: string;
  function: { name: string; arguments: string };
  /** Provider fields of this call that must go back unchanged (Gemini's `extra_content` thought signature). */
  extra?: Record<string, unknown>;
}

/** Anthropic thinking blocks, kept whole because their signatures must be sent back in tool loops. */
export type ThinkingBlock = { type: 'thinking'; thinking: string; signature: string } | { type: 'redacted_thinking'; data: string };

export interface Usage {
  /** Every prompt token, cached or not. */
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** Prompt tokens read from the provider's prompt cache (Anthropic). */
  cacheReadTokens?: number;
  /** Prompt tokens written to the provider's prompt cache (Anthropic). */
  cacheWriteTokens?: number;
  /** Counted by adk because the server reported no usage. */
  estimated?: boolean;
}

export interface Message {
  role: Role;
  content: string;
  /** Set on assistant messages that call tools. */
  toolCalls?: ToolCall[];
  /** Set on tool messages: the call this message answers. */
  toolCallId?: string;
  /** Set on tool messages: the tool that produced this result. */
  toolName?: string;
  /** Set on tool messages whose call failed (for display; the model sees the text). */
  isError?: boolean;
  /** Model "thinking" text (`reasoning_content` on OpenAI-compatible servers). */
  reasoningContent?: string;
  /** OpenRouter's `reasoning_details` (encrypted reasoning, signatures): echoed back verbatim. */
  reasoningDetails?: unknown[];
  thinkingBlocks?: ThinkingBlock[];
  usage?: Usage;
  finishReason?: string;
}

/** One piece of a streamed assistant message. Tool-call fields are deltas keyed by `index`. */
export interface MessageChunk {
  role?: Role;
  content?: string;
  reasoningContent?: string;
  toolCalls?: Array<{ index: number; id?: string; providerId?: string; function?: { name?: string; arguments?: string }; extra?: Record<string, unknown> }>;
  /** Pieces of OpenRouter's `reasoning_details`; entries with the same `index` are joined. */
  reasoningDetails?: unknown[];
  /** Whole thinking blocks, appended. */
  thinkingBlocks?: ThinkingBlock[];
  usage?: Usage;
  finishReason?: string;
}

export const systemMessage = (content: string): Message => ({ role: 'system', content });
export const userMessage = (content: string): Message => ({ role: 'user', content });
export const assistantMessage = (content: string, toolCalls?: ToolCall[]): Message =>
  toolCalls?.length ? { role: 'assistant', content, toolCalls } : { role: 'assistant', content };
export const toolMessage = (content: string, toolCallId: string, toolName: string): Message => ({
  role: 'tool',
  content,
  toolCallId,
  toolName,
});

export function cloneMessage(m: Message): Message {
  const copy: Message = { ...m };
  if (m.toolCalls) copy.toolCalls = m.toolCalls.map((c) => ({ ...c, function: { ...c.function } }));
  if (m.usage) copy.usage = { ...m.usage };
  if (m.reasoningDetails) copy.reasoningDetails = [...m.reasoningDetails];
  if (m.thinkingBlocks) copy.thinkingBlocks = m.thinkingBlocks.map((b) => ({ ...b }));
  return copy;
}
