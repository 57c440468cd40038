import type { Message, ToolCall } from '../../core/schema/message.js';
import type { ImportedConversation } from './imported.js';

interface CodexLine {
  type?: string;
  payload?: {
    type?: string;
    role?: string;
    content?: Array<{ type?: string; text?: string }>;
    name?: string;
    arguments?: string;
    input?: string;
    call_id?: string;
    output?: unknown;
    model?: string;
    message?: string;
    info?: { total_token_usage?: { input_tokens?: number; output_tokens?: number } } | null;
  };
}

/** Codex's own context, injected as user messages (AGENTS.md, the environment): the team brings its own. */
const CONTEXT_MESSAGE = /^\s*(# AGENTS\.md instructions|<environment_context>|<user_instructions>|<permissions instructions>)/;

/** A Codex line is JSON with a `type` among these and a `payload`. */
export const isCodexRollout = (firstLine: string): boolean => /^\s*\{"timestamp":"[^"]*","type":"(session_meta|response_item|event_msg|turn_context)"/.test(firstLine);

/**
 * A Codex CLI session (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`): its `response_item`s are the
 * conversation (messages, `function_call`s and `custom_tool_call`s with their outputs by `call_id`);
 * `event_msg` lines repeat them for the TUI and are skipped; `turn_context` names the model.
 */
export function fromCodexRollout(text: string): ImportedConversation {
  const messages: Message[] = [];
  const skipped = new Map<string, number>();
  const skip = (what: string) => skipped.set(what, (skipped.get(what) ?? 0) + 1);
  let model: string | undefined;
  let usage: { promptTokens: number; completionTokens: number } | undefined;
  // Calls of one reply follow each other: they join the assistant message before them.
  let reply: Message | undefined;
  const call = (id: string, name: string, args: string) => {
    reply ??= messages[messages.push({ role: 'assistant', content: '' }) - 1]!;
    (reply.toolCalls ??= []).push({ id, type: 'function', function: { name, arguments: args } } as ToolCall);
  };
  for (const [i, raw] of text.split('\n').entries()) {
    if (!raw.trim()) continue;
    let line: CodexLine;
    try {
      line = JSON.parse(raw) as CodexLine;
    } catch {
      throw new Error(`line ${i + 1} is not JSON: not a Codex session file`);
    }
    const p = line.payload ?? {};
    if (line.type === 'turn_context') {
      model = p.model ?? model;
      continue;
    }
    if (line.type === 'event_msg' && p.type === 'token_count' && p.info?.total_token_usage) {
      const u = p.info.total_token_usage;
      usage = { promptTokens: u.input_tokens ?? 0, completionTokens: u.output_tokens ?? 0 };
      continue;
    }
    if (line.type !== 'response_item') {
      skip(`${line.type ?? 'untyped'} lines`);
      continue;
    }
    const textOf = () => (p.content ?? []).map((c) => c.text ?? '').join('\n');
    switch (p.type) {
      case 'message':
        if (p.role === 'assistant') {
          reply = { role: 'assistant', content: textOf() };
          messages.push(reply);
        } else if (p.role === 'user' && !CONTEXT_MESSAGE.test(textOf())) {
          reply = undefined;
          messages.push({ role: 'user', content: textOf() });
        } else skip(`Codex context messages (${p.role === 'user' ? 'AGENTS.md, environment' : (p.role ?? 'system')})`);
        break;
      case 'function_call':
        call(p.call_id ?? '', p.name ?? 'tool', p.arguments ?? '{}');
        break;
      case 'custom_tool_call':
        // A freeform tool (apply_patch): its input is text, given to the call as {input}.
        call(p.call_id ?? '', p.name ?? 'tool', JSON.stringify({ input: p.input ?? '' }));
        break;
      case 'function_call_output':
      case 'custom_tool_call_output':
        messages.push({ role: 'tool', toolCallId: p.call_id ?? '', content: typeof p.output === 'string' ? p.output : JSON.stringify(p.output ?? '') });
        break;
      case 'reasoning':
        skip('reasoning items (encrypted by the provider)');
        break;
      default:
        skip(`${p.type ?? 'untyped'} items`);
    }
  }
  const unmapped = [...skipped].map(([what, n]) => `${n} ${what}`);
  return { format: 'codex', messages, model, unmapped, ...(usage ? { usage } : {}) };
}
