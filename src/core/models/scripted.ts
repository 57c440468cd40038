import { sleep } from '../abort.js';
import { cancelledBy } from '../errors.js';
import { concatChunks } from '../schema/concat.js';
import type { Message, MessageChunk, Usage } from '../schema/message.js';
import type { ChatModel, ModelCallOptions } from './chat-model.js';

/** A tool call in a scripted reply; without `id` it gets `call_<n>` by its position in the reply. */
export interface ScriptedToolCall {
  name: string;
  /** An object is serialized to JSON; a string is sent as is (to test malformed arguments). */
  arguments: unknown;
  id?: string | undefined;
}

/** One reply of a ScriptedChatModel; without `usage`, rough token counts are made up (4 characters a token). */
export interface ScriptedReply {
  content?: string | undefined;
  /** Explicit chunking of `content` when streaming; otherwise it is cut every `chunkSize` characters. */
  chunks?: string[] | undefined;
  reasoning?: string | undefined;
  toolCalls?: ScriptedToolCall[] | undefined;
  usage?: Usage | undefined;
  /** Wait before the first chunk (or before answering, when not streaming). */
  delayMs?: number | undefined;
  /** Wait between streamed chunks. */
  chunkDelayMs?: number | undefined;
  /** Fail this call with the error instead of answering. */
  error?: Error | undefined;
}

/** A fixed reply, or a function choosing one from the messages, options and 0-based call number. */
export type ScriptStep = ScriptedReply | ((messages: Message[], options: ModelCallOptions | undefined, call: number) => ScriptedReply);

/** What the model was called with, recorded in `calls` for tests to inspect. */
export interface ScriptedCall {
  messages: Message[];
  options?: ModelCallOptions | undefined;
}

/** A deterministic model: replays replies in order. Used by tests, benchmarks and the offline demo. */
export class ScriptedChatModel implements ChatModel {
  readonly calls: ScriptedCall[] = [];
  private next = 0;

  constructor(
    private readonly script: ScriptStep[] | ((messages: Message[], options: ModelCallOptions | undefined, call: number) => ScriptedReply),
    readonly modelName = 'scripted',
    private readonly chunkSize = 4,
  ) {}

  private take(messages: Message[], options?: ModelCallOptions): ScriptedReply {
    // A copy of the list, not of each message: copying every message made a long tool loop
    // quadratic in allocations (messages are not changed once sent).
    this.calls.push({ messages: messages.slice(), options });
    const call = this.next++;
    if (typeof this.script === 'function') return this.script(messages, options, call);
    const step = this.script[call];
    if (!step) throw new Error(`scripted model has no reply #${call + 1} (script has ${this.script.length})`);
    return typeof step === 'function' ? step(messages, options, call) : step;
  }

  async generate(messages: Message[], options?: ModelCallOptions): Promise<Message> {
    const chunks: MessageChunk[] = [];
    for await (const c of this.stream(messages, options, false)) chunks.push(c);
    return concatChunks(chunks);
  }

  async *stream(messages: Message[], options?: ModelCallOptions, chunked = true): AsyncIterable<MessageChunk> {
    const reply = this.take(messages, options);
    const signal = options?.signal;
    if (reply.delayMs) await sleep(reply.delayMs, signal);
    if (signal?.aborted) throw cancelledBy(signal);
    if (reply.error) throw reply.error;
    if (reply.reasoning) yield { role: 'assistant', reasoningContent: reply.reasoning };
    const pieces = reply.chunks ?? (chunked ? split(reply.content ?? '', this.chunkSize) : [reply.content ?? '']);
    for (const content of pieces) {
      if (reply.chunkDelayMs) await sleep(reply.chunkDelayMs, signal);
      else if (signal?.aborted) throw cancelledBy(signal);
      yield { role: 'assistant', content };
    }
    for (const [index, call] of (reply.toolCalls ?? []).entries()) {
      const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {});
      const id = call.id ?? `call_${index + 1}`;
      const argPieces = chunked ? split(args, 8) : [args];
      yield { toolCalls: [{ index, id, function: { name: call.name, arguments: argPieces[0] ?? '' } }] };
      for (const a of argPieces.slice(1)) yield { toolCalls: [{ index, function: { arguments: a } }] };
    }
    yield {
      finishReason: reply.toolCalls?.length ? 'tool_calls' : 'stop',
      usage: reply.usage ?? estimateUsage(messages, reply),
    };
  }
}

function split(text: string, size: number): string[] {
  if (!text) return [];
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** Rough token counts (4 characters a token) so the demo and tests show plausible usage. */
function estimateUsage(messages: Message[], reply: ScriptedReply): Usage {
  const promptTokens = Math.ceil(messages.reduce((n, m) => n + m.content.length, 0) / 4);
  const out = (reply.content ?? '') + (reply.toolCalls ?? []).map((c) => JSON.stringify(c.arguments)).join('');
  const completionTokens = Math.ceil(out.length / 4);
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens };
}
