import { createHash } from 'node:crypto';
import type { ChatCompletionContentPart, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { dataUrl, partFileName, type ContentPart } from '../schema/content-part.js';
import type { Message } from '../schema/message.js';
import type { ProviderProfile } from './providers.js';

export type WireRules = Pick<ProviderProfile, 'strictRoles' | 'toolIdStyle' | 'echoReasoning' | 'echoSignatures'>;

export const LENIENT: WireRules = { strictRoles: false, toolIdStyle: 'any', echoReasoning: false, echoSignatures: false };

/** Stands between a tool result and a user message on servers whose templates forbid `tool` → `user`. */
export const BRIDGE_REPLY = 'OK.';

type Param = ChatCompletionMessageParam & Record<string, unknown>;

/**
 * Our conversation as one provider accepts it: the single place where messages are reshaped per
 * provider. Strict servers get alternating roles (consecutive user or system turns merged, an
 * assistant bridge between a tool result and a user turn, empty assistant turns dropped); Mistral gets
 * nine-character ids; DeepSeek gets the reasoning of every turn that called tools back; Gemini and OpenRouter get
 * their thought signatures back. Nothing is sent where a provider would reject it.
 */
export function toOpenAIMessages(messages: Message[], rules: WireRules = LENIENT): ChatCompletionMessageParam[] {
  const ids = rules.toolIdStyle === 'alnum9' ? new AlnumIds() : undefined;
  const sent = ids ? undefined : providerIds(messages);
  const mapId = (id: string | undefined) => (ids ? ids.get(id ?? '') : (sent?.get(id ?? '') ?? id ?? ''));
  const out: Param[] = [];
  for (const m of messages) {
    const p = toParam(m, mapId, rules);
    if (p) out.push(p);
  }
  return rules.strictRoles ? alternate(out) : out;
}

/**
 * The ids the provider gave its calls, where adk gave them another (one with `:` or `/`, as Kimi K2's
 * `functions.get_weather:0`): sent back as the provider wrote them, since some models read their own ids
 * on later turns. Only an id that is unique in the request goes back; a repeated one keeps adk's.
 */
function providerIds(messages: Message[]): Map<string, string> {
  const calls = messages.flatMap((m) => m.toolCalls ?? []);
  const count = new Map<string, number>();
  for (const c of calls) {
    for (const id of new Set([c.id, c.providerId].filter((x): x is string => !!x))) count.set(id, (count.get(id) ?? 0) + 1);
  }
  const back = new Map<string, string>();
  for (const c of calls) if (c.providerId && c.providerId !== c.id && count.get(c.providerId) === 1) back.set(c.id, c.providerId);
  return back;
}

function toParam(m: Message, mapId: (id: string | undefined) => string, rules: WireRules): Param | undefined {
  switch (m.role) {
    case 'system':
      return { role: 'system', content: m.content };
    case 'user':
      return m.parts?.length ? { role: 'user', content: [...(m.content ? [{ type: 'text' as const, text: m.content }] : []), ...m.parts.map(chatPart)] } : { role: 'user', content: m.content };
    case 'tool':
      return { role: 'tool', content: m.content, tool_call_id: mapId(m.toolCallId) };
    case 'assistant': {
      const p: Param = { role: 'assistant', content: m.content };
      if (m.toolCalls?.length) {
        p.content = m.content || null;
        p.tool_calls = m.toolCalls.map((c) => {
          const call: Record<string, unknown> = { id: mapId(c.id), type: 'function', function: { name: c.function.name, arguments: historyArguments(c.function.arguments) } };
          if (rules.echoSignatures && c.extra) Object.assign(call, c.extra);
          return call as never;
        });
        // DeepSeek's thinking mode: every assistant turn that called tools carries its reasoning in
        // all later requests, an empty string where there was none (omitting it is a 400).
        if (rules.echoReasoning) p.reasoning_content = m.reasoningContent ?? '';
      } else if (rules.strictRoles && !m.content.trim()) return undefined;
      if (rules.echoSignatures && m.reasoningDetails?.length) p.reasoning_details = m.reasoningDetails;
      return p;
    }
  }
}

/** An image as an `image_url` data URL, a PDF as a `file` input with its name. */
function chatPart(p: ContentPart): ChatCompletionContentPart {
  if (p.type === 'image') return { type: 'image_url', image_url: { url: dataUrl(p) } };
  return { type: 'file', file: { filename: partFileName(p), file_data: dataUrl(p) } };
}

/** Merges what strict templates cannot take in a row and bridges `tool` → `user`. */
function alternate(params: Param[]): Param[] {
  const out: Param[] = [];
  for (const p of params) {
    const prev = out[out.length - 1];
    if (prev && prev.role === p.role && (p.role === 'user' || p.role === 'system') && typeof prev.content === 'string' && typeof p.content === 'string') {
      prev.content = `${prev.content}\n\n${p.content}`;
      continue;
    }
    if (prev && prev.role === 'assistant' && p.role === 'assistant' && !prev.tool_calls && !p.tool_calls) {
      prev.content = `${String(prev.content ?? '')}\n\n${String(p.content ?? '')}`;
      continue;
    }
    if (prev?.role === 'tool' && p.role === 'user') out.push({ role: 'assistant', content: BRIDGE_REPLY });
    out.push(p);
  }
  return out;
}

/**
 * Arguments of a past call as sent back to the server. Malformed JSON (the model's own mistake, already
 * answered by an error tool result) is replaced by `{}`: some servers (e.g. Ollama) parse the history's
 * arguments and would reject every later request of the conversation.
 */
function historyArguments(args: string): string {
  try {
    JSON.parse(args);
    return args;
  } catch {
    return '{}';
  }
}

const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** Nine-letter-or-digit ids derived from ours: the same id maps the same way in every request. */
class AlnumIds {
  private readonly byId = new Map<string, string>();
  private readonly taken = new Set<string>();

  get(id: string): string {
    const known = this.byId.get(id);
    if (known) return known;
    let mapped = /^[A-Za-z0-9]{9}$/.test(id) ? id : derive(id, 0);
    for (let n = 1; this.taken.has(mapped); n++) mapped = derive(id, n);
    this.byId.set(id, mapped);
    this.taken.add(mapped);
    return mapped;
  }
}

function derive(id: string, salt: number): string {
  const bytes = createHash('sha256').update(`${salt}:${id}`).digest();
  let s = '';
  for (let i = 0; i < 9; i++) s += ALNUM[bytes[i]! % ALNUM.length];
  return s;
}
