import type { Message, ToolCall } from '../../core/schema/message.js';
import type { ImportedConversation } from './imported.js';

interface GeminiPart {
  text?: string;
  thought?: boolean;
  functionCall?: { id?: string; name?: string; args?: unknown };
  functionResponse?: { id?: string; name?: string; response?: Record<string, unknown> };
  inlineData?: unknown;
  fileData?: unknown;
  executableCode?: unknown;
  codeExecutionResult?: unknown;
}
interface GeminiContent {
  role?: string;
  parts?: GeminiPart[];
}

const isContent = (c: unknown): c is GeminiContent => !!c && typeof c === 'object' && ((c as GeminiContent).role === 'user' || (c as GeminiContent).role === 'model') && Array.isArray((c as GeminiContent).parts);

/**
 * What gemini-cli's `/chat save <tag>` writes (`~/.gemini/tmp/<project>/checkpoint-<tag>.json`:
 * `{history: Content[], authType}`, or a bare `Content[]` from older versions and `/chat share x.json`).
 */
export function geminiCheckpointHistory(doc: unknown): GeminiContent[] | undefined {
  const history = Array.isArray(doc) ? doc : doc && typeof doc === 'object' && Array.isArray((doc as { history?: unknown }).history) ? (doc as { history: unknown[] }).history : undefined;
  return history?.length && history.every(isContent) ? history : undefined;
}

/**
 * The API history of a gemini-cli checkpoint as a conversation: user text; the model's text, thoughts
 * and function calls; function responses as tool results, paired by id (or, without ids, in order by
 * name). The two messages gemini-cli opens every chat with (its environment context) are left out,
 * as its own `/chat resume` leaves them out of view.
 */
export function fromGeminiCheckpoint(history: GeminiContent[]): ImportedConversation {
  const messages: Message[] = [];
  const skipped = new Map<string, number>();
  const skip = (what: string) => skipped.set(what, (skipped.get(what) ?? 0) + 1);
  const textOf = (c: GeminiContent) => (c.parts ?? []).filter((p) => typeof p.text === 'string' && !p.thought).map((p) => p.text).join('');
  let start = 0;
  if (history.length >= 2 && /^This is the Gemini CLI\. We are setting up the context for our chat\./.test(textOf(history[0]!)) && history[1]!.role === 'model') {
    start = 2;
    skipped.set('environment context messages (gemini-cli’s own)', 2);
  }
  // Calls still waiting for their response: by id, and by name for responses that carry none.
  const open: Array<{ id: string; name: string }> = [];
  let made = 0;
  for (const c of history.slice(start)) {
    const parts = c.parts ?? [];
    for (const p of parts) {
      for (const k of ['inlineData', 'fileData', 'executableCode', 'codeExecutionResult'] as const) if (p[k] !== undefined) skip(`${k} parts`);
    }
    if (c.role === 'model') {
      const reply: Message = { role: 'assistant', content: textOf(c) };
      const thought = parts.filter((p) => p.thought && p.text).map((p) => p.text).join('\n');
      if (thought) reply.reasoningContent = thought;
      const calls = parts.filter((p) => p.functionCall?.name).map((p) => {
        const id = p.functionCall!.id || `gemini_call_${++made}`;
        open.push({ id, name: p.functionCall!.name! });
        return { id, type: 'function', function: { name: p.functionCall!.name!, arguments: JSON.stringify(p.functionCall!.args ?? {}) } } as ToolCall;
      });
      if (calls.length) reply.toolCalls = calls;
      if (reply.content || reply.toolCalls || reply.reasoningContent) messages.push(reply);
      continue;
    }
    for (const p of parts) {
      const r = p.functionResponse;
      if (!r) continue;
      const at = open.findIndex((o) => (r.id ? o.id === r.id : o.name === r.name));
      if (at < 0) {
        skip('responses to no call');
        continue;
      }
      const [call] = open.splice(at, 1);
      const response = r.response ?? {};
      const failed = response.error !== undefined;
      const out = failed ? response.error : 'output' in response ? response.output : response;
      messages.push({ role: 'tool', toolCallId: call!.id, content: typeof out === 'string' ? out : JSON.stringify(out ?? ''), ...(failed ? { isError: true } : {}) });
    }
    const text = textOf(c);
    if (text) messages.push({ role: 'user', content: text });
  }
  const unmapped = [...skipped].map(([what, n]) => `${n} ${what}`);
  return { format: 'gemini-cli', messages, unmapped };
}
