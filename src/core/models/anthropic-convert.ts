import { createHash } from 'node:crypto';
import type { Message, MessageChunk, ToolCall, Usage } from '../schema/message.js';
import type { ToolInfo } from '../tools/tool.js';
import { partData, type ContentPart } from '../schema/content-part.js';
import type { ToolChoice } from './chat-model.js';

type Block = Record<string, unknown>;
export interface AnthropicMessageParam {
  role: 'user' | 'assistant';
  content: Block[];
}

const CACHE = { type: 'ephemeral' } as const;
/** providerItems of an Anthropic turn: the calls Anthropic ran itself (web search, code execution) and their results, sent back as they came. */
export const ANTHROPIC_PROVIDER = 'anthropic';
/** A block Anthropic's own tools made: `server_tool_use`, and results such as `web_search_tool_result`. */
const isServerBlock = (type: unknown) => type === 'server_tool_use' || (typeof type === 'string' && type !== 'tool_result' && type.endsWith('_tool_result'));
const TOOL_ID = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Our conversation as an Anthropic Messages request: system messages joined into `system`, tool results
 * as `tool_result` blocks in a user turn, roles alternating, thinking blocks sent back whole (with their
 * signatures) ahead of the text and tool uses of their turn. Cache breakpoints go on the system prompt
 * and on the end of the history, so the next call of a tool loop reads the stable prefix from the cache.
 */
export function toAnthropicRequest(messages: Message[]): { system?: Block[]; messages: AnthropicMessageParam[] } {
  const system = messages.filter((m) => m.role === 'system' && m.content).map((m) => m.content).join('\n\n');
  const out: AnthropicMessageParam[] = [];
  const push = (role: 'user' | 'assistant', blocks: Block[]) => {
    if (!blocks.length) return;
    const prev = out[out.length - 1];
    if (prev?.role === role) {
      // Tool results must open their user turn; text that follows them comes after.
      prev.content.push(...blocks);
    } else out.push({ role, content: blocks });
  };
  for (const m of messages) {
    switch (m.role) {
      case 'system':
        break;
      case 'user':
        // Images and documents ahead of the text that asks about them, as Anthropic advises.
        push('user', [...(m.parts ?? []).map(anthropicPart), ...(m.content ? [{ type: 'text', text: m.content }] : [])]);
        break;
      case 'tool':
        push('user', [{ type: 'tool_result', tool_use_id: toolId(m.toolCallId ?? ''), content: m.content || '(no output)', ...(m.isError ? { is_error: true } : {}) }]);
        break;
      case 'assistant': {
        const blocks: Block[] = [];
        for (const b of m.thinkingBlocks ?? []) blocks.push({ ...b });
        for (const p of m.providerItems ?? []) if (p.provider === ANTHROPIC_PROVIDER && p.data.block) blocks.push(p.data.block as Block);
        if (m.content.trim()) blocks.push({ type: 'text', text: m.content });
        for (const c of m.toolCalls ?? []) blocks.push({ type: 'tool_use', id: toolId(c.id), name: c.function.name, input: parseInput(c.function.arguments) });
        // Thinking alone is not a turn the API accepts back.
        if (blocks.some((b) => b.type !== 'thinking' && b.type !== 'redacted_thinking')) push('assistant', blocks);
        break;
      }
    }
  }
  if (out[0]?.role === 'assistant') out.unshift({ role: 'user', content: [{ type: 'text', text: '(continue)' }] });
  const last = out[out.length - 1];
  const lastBlock = last?.content[last.content.length - 1];
  if (lastBlock && lastBlock.type !== 'thinking' && lastBlock.type !== 'redacted_thinking') lastBlock.cache_control = CACHE;
  return { system: system ? [{ type: 'text', text: system, cache_control: CACHE }] : undefined, messages: out };
}

/** An image as an `image` block, a PDF as a `document` block, both base64. */
function anthropicPart(p: ContentPart): Block {
  const source = { type: 'base64', media_type: p.mimeType, data: partData(p) };
  return p.type === 'image' ? { type: 'image', source } : { type: 'document', source, ...(p.name ? { title: p.name } : {}) };
}

export function toAnthropicTools(tools: ToolInfo[]): Block[] {
  return tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters }));
}

export function toAnthropicToolChoice(choice: ToolChoice): Block {
  if (choice === 'auto') return { type: 'auto' };
  if (choice === 'required') return { type: 'any' };
  if (choice === 'none') return { type: 'none' };
  return { type: 'tool', name: choice.name };
}

const STOP_REASONS: Record<string, string> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  pause_turn: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  refusal: 'refusal',
};

export function finishReasonOf(stopReason: unknown): string | undefined {
  return typeof stopReason === 'string' ? (STOP_REASONS[stopReason] ?? stopReason) : undefined;
}

export function usageOf(u: Record<string, unknown> | undefined, outputTokens?: number): Usage | undefined {
  if (!u) return undefined;
  const n = (k: string) => (typeof u[k] === 'number' ? (u[k] as number) : 0);
  const cacheRead = n('cache_read_input_tokens');
  const cacheWrite = n('cache_creation_input_tokens');
  const promptTokens = n('input_tokens') + cacheRead + cacheWrite;
  const completionTokens = outputTokens ?? n('output_tokens');
  const usage: Usage = { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens };
  if (cacheRead) usage.cacheReadTokens = cacheRead;
  if (cacheWrite) usage.cacheWriteTokens = cacheWrite;
  return usage;
}

/** A whole (non-streamed) Messages response as our message. */
export function fromAnthropicMessage(body: { content?: Block[]; stop_reason?: unknown; usage?: Record<string, unknown> }): Message {
  const msg: Message = { role: 'assistant', content: '' };
  const calls: ToolCall[] = [];
  for (const b of body.content ?? []) {
    if (b.type === 'text') msg.content += String(b.text ?? '');
    else if (b.type === 'thinking') {
      msg.reasoningContent = (msg.reasoningContent ?? '') + String(b.thinking ?? '');
      (msg.thinkingBlocks ??= []).push({ type: 'thinking', thinking: String(b.thinking ?? ''), signature: String(b.signature ?? '') });
    } else if (b.type === 'redacted_thinking') (msg.thinkingBlocks ??= []).push({ type: 'redacted_thinking', data: String(b.data ?? '') });
    else if (b.type === 'tool_use') calls.push({ id: String(b.id ?? ''), index: calls.length, function: { name: String(b.name ?? ''), arguments: JSON.stringify(b.input ?? {}) } });
    else if (isServerBlock(b.type)) {
      const c = serverBlockChunk(b, '');
      (msg.providerItems ??= []).push(...(c.providerItems ?? []));
      msg.reasoningContent = (msg.reasoningContent ?? '') + (c.reasoningContent ?? '');
    }
  }
  if (calls.length) msg.toolCalls = calls;
  const usage = usageOf(body.usage);
  if (usage) msg.usage = usage;
  const finish = finishReasonOf(body.stop_reason);
  if (finish) msg.finishReason = finish;
  return msg;
}

/**
 * Anthropic's stream events as our chunks. Thinking blocks are collected whole (text and signature
 * deltas) and handed over when they stop, so they can go back verbatim in the next request.
 */
export class AnthropicStreamDecoder {
  private readonly blocks = new Map<number, { type: string; callIndex?: number; thinking?: string; signature?: string; data?: string; server?: Block; input?: string }>();
  private calls = 0;
  private inputUsage?: Record<string, unknown> | undefined;
  finished = false;

  decode(ev: Record<string, unknown>): MessageChunk | undefined {
    switch (ev.type) {
      case 'message_start': {
        const m = (ev.message ?? {}) as { usage?: Record<string, unknown> };
        this.inputUsage = m.usage;
        return { role: 'assistant' };
      }
      case 'content_block_start': {
        const index = Number(ev.index);
        const b = (ev.content_block ?? {}) as Block;
        if (b.type === 'tool_use') {
          const callIndex = this.calls++;
          this.blocks.set(index, { type: 'tool_use', callIndex });
          return { toolCalls: [{ index: callIndex, id: String(b.id ?? ''), function: { name: String(b.name ?? '') } }] };
        }
        if (b.type === 'thinking') {
          this.blocks.set(index, { type: 'thinking', thinking: String(b.thinking ?? ''), signature: String(b.signature ?? '') });
          return b.thinking ? { reasoningContent: String(b.thinking) } : undefined;
        }
        if (b.type === 'redacted_thinking') {
          this.blocks.set(index, { type: 'redacted_thinking', data: String(b.data ?? '') });
          return undefined;
        }
        // A call Anthropic runs itself and its result: kept whole for the next request, shown, never run here.
        if (isServerBlock(b.type)) {
          this.blocks.set(index, { type: String(b.type), server: { ...b }, input: '' });
          return undefined;
        }
        this.blocks.set(index, { type: String(b.type) });
        return b.type === 'text' && b.text ? { content: String(b.text) } : undefined;
      }
      case 'content_block_delta': {
        const block = this.blocks.get(Number(ev.index));
        const d = (ev.delta ?? {}) as Block;
        if (d.type === 'text_delta') return d.text ? { content: String(d.text) } : undefined;
        if (d.type === 'input_json_delta' && block?.server) {
          block.input = (block.input ?? '') + String(d.partial_json ?? '');
          return undefined;
        }
        if (d.type === 'input_json_delta' && block?.callIndex !== undefined) {
          return d.partial_json ? { toolCalls: [{ index: block.callIndex, function: { arguments: String(d.partial_json) } }] } : undefined;
        }
        if (d.type === 'thinking_delta' && block) {
          block.thinking = (block.thinking ?? '') + String(d.thinking ?? '');
          return d.thinking ? { reasoningContent: String(d.thinking) } : undefined;
        }
        if (d.type === 'signature_delta' && block) block.signature = (block.signature ?? '') + String(d.signature ?? '');
        return undefined;
      }
      case 'content_block_stop': {
        const block = this.blocks.get(Number(ev.index));
        if (block?.type === 'thinking') return { thinkingBlocks: [{ type: 'thinking', thinking: block.thinking ?? '', signature: block.signature ?? '' }] };
        if (block?.type === 'redacted_thinking') return { thinkingBlocks: [{ type: 'redacted_thinking', data: block.data ?? '' }] };
        if (block?.server) return serverBlockChunk(block.server, block.input ?? '');
        return undefined;
      }
      case 'message_delta': {
        const d = (ev.delta ?? {}) as Block;
        const u = (ev.usage ?? {}) as Record<string, unknown>;
        const out: MessageChunk = {};
        const finish = finishReasonOf(d.stop_reason);
        if (finish) out.finishReason = finish;
        const usage = usageOf({ ...this.inputUsage, ...u }, typeof u.output_tokens === 'number' ? u.output_tokens : undefined);
        if (usage) out.usage = usage;
        return out;
      }
      case 'message_stop':
        this.finished = true;
        return undefined;
      default:
        return undefined; // ping, and event types added later
    }
  }
}

function parseInput(args: string): unknown {
  try {
    const v = JSON.parse(args);
    return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

/** Anthropic accepts letters, digits, `_` and `-` in tool-use ids; others are mapped the same way every time. */
function toolId(id: string): string {
  if (TOOL_ID.test(id)) return id;
  return `toolu_${createHash('sha256').update(id).digest('hex').slice(0, 24)}`;
}

/** A whole server-side block: kept (providerItems) and shown as the model's own work (a thought). */
function serverBlockChunk(b: Block, input: string): MessageChunk {
  if (b.type === 'server_tool_use') {
    let args: unknown = b.input ?? {};
    try {
      if (input.trim()) args = JSON.parse(input);
    } catch {
      // a cut-off input: kept as the block came
    }
    const block = { ...b, input: args };
    return { providerItems: [{ provider: ANTHROPIC_PROVIDER, data: { block } }], reasoningContent: `\n[${String(b.name ?? 'server tool')} ran on Anthropic's side] ${JSON.stringify(args)}\n` };
  }
  const content = Array.isArray(b.content) ? (b.content as Block[]) : [];
  const seen = content.map((r) => (typeof r.title === 'string' ? `${r.title}${typeof r.url === 'string' ? ` (${r.url})` : ''}` : typeof r.type === 'string' ? r.type : '')).filter(Boolean);
  return { providerItems: [{ provider: ANTHROPIC_PROVIDER, data: { block: b } }], reasoningContent: `[${String(b.type)}] ${seen.join('; ') || '(no results)'}\n` };
}
