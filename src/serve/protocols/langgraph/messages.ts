import type { Message } from '../../../core/schema/message.js';

/** A message in LangChain's serialized shape, as LangGraph's API and `useStream` carry it. */
export type LcMessage = {
  type: 'human' | 'ai' | 'tool' | 'system';
  id: string;
  content: string;
  name?: string | undefined;
  tool_calls?: LcToolCall[] | undefined;
  tool_call_id?: string | undefined;
  status?: 'success' | 'error' | undefined;
  /** A tool message's data for the client beside its text (DeerFlow 2's `human_input` request). */
  artifact?: unknown;
  additional_kwargs: Record<string, unknown>;
  response_metadata: Record<string, unknown>;
};

export type LcToolCall = { name: string; args: unknown; id: string; type: 'tool_call' };

/**
 * A message's id: its place in the session (`<thread>:<index>`), so the same message has the same id
 * in a stream's chunks and in the thread's state read later (useStream merges chunks by id).
 */
export const messageId = (thread: string, index: number): string => `${thread}:${index}`;

export function toolCall(name: string, args: unknown, id: string): LcToolCall {
  return { name, args: args ?? {}, id, type: 'tool_call' };
}

/** An adk message as LangChain's (index: its place in the session). */
export function lcMessage(m: Message, thread: string, index: number): LcMessage {
  const id = messageId(thread, index);
  const base = { id, content: m.content, additional_kwargs: {}, response_metadata: {} };
  switch (m.role) {
    case 'user':
      return { type: 'human', ...base };
    case 'system':
      return { type: 'system', ...base };
    case 'tool':
      return { type: 'tool', ...base, tool_call_id: m.toolCallId ?? '', name: m.toolName, status: m.isError ? 'error' : 'success' };
    default:
      return {
        type: 'ai',
        ...base,
        tool_calls: (m.toolCalls ?? []).map((c) => toolCall(c.function.name, parseArgs(c.function.arguments), c.id)),
        ...(m.reasoningContent ? { additional_kwargs: { reasoning_content: m.reasoningContent } } : {}),
      };
  }
}

function parseArgs(s: string): unknown {
  try {
    return JSON.parse(s || '{}');
  } catch {
    return s;
  }
}

/**
 * The person's text from a run's `input`: LangGraph clients send `{messages: [...]}` with the new
 * message(s) last, in LangChain's shape (`type: 'human'`) or OpenAI's (`role: 'user'`); content is
 * text or a list of parts. Undefined: the input has no human message.
 */
export function humanText(input: unknown): string | undefined {
  if (typeof input === 'string') return input;
  if (!input || typeof input !== 'object') return undefined;
  const raw = (input as { messages?: unknown }).messages;
  const list = Array.isArray(raw) ? raw : raw && typeof raw === 'object' ? [raw] : typeof raw === 'string' ? [{ type: 'human', content: raw }] : [];
  const human = [...list].reverse().find((m) => {
    const r = m as { type?: unknown; role?: unknown };
    return r && (r.type === 'human' || r.role === 'user' || r.role === 'human');
  }) as { content?: unknown } | undefined;
  if (!human) return undefined;
  if (typeof human.content === 'string') return human.content;
  if (Array.isArray(human.content)) return human.content.map((p) => (typeof p === 'string' ? p : p && typeof p.text === 'string' ? p.text : '')).join('');
  return undefined;
}
