import type { ContentPart, UserInput } from './content-part.js';

/** Who a message is from, as in the Chat Completions API. */
export type Role = 'system' | 'user' | 'assistant' | 'tool';

/** One tool call of an assistant message; `function.arguments` is the JSON text the model wrote, unparsed. */
export interface ToolCall {
  id: string;
  /** Position of the call in a streamed response; used only while concatenating chunks. */
  index?: number | undefined;
  /** The id the provider sent, when adk gave the call another one (the provider's was repeated or empty). */
  providerId?: string | undefined;
  function: { name: string; arguments: string };
  /** Provider fields of this call that must go back unchanged (Gemini's `extra_content` thought signature). */
  extra?: Record<string, unknown> | undefined;
}

/** Anthropic thinking blocks, kept whole because their signatures must be sent back in tool loops. */
export type ThinkingBlock = { type: 'thinking'; thinking: string; signature: string } | { type: 'redacted_thinking'; data: string };

/**
 * Opaque state a provider needs back with a message on later turns: OpenAI Responses' encrypted
 * reasoning items, Gemini's thought signatures on text parts. Only the provider named reads it.
 */
export interface ProviderItem {
  provider: string;
  data: Record<string, unknown>;
}

/** Token counts of one model call, as the provider reported them (or as adk estimated them). */
export interface Usage {
  /** Every prompt token, cached or not. */
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** Prompt tokens read from the provider's prompt cache (Anthropic). */
  cacheReadTokens?: number | undefined;
  /** Prompt tokens written to the provider's prompt cache (Anthropic). */
  cacheWriteTokens?: number | undefined;
  /** Completion tokens spent on reasoning (OpenAI's `reasoning_tokens`, Gemini's `thoughtsTokenCount`); part of completionTokens. */
  reasoningTokens?: number | undefined;
  /** Counted by adk because the server reported no usage. */
  estimated?: boolean | undefined;
}

/** One message of a conversation, provider-neutral; provider-specific fields are kept so they can be sent back. */
export interface Message {
  role: Role;
  content: string;
  /** Images and files of a user message, after its text (see ContentPart). */
  parts?: ContentPart[] | undefined;
  /** Set on assistant messages that call tools. */
  toolCalls?: ToolCall[] | undefined;
  /** Set on tool messages: the call this message answers. */
  toolCallId?: string | undefined;
  /** Set on tool messages: the tool that produced this result. */
  toolName?: string | undefined;
  /** Set on tool messages whose call failed (for display; the model sees the text). */
  isError?: boolean | undefined;
  /** Set on tool messages whose tool also gave its result as data (MCP structuredContent); the model sees the text. */
  structured?: unknown;
  /** Set on an agent tool's result: the run of the agent behind it, kept for trajectories (never sent to a model). */
  subRun?: SubRun | undefined;
  /** For a tool result: the arguments the call ran with (JSON), when a person edited them before approving it. */
  editedArguments?: string | undefined;
  /** Model "thinking" text (`reasoning_content` on OpenAI-compatible servers). */
  reasoningContent?: string | undefined;
  /** OpenRouter's `reasoning_details` (encrypted reasoning, signatures): echoed back verbatim. */
  reasoningDetails?: unknown[] | undefined;
  thinkingBlocks?: ThinkingBlock[] | undefined;
  /** Provider state to send back with this message (see ProviderItem). */
  providerItems?: ProviderItem[] | undefined;
  usage?: Usage | undefined;
  finishReason?: string | undefined;
}

/** What an agent run as a tool did: its name and its messages, in order. */
export interface SubRun {
  agent: string;
  messages: Message[];
}

/** One piece of a streamed assistant message. Tool-call fields are deltas keyed by `index`. */
export interface MessageChunk {
  role?: Role | undefined;
  content?: string | undefined;
  reasoningContent?: string | undefined;
  toolCalls?: Array<{ index: number; id?: string; providerId?: string; function?: { name?: string; arguments?: string }; extra?: Record<string, unknown> }> | undefined;
  /** Pieces of OpenRouter's `reasoning_details`; entries with the same `index` are joined. */
  reasoningDetails?: unknown[] | undefined;
  /** Whole thinking blocks, appended. */
  thinkingBlocks?: ThinkingBlock[] | undefined;
  /** Whole provider items, appended. */
  providerItems?: ProviderItem[] | undefined;
  usage?: Usage | undefined;
  finishReason?: string | undefined;
}

/** A system message (instructions for the model). */
export const systemMessage = (content: string): Message => ({ role: 'system', content });
/** A user message: text, or text and parts. */
export const userMessage = (input: UserInput): Message => {
  if (typeof input === 'string') return { role: 'user', content: input };
  return input.parts?.length ? { role: 'user', content: input.text, parts: [...input.parts] } : { role: 'user', content: input.text };
};
/** An assistant message; `toolCalls` is set only when there are any. */
export const assistantMessage = (content: string, toolCalls?: ToolCall[]): Message =>
  toolCalls?.length ? { role: 'assistant', content, toolCalls } : { role: 'assistant', content };
/** A tool result answering the call `toolCallId` of tool `toolName`. */
export const toolMessage = (content: string, toolCallId: string, toolName: string): Message => ({
  role: 'tool',
  content,
  toolCallId,
  toolName,
});

/** A copy whose tool calls, usage, reasoning details and thinking blocks can be changed without touching the original (a tool call's `extra` is shared). */
export function cloneMessage(m: Message): Message {
  const copy: Message = { ...m };
  if (m.toolCalls) copy.toolCalls = m.toolCalls.map((c) => ({ ...c, function: { ...c.function } }));
  if (m.usage) copy.usage = { ...m.usage };
  if (m.reasoningDetails) copy.reasoningDetails = [...m.reasoningDetails];
  if (m.thinkingBlocks) copy.thinkingBlocks = m.thinkingBlocks.map((b) => ({ ...b }));
  if (m.providerItems) copy.providerItems = [...m.providerItems];
  if (m.parts) copy.parts = m.parts.map((p) => ({ ...p }));
  return copy;
}
