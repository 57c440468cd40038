import type { Message, ToolCall } from '../../core/schema/message.js';
import type { ImportedConversation } from './imported.js';

interface GeminiToolCall {
  id?: string;
  name?: string;
  args?: unknown;
  status?: string;
  result?: Array<{ functionResponse?: { id?: string; response?: { output?: unknown; error?: unknown } } }>;
}
interface GeminiMessage {
  type?: string;
  content?: string | Array<{ text?: string }>;
  toolCalls?: GeminiToolCall[];
  thoughts?: Array<{ subject?: string; description?: string }>;
  tokens?: { input?: number; output?: number };
  model?: string;
}
export interface GeminiSession {
  sessionId?: string;
  messages?: GeminiMessage[];
}

/** gemini-cli's session record: `{sessionId, projectHash, messages: [{type: user|gemini|info|error, …}]}`. */
export const isGeminiSession = (doc: unknown): doc is GeminiSession =>
  !!doc && typeof doc === 'object' && typeof (doc as GeminiSession).sessionId === 'string' && Array.isArray((doc as GeminiSession).messages);

/**
 * A gemini-cli session (`~/.gemini/tmp/<project>/chats/session-*.json`, what its `/resume` reads):
 * user and gemini messages; each gemini message's tool calls carry their results, which become tool
 * messages after it; thoughts become reasoning; info and error lines are the CLI's own.
 */
export function fromGeminiSession(doc: GeminiSession): ImportedConversation {
  const messages: Message[] = [];
  const skipped = new Map<string, number>();
  const skip = (what: string) => skipped.set(what, (skipped.get(what) ?? 0) + 1);
  let model: string | undefined;
  let prompt = 0;
  let completion = 0;
  const text = (c: GeminiMessage['content']) => (typeof c === 'string' ? c : (c ?? []).map((p) => p.text ?? '').join(''));
  for (const m of doc.messages ?? []) {
    if (m.type === 'user') {
      messages.push({ role: 'user', content: text(m.content) });
      continue;
    }
    if (m.type !== 'gemini') {
      skip(`${m.type ?? 'untyped'} messages`);
      continue;
    }
    model = m.model ?? model;
    prompt += m.tokens?.input ?? 0;
    completion += m.tokens?.output ?? 0;
    const reply: Message = { role: 'assistant', content: text(m.content) };
    const thoughts = (m.thoughts ?? []).map((t) => [t.subject, t.description].filter(Boolean).join(': ')).filter(Boolean);
    if (thoughts.length) reply.reasoningContent = thoughts.join('\n');
    const calls = (m.toolCalls ?? []).filter((c) => c.id && c.name);
    if (calls.length) reply.toolCalls = calls.map((c) => ({ id: c.id!, type: 'function', function: { name: c.name!, arguments: JSON.stringify(c.args ?? {}) } }) as ToolCall);
    messages.push(reply);
    for (const c of calls) {
      const response = c.result?.[0]?.functionResponse?.response;
      if (!response) continue;
      const failed = c.status === 'error' || response.error !== undefined;
      const out = failed ? (response.error ?? response.output) : response.output;
      messages.push({ role: 'tool', toolCallId: c.id!, content: typeof out === 'string' ? out : JSON.stringify(out ?? ''), ...(failed ? { isError: true } : {}) });
    }
  }
  const unmapped = [...skipped].map(([what, n]) => `${n} ${what}`);
  return { format: 'gemini-cli', messages, model, unmapped, ...(prompt || completion ? { usage: { promptTokens: prompt, completionTokens: completion } } : {}) };
}
