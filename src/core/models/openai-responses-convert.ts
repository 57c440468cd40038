import type { Message, MessageChunk, ProviderItem, Usage } from '../schema/message.js';
import type { ToolInfo } from '../tools/tool-info.js';
import { dataUrl, partFileName, type ContentPart } from '../schema/content-part.js';
import type { ToolChoice } from './chat-model.js';
import { hostedItemThought, isHostedItem } from './openai-responses-hosted.js';

/** Marks the provider items this API wrote (encrypted reasoning, item ids), so other providers leave them alone. */
export const RESPONSES_PROVIDER = 'openai-responses';

type Item = Record<string, unknown>;

/** An image as `input_image`, a PDF as `input_file`, both inline data URLs. */
function responsesPart(p: ContentPart): Item {
  if (p.type === 'image') return { type: 'input_image', image_url: dataUrl(p), detail: 'auto' };
  return { type: 'input_file', filename: partFileName(p), file_data: dataUrl(p) };
}

/**
 * Our conversation as Responses API input items. An assistant turn goes back as its reasoning items
 * (encrypted, as received) and OpenAI-run tool calls in their order, its text, then its function calls with their `call_id`s and item ids; tool
 * results become `function_call_output` items. `after` skips what a chained `previous_response_id`
 * already holds.
 */
export function toResponsesInput(messages: Message[], after = -1): Item[] {
  const out: Item[] = [];
  messages.forEach((m, i) => {
    if (i <= after) return;
    switch (m.role) {
      case 'system':
        if (m.content) out.push({ role: 'system', content: m.content });
        break;
      case 'user':
        out.push({ role: 'user', content: m.parts?.length ? [...(m.content ? [{ type: 'input_text', text: m.content }] : []), ...m.parts.map(responsesPart)] : m.content });
        break;
      case 'tool':
        out.push({ type: 'function_call_output', call_id: m.toolCallId ?? '', output: m.content || '(no output)' });
        break;
      case 'assistant': {
        const own = ownItems(m);
        // Reasoning and OpenAI's own tool calls in the order they came: each reasoning item is
        // followed by the item it led to, as the API requires.
        for (const item of own) if (item.type === 'reasoning' || isHostedItem(item)) out.push(item);
        // gpt-5.3-codex and later read their messages' phase (commentary or final_answer) on later turns.
        const phase = [...own].reverse().find((x) => x.type === 'message_phase')?.phase;
        if (m.content) out.push({ role: 'assistant', content: m.content, ...(typeof phase === 'string' ? { phase } : {}) });
        const ids = new Map(own.filter((x) => x.type === 'function_call').map((x) => [x.call_id, x.id]));
        for (const c of m.toolCalls ?? []) {
          const id = ids.get(c.id);
          out.push({ type: 'function_call', call_id: c.id, name: c.function.name, arguments: c.function.arguments || '{}', ...(typeof id === 'string' ? { id } : {}) });
        }
        break;
      }
    }
  });
  return out;
}

/** The provider items of a message that this API wrote. */
function ownItems(m: Message): Item[] {
  return (m.providerItems ?? []).filter((p) => p.provider === RESPONSES_PROVIDER).map((p) => p.data);
}

/** The response id an assistant message came from (recorded for `previous_response_id` chaining). */
export function responseIdOf(m: Message): string | undefined {
  const item = ownItems(m).find((x) => x.type === 'response');
  return typeof item?.id === 'string' ? item.id : undefined;
}

/** Responses tools are flat: `{type: function, name, description, parameters}`. */
export function toResponsesTools(tools: ToolInfo[]): Item[] {
  return tools.map((t) => ({ type: 'function', name: t.name, description: t.description, parameters: t.parameters, strict: false }));
}

export function toResponsesToolChoice(choice: ToolChoice): unknown {
  return typeof choice === 'string' ? choice : { type: 'function', name: choice.name };
}

/** Usage of a response: cached prompt tokens and reasoning tokens (already inside output_tokens). */
export function responsesUsage(u: unknown): Usage | undefined {
  if (!u || typeof u !== 'object') return undefined;
  const x = u as { input_tokens?: unknown; output_tokens?: unknown; total_tokens?: unknown; input_tokens_details?: { cached_tokens?: unknown } | null; output_tokens_details?: { reasoning_tokens?: unknown } | null };
  const n = (v: unknown) => (typeof v === 'number' ? v : 0);
  const promptTokens = n(x.input_tokens);
  const completionTokens = n(x.output_tokens);
  const usage: Usage = { promptTokens, completionTokens, totalTokens: n(x.total_tokens) || promptTokens + completionTokens };
  const cached = n(x.input_tokens_details?.cached_tokens);
  if (cached) usage.cacheReadTokens = cached;
  const reasoning = n(x.output_tokens_details?.reasoning_tokens);
  if (reasoning) usage.reasoningTokens = reasoning;
  return usage;
}

/** `incomplete_details.reason` as Chat Completions' finish reasons, so the turn ends `incomplete` the same way. */
const INCOMPLETE: Record<string, string> = { max_output_tokens: 'length', content_filter: 'content_filter' };

/**
 * Responses stream events as our chunks. Function calls are keyed by output index (several may stream
 * at once); reasoning summaries become thinking text; finished reasoning items are kept whole, with
 * their encrypted content, to go back next turn.
 */
export class ResponsesStreamDecoder {
  private readonly calls = new Map<number, { index: number; sawArgs: boolean }>();
  private readonly summaryParts = new Set<string>();
  private refused = false;
  /** The terminal event (`response.completed`, `.incomplete` or `.failed`) arrived. */
  finished = false;
  /** The whole response of `response.failed`, for its error. */
  failed?: Item | undefined;

  decode(ev: Item): MessageChunk | undefined {
    switch (ev.type) {
      case 'response.created':
        return { role: 'assistant' };
      case 'response.output_item.added': {
        const item = (ev.item ?? {}) as Item;
        if (item.type !== 'function_call') return undefined;
        const index = this.calls.size;
        const args = typeof item.arguments === 'string' ? item.arguments : '';
        this.calls.set(Number(ev.output_index), { index, sawArgs: !!args });
        return { toolCalls: [{ index, id: String(item.call_id ?? ''), function: { name: String(item.name ?? ''), ...(args ? { arguments: args } : {}) } }] };
      }
      case 'response.function_call_arguments.delta': {
        const call = this.calls.get(Number(ev.output_index));
        if (!call || typeof ev.delta !== 'string' || !ev.delta) return undefined;
        call.sawArgs = true;
        return { toolCalls: [{ index: call.index, function: { arguments: ev.delta } }] };
      }
      case 'response.output_text.delta':
        return typeof ev.delta === 'string' && ev.delta ? { content: ev.delta } : undefined;
      case 'response.refusal.delta':
        this.refused = true;
        return typeof ev.delta === 'string' && ev.delta ? { content: ev.delta } : undefined;
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta': {
        if (typeof ev.delta !== 'string' || !ev.delta) return undefined;
        // Summary parts are paragraphs: a blank line between them.
        const part = `${String(ev.item_id)}:${String(ev.summary_index ?? ev.content_index ?? 0)}`;
        const sep = this.summaryParts.size && !this.summaryParts.has(part) ? '\n\n' : '';
        this.summaryParts.add(part);
        return { reasoningContent: sep + ev.delta };
      }
      case 'response.output_item.done':
        return this.itemDone((ev.item ?? {}) as Item, Number(ev.output_index));
      case 'response.completed':
      case 'response.incomplete':
      case 'response.failed':
        return this.end(ev.type, (ev.response ?? {}) as Item);
      default:
        return undefined; // in_progress, content_part.*, *.done texts, and event types added later
    }
  }

  private itemDone(item: Item, outputIndex: number): MessageChunk | undefined {
    if (item.type === 'message' && typeof item.phase === 'string') {
      // Kept to go back with the message (the last message item's, when a reply has several).
      return { providerItems: [{ provider: RESPONSES_PROVIDER, data: { type: 'message_phase', phase: item.phase } }] };
    }
    if (item.type === 'reasoning') {
      const data: Item = { type: 'reasoning', id: item.id, summary: Array.isArray(item.summary) ? item.summary : [] };
      if (typeof item.encrypted_content === 'string') data.encrypted_content = item.encrypted_content;
      return { providerItems: [{ provider: RESPONSES_PROVIDER, data }] };
    }
    if (isHostedItem(item)) {
      return { providerItems: [{ provider: RESPONSES_PROVIDER, data: item }], reasoningContent: hostedItemThought(item) };
    }
    if (item.type === 'function_call') {
      const call = this.calls.get(outputIndex);
      const items: ProviderItem[] = typeof item.id === 'string' ? [{ provider: RESPONSES_PROVIDER, data: { type: 'function_call', id: item.id, call_id: item.call_id } }] : [];
      // A server that sends the arguments only whole, on the finished item.
      const args = call && !call.sawArgs && typeof item.arguments === 'string' && item.arguments ? item.arguments : undefined;
      if (call && args) call.sawArgs = true;
      const out: MessageChunk = {};
      if (items.length) out.providerItems = items;
      if (call && args) out.toolCalls = [{ index: call.index, function: { arguments: args } }];
      return items.length || args ? out : undefined;
    }
    return undefined;
  }

  private end(type: unknown, response: Item): MessageChunk {
    this.finished = true;
    if (type === 'response.failed') this.failed = response;
    const out: MessageChunk = {};
    const usage = responsesUsage(response.usage);
    if (usage) out.usage = usage;
    if (typeof response.id === 'string') out.providerItems = [{ provider: RESPONSES_PROVIDER, data: { type: 'response', id: response.id } }];
    const reason = (response.incomplete_details as { reason?: unknown } | null | undefined)?.reason;
    if (type === 'response.incomplete') out.finishReason = typeof reason === 'string' ? (INCOMPLETE[reason] ?? reason) : 'length';
    else if (this.refused) out.finishReason = 'refusal';
    else out.finishReason = this.calls.size ? 'tool_calls' : 'stop';
    return out;
  }
}
