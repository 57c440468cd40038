import type { Message } from '../schema/message.js';
import { redactSecrets } from '../store/redact.js';
import type { ToolCallResult } from '../tools/execute.js';

type Secrets = (() => readonly string[]) | undefined;

/**
 * A tool result with the run's secrets (and their re-encodings: see redactSecrets) replaced by
 * `[REDACTED]`, before anything else sees it: the model, the middlewares, the journal, events.
 */
export function redactToolResult(result: ToolCallResult, secrets: Secrets): ToolCallResult {
  if (result.kind !== 'done') return result;
  const list = secrets?.();
  if (!list?.length) return result;
  const content = redactSecrets(result.content, list);
  const structured = result.structured === undefined ? undefined : redactSecrets(result.structured, list);
  return content === result.content && structured === result.structured ? result : { ...result, content, ...(structured !== undefined ? { structured } : {}) };
}

/**
 * Each message redacted once per set of secrets (and per content: a message changed in place is
 * redacted again): a run sends the same messages again and again.
 */
const redacted = new WeakMap<Message, { key: string; content: Message['content']; toolCalls: Message['toolCalls']; message: Message }>();

/**
 * The messages of a model request with the run's secrets redacted: whatever brought a secret into
 * the conversation (a tool, a file a middleware read, the person's own text), it is not sent.
 */
export function redactRequest(messages: Message[], secrets: Secrets): Message[] {
  const list = secrets?.();
  if (!list?.length) return messages;
  const key = list.join('\u0000');
  return messages.map((m) => {
    const known = redacted.get(m);
    if (known?.key === key && known.content === m.content && known.toolCalls === m.toolCalls) return known.message;
    const message = redactSecrets(m, list);
    redacted.set(m, { key, content: m.content, toolCalls: m.toolCalls, message });
    return message;
  });
}
