import type { Message, MessageChunk, ProviderItem, ThinkingBlock, ToolCall, Usage } from './message.js';

/** Accumulates streamed chunks into one message. Handles interleaved deltas of several tool calls. */
export class ChunkAccumulator {
  private content: string[] = [];
  private reasoning: string[] = [];
  private calls = new Map<number, { id: string; providerId?: string; name: string; args: string[]; extra?: Record<string, unknown> }>();
  private details?: unknown[] | undefined;
  private thinking?: ThinkingBlock[] | undefined;
  private items?: ProviderItem[] | undefined;
  private usage?: Usage | undefined;
  private finishReason?: string | undefined;
  role: Message['role'] = 'assistant';

  add(chunk: MessageChunk): void {
    if (chunk.role) this.role = chunk.role;
    if (chunk.content) this.content.push(chunk.content);
    if (chunk.reasoningContent) this.reasoning.push(chunk.reasoningContent);
    if (chunk.usage) this.usage = chunk.usage;
    if (chunk.finishReason) this.finishReason = chunk.finishReason;
    if (chunk.reasoningDetails) this.details = mergeReasoningDetails(this.details ?? [], chunk.reasoningDetails);
    if (chunk.thinkingBlocks) (this.thinking ??= []).push(...chunk.thinkingBlocks);
    if (chunk.providerItems) (this.items ??= []).push(...chunk.providerItems);
    for (const d of chunk.toolCalls ?? []) {
      let call = this.calls.get(d.index);
      if (!call) {
        call = { id: '', name: '', args: [] };
        this.calls.set(d.index, call);
      }
      if (d.id) call.id = d.id;
      if (d.providerId) call.providerId = d.providerId;
      if (d.function?.name) call.name += d.function.name;
      if (d.function?.arguments) call.args.push(d.function.arguments);
      if (d.extra) call.extra = { ...call.extra, ...d.extra };
    }
  }

  get hasToolCalls(): boolean {
    return this.calls.size > 0;
  }

  message(): Message {
    const msg: Message = { role: this.role, content: this.content.join('') };
    if (this.reasoning.length) msg.reasoningContent = this.reasoning.join('');
    if (this.calls.size) {
      msg.toolCalls = [...this.calls.entries()]
        .sort(([a], [b]) => a - b)
        .map(([index, c]): ToolCall => {
          const call: ToolCall = { id: c.id, index, function: { name: c.name, arguments: c.args.join('') } };
          if (c.providerId) call.providerId = c.providerId;
          if (c.extra) call.extra = c.extra;
          return call;
        });
    }
    if (this.details?.length) msg.reasoningDetails = this.details;
    if (this.thinking?.length) msg.thinkingBlocks = this.thinking;
    if (this.items?.length) msg.providerItems = this.items;
    if (this.usage) msg.usage = this.usage;
    if (this.finishReason) msg.finishReason = this.finishReason;
    return msg;
  }
}

/**
 * OpenRouter streams `reasoning_details` in pieces: entries sharing an `index` are one detail whose
 * string fields (`text`, `summary`, `data`, `signature`) arrive in parts.
 */
function mergeReasoningDetails(into: unknown[], pieces: unknown[]): unknown[] {
  for (const piece of pieces) {
    if (!piece || typeof piece !== 'object') continue;
    const p = piece as Record<string, unknown>;
    const same = typeof p.index === 'number' ? (into.find((d) => (d as Record<string, unknown>).index === p.index) as Record<string, unknown> | undefined) : undefined;
    if (!same) {
      into.push({ ...p });
      continue;
    }
    for (const [k, v] of Object.entries(p)) {
      if (typeof v === 'string' && typeof same[k] === 'string' && ['text', 'summary', 'data', 'signature'].includes(k)) same[k] += v;
      else if (v !== undefined && v !== null) same[k] = v;
    }
  }
  return into;
}

/** Joins the chunks of a streamed reply into the whole message (tool-call deltas merged by `index`). */
export function concatChunks(chunks: Iterable<MessageChunk>): Message {
  const acc = new ChunkAccumulator();
  for (const c of chunks) acc.add(c);
  return acc.message();
}

/** Splits a whole message into chunks, e.g. to serve a non-streaming reply to a streaming consumer. */
export function messageToChunk(m: Message): MessageChunk {
  const chunk: MessageChunk = { role: m.role, content: m.content };
  if (m.reasoningContent) chunk.reasoningContent = m.reasoningContent;
  if (m.reasoningDetails) chunk.reasoningDetails = m.reasoningDetails;
  if (m.thinkingBlocks) chunk.thinkingBlocks = m.thinkingBlocks;
  if (m.providerItems) chunk.providerItems = m.providerItems;
  if (m.toolCalls) {
    chunk.toolCalls = m.toolCalls.map((c, i) => (c.extra ? { index: c.index ?? i, id: c.id, function: { ...c.function }, extra: c.extra } : { index: c.index ?? i, id: c.id, function: { ...c.function } }));
  }
  if (m.usage) chunk.usage = m.usage;
  if (m.finishReason) chunk.finishReason = m.finishReason;
  return chunk;
}
