import type { Message, ToolCall } from '../../core/schema/message.js';
import { fromCodexRollout, isCodexRollout } from './codex-rollout.js';
import type { ImportedConversation } from './imported.js';
import { fromGeminiSession, isGeminiSession } from './gemini-session.js';
import { fromGeminiCheckpoint, geminiCheckpointHistory } from './gemini-checkpoint.js';

export type { ImportedConversation } from './imported.js';

/**
 * Reads a Claude Code session (`~/.claude/projects/…/<id>.jsonl`), a Codex rollout
 * (`~/.codex/sessions/…/rollout-*.jsonl`), a gemini-cli session (`~/.gemini/tmp/…/chats/session-*.json`)
 * or `/chat save` checkpoint (`~/.gemini/tmp/…/checkpoint-<tag>.json`)
 * or an ATIF trajectory (JSON). Every tool call comes out answered (see `paired`).
 */
export function importConversation(text: string): ImportedConversation {
  const trimmed = text.trimStart();
  const doc = wholeJson(trimmed);
  if (doc !== undefined) {
    const d = doc as { schema_version?: unknown };
    if (typeof d.schema_version === 'string' && d.schema_version.startsWith('ATIF-')) return fromAtif(doc as AtifDoc);
    if (isGeminiSession(doc)) return answered(fromGeminiSession(doc));
    const history = geminiCheckpointHistory(doc);
    if (history) return answered(fromGeminiCheckpoint(history));
  }
  if (isCodexRollout(trimmed.slice(0, trimmed.indexOf('\n') >>> 0))) return answered(fromCodexRollout(text));
  return fromClaudeCode(text);
}

/** The file as one JSON document, or undefined (JSON lines, or not JSON). */
function wholeJson(trimmed: string): unknown {
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return undefined;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return undefined;
  }
}

const answered = (c: ImportedConversation): ImportedConversation => ({ ...c, messages: paired(c.messages, c.unmapped) });

interface ClaudeBlock {
  type: string;
  text?: string;
  thinking?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: string | Array<{ type: string; text?: string }>;
  is_error?: boolean;
}
interface ClaudeLine {
  type?: string;
  isSidechain?: boolean;
  isMeta?: boolean;
  message?: { role?: string; id?: string; model?: string; content?: string | ClaudeBlock[]; usage?: { input_tokens?: number; output_tokens?: number } };
}

const textOf = (c: ClaudeBlock['content']): string => (typeof c === 'string' ? c : (c ?? []).map((b) => (b.type === 'text' ? (b.text ?? '') : `[${b.type}]`)).join('\n'));

function fromClaudeCode(text: string): ImportedConversation {
  const messages: Message[] = [];
  const skipped = new Map<string, number>();
  const unmapped: string[] = [];
  let model: string | undefined;
  // Claude Code writes one line per content block of a reply: blocks with one message id are one message.
  let reply: (Message & { id?: string }) | undefined;
  const skip = (what: string) => skipped.set(what, (skipped.get(what) ?? 0) + 1);
  const lines = text.split('\n').filter((l) => l.trim());
  for (const [i, raw] of lines.entries()) {
    let line: ClaudeLine;
    try {
      line = JSON.parse(raw) as ClaudeLine;
    } catch {
      throw new Error(`line ${i + 1} is not JSON: not a Claude Code session file`);
    }
    if (line.type !== 'user' && line.type !== 'assistant') {
      skip(`${line.type ?? 'untyped'} lines`);
      continue;
    }
    if (line.isSidechain) {
      skip('sub-agent (sidechain) lines');
      continue;
    }
    const content = line.message?.content;
    if (line.type === 'assistant') {
      model = line.message?.model ?? model;
      const id = line.message?.id;
      if (!reply || !id || reply.id !== id) {
        reply = { role: 'assistant', content: '', id };
        messages.push(reply);
      }
      for (const b of typeof content === 'string' ? [{ type: 'text', text: content }] : (content ?? [])) {
        if (b.type === 'text') reply.content = `${reply.content}${b.text ?? ''}`;
        else if (b.type === 'thinking') reply.reasoningContent = `${reply.reasoningContent ?? ''}${b.thinking ?? ''}`;
        else if (b.type === 'tool_use' && b.id && b.name) (reply.toolCalls ??= []).push({ id: b.id, type: 'function', function: { name: b.name, arguments: JSON.stringify(b.input ?? {}) } } as ToolCall);
        else skip(`${b.type} blocks`);
      }
      const u = line.message?.usage;
      if (u) reply.usage = { promptTokens: u.input_tokens ?? 0, completionTokens: u.output_tokens ?? 0, totalTokens: (u.input_tokens ?? 0) + (u.output_tokens ?? 0) };
      continue;
    }
    reply = undefined;
    if (line.isMeta) {
      skip('meta user lines');
      continue;
    }
    if (typeof content === 'string') {
      messages.push({ role: 'user', content });
      continue;
    }
    const words: string[] = [];
    for (const b of content ?? []) {
      if (b.type === 'tool_result' && b.tool_use_id) messages.push({ role: 'tool', toolCallId: b.tool_use_id, content: textOf(b.content), ...(b.is_error ? { isError: true } : {}) });
      else if (b.type === 'text') words.push(b.text ?? '');
      else skip(`${b.type} blocks`);
    }
    if (words.length) messages.push({ role: 'user', content: words.join('\n') });
  }
  for (const [what, n] of skipped) unmapped.push(`${n} ${what}`);
  return { format: 'claude-code', messages: paired(messages.map(({ id: _id, ...m }: Message & { id?: string }) => m), unmapped), model, unmapped };
}

interface AtifDoc {
  agent?: { model_name?: string };
  subagent_trajectories?: unknown[];
  steps?: Array<{
    source?: string;
    message?: string;
    reasoning_content?: string;
    tool_calls?: Array<{ tool_call_id: string; function_name: string; arguments?: unknown }>;
    observation?: { results?: Array<{ source_call_id?: string; content?: unknown }> };
  }>;
}

function fromAtif(doc: AtifDoc): ImportedConversation {
  const messages: Message[] = [];
  const unmapped: string[] = [];
  for (const s of doc.steps ?? []) {
    if (s.source === 'system') {
      if (s.message) unmapped.push('a system prompt (the team brings its own)');
    } else if (s.source === 'user') messages.push({ role: 'user', content: s.message ?? '' });
    else {
      const m: Message = { role: 'assistant', content: s.message ?? '' };
      if (s.reasoning_content) m.reasoningContent = s.reasoning_content;
      if (s.tool_calls?.length) m.toolCalls = s.tool_calls.map((c) => ({ id: c.tool_call_id, type: 'function', function: { name: c.function_name, arguments: JSON.stringify(c.arguments ?? {}) } }) as ToolCall);
      messages.push(m);
    }
    for (const r of s.observation?.results ?? []) {
      if (r.source_call_id) messages.push({ role: 'tool', toolCallId: r.source_call_id, content: typeof r.content === 'string' ? r.content : JSON.stringify(r.content ?? '') });
      else unmapped.push('an observation not tied to a tool call');
    }
  }
  const subs = doc.subagent_trajectories?.length ?? 0;
  if (subs) unmapped.push(`${subs} embedded sub-agent trajectories (each one's result is kept in the conversation)`);
  return { format: 'atif', messages: paired(messages, unmapped), model: doc.agent?.model_name, unmapped };
}

/**
 * Every tool call answered, every answer asked for, as providers require of a history: a call the file
 * never answered gets a result saying so; a result for a call it does not hold is left out. Both are listed.
 */
function paired(messages: Message[], unmapped: string[]): Message[] {
  const out: Message[] = [];
  let pending: string[] = [];
  let unanswered = 0;
  let strays = 0;
  const settle = () => {
    for (const id of pending) out.push({ role: 'tool', toolCallId: id, content: '(no result: the imported session has none for this call)', isError: true });
    unanswered += pending.length;
    pending = [];
  };
  for (const m of messages) {
    if (m.role === 'tool') {
      // Only an answer to the calls just made fits here; any other result is left out.
      if (!pending.includes(m.toolCallId ?? '')) {
        strays++;
        continue;
      }
      pending = pending.filter((id) => id !== m.toolCallId);
      out.push(m);
      continue;
    }
    settle();
    out.push(m);
    if (m.role === 'assistant') pending = (m.toolCalls ?? []).map((c) => c.id);
  }
  settle();
  if (unanswered) unmapped.push(`${unanswered} tool call(s) without a result (given one that says so)`);
  if (strays) unmapped.push(`${strays} tool result(s) not following their call (left out)`);
  return out;
}
