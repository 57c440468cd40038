import type { MessageChunk } from '../schema/message.js';
import { TaggedTextSplitter } from './tagged-text.js';
import { parseTextToolCalls } from './text-tool-calls.js';

type ChunkCall = NonNullable<MessageChunk['toolCalls']>[number];

export interface StreamDecoderOptions {
  /** Names of the tools offered: tells a complete name from a fragment, and enables text tool calls. */
  toolNames?: readonly string[] | undefined;
}

interface CallState {
  index: number;
  id?: string | undefined;
  name: string;
  hasArgs: boolean;
}

/**
 * Turns the chunks of an OpenAI-compatible stream into adk chunks, surviving what real servers do
 * differently from OpenAI: parallel calls that share `index: 0` or carry none, empty or missing ids,
 * names repeated in every delta, arguments sent as objects, content as an array of parts, `<think>`
 * blocks inside the content and tool calls left in the text. Every call gets its own index.
 */
export class OpenAIStreamDecoder {
  private readonly calls: CallState[] = [];
  private readonly byProviderIndex = new Map<number, CallState>();
  private readonly toolNames: ReadonlySet<string>;
  private readonly text: TaggedTextSplitter;
  private finished = false;
  /** OpenAI sends a refusal as `delta.refusal` text, not content, and still finishes with `stop`. */
  private refused = false;

  constructor(options: StreamDecoderOptions = {}) {
    this.toolNames = new Set(options.toolNames ?? []);
    this.text = new TaggedTextSplitter({ toolCallTags: this.toolNames.size > 0 });
  }

  /** One raw SSE chunk (already JSON-parsed); undefined when it carries nothing for us. */
  decode(raw: unknown): MessageChunk | undefined {
    const chunk = raw as { choices?: Array<Record<string, unknown>>; usage?: unknown; x_groq?: { usage?: unknown } };
    // The first choice only: with `n` > 1 (an extra_body) other choices' deltas would be woven into its text.
    const choice = chunk.choices?.find((c) => ((c.index as number | undefined) ?? 0) === 0);
    const out: MessageChunk = {};
    const delta = choice?.delta as Record<string, unknown> | undefined;
    if (delta) {
      if (delta.role === 'assistant') out.role = 'assistant';
      this.readContent(delta, out);
      if (typeof delta.refusal === 'string' && delta.refusal) {
        // Kept as the reply's text, so every face shows the model's own words.
        out.content = (out.content ?? '') + delta.refusal;
        this.refused = true;
      }
      if (Array.isArray(delta.reasoning_details) && delta.reasoning_details.length) out.reasoningDetails = delta.reasoning_details;
      if (Array.isArray(delta.tool_calls) && delta.tool_calls.length) {
        const calls = delta.tool_calls.flatMap((d, i) => this.readCall(d as Record<string, unknown>, i));
        if (calls.length) out.toolCalls = calls;
      }
    }
    const finish = choice?.finish_reason;
    if (typeof finish === 'string' && finish) {
      this.flushInto(out);
      out.finishReason = out.finishReason ?? (this.refused && (finish === 'stop' || finish === 'content_filter') ? 'refusal' : finish);
    }
    // Groq reports usage under `x_groq` (it rejects stream_options).
    const usage = usageOf(chunk.usage ?? chunk.x_groq?.usage);
    if (usage) out.usage = usage;
    return hasAny(out) ? out : undefined;
  }

  /** Whatever the decoder still holds once the stream ends (a stream without finish_reason). */
  finish(): MessageChunk | undefined {
    const out: MessageChunk = {};
    this.flushInto(out);
    return hasAny(out) ? out : undefined;
  }

  private readContent(delta: Record<string, unknown>, out: MessageChunk): void {
    let text = '';
    let reasoning = typeof delta.reasoning_content === 'string' ? delta.reasoning_content : typeof delta.reasoning === 'string' ? delta.reasoning : '';
    const content = delta.content;
    if (typeof content === 'string') text = content;
    else if (Array.isArray(content)) {
      // Mistral's Magistral: [{type:'thinking', thinking:[{type:'text', text}]}, {type:'text', text}].
      for (const part of content as Array<Record<string, unknown>>) {
        if (part?.type === 'text' && typeof part.text === 'string') text += part.text;
        else if (part?.type === 'thinking') reasoning += partsText(part.thinking);
      }
    }
    if (text) {
      const split = this.text.push(text);
      if (split.text) out.content = split.text;
      if (split.reasoning) reasoning += split.reasoning;
    }
    if (reasoning) out.reasoningContent = reasoning;
  }

  private readCall(d: Record<string, unknown>, position: number): ChunkCall[] {
    const fn = (d.function ?? {}) as Record<string, unknown>;
    const id = typeof d.id === 'string' && d.id ? d.id : undefined;
    const name = typeof fn.name === 'string' && fn.name ? fn.name : undefined;
    const providerIndex = typeof d.index === 'number' ? d.index : undefined;
    let call = this.target(providerIndex, id, name, position);
    const delta: ChunkCall = { index: call.index };
    if (id && !call.id) {
      call.id = id;
      delta.id = id;
    }
    if (name && name !== call.name) {
      // Some servers (NIM, Fireworks) repeat the whole name in every delta: a complete name is kept, not appended to.
      const next = call.name + name;
      if (!call.name || !this.isComplete(call.name) || this.startsToolName(next)) {
        call.name = next;
        (delta.function ??= {}).name = name;
      }
    }
    const args = fn.arguments;
    if (typeof args === 'string' && args) {
      (delta.function ??= {}).arguments = args;
      call.hasArgs = true;
    } else if (args && typeof args === 'object') {
      // LiteLLM's ollama_chat sends the arguments as a JSON object.
      (delta.function ??= {}).arguments = JSON.stringify(args);
      call.hasArgs = true;
    }
    if (d.extra_content && typeof d.extra_content === 'object') delta.extra = { extra_content: d.extra_content };
    return [delta];
  }

  /** The call a delta belongs to: a new non-empty id or a new name on a used index starts a new call. */
  private target(providerIndex: number | undefined, id: string | undefined, name: string | undefined, position: number): CallState {
    const last = this.calls[this.calls.length - 1];
    let known: CallState | undefined;
    if (providerIndex !== undefined) known = this.byProviderIndex.get(providerIndex);
    else if (id) known = this.calls.find((c) => c.id === id);
    else if (last && !(name && last.name && last.hasArgs) && position === 0) known = last;
    const startsNew =
      !known ||
      (id !== undefined && known.id !== undefined && id !== known.id) ||
      (id === undefined && name !== undefined && known.hasArgs && this.isComplete(known.name) && name !== known.name);
    if (!startsNew) return known!;
    const call: CallState = { index: this.calls.length, name: '', hasArgs: false };
    this.calls.push(call);
    if (providerIndex !== undefined) this.byProviderIndex.set(providerIndex, call);
    return call;
  }

  /** Whether `name` is the beginning of an offered tool's name (`read` + `_file` when both `read` and `read_file` exist). */
  private startsToolName(name: string): boolean {
    for (const t of this.toolNames) if (t.startsWith(name)) return true;
    return false;
  }

  /** A name is complete once it names an offered tool (or always, when the tools are not known). */
  private isComplete(name: string): boolean {
    return this.toolNames.size === 0 || this.toolNames.has(name);
  }

  private flushInto(out: MessageChunk): void {
    if (this.finished) return;
    this.finished = true;
    const rest = this.text.end();
    if (rest.reasoning) out.reasoningContent = (out.reasoningContent ?? '') + rest.reasoning;
    let text = rest.text;
    if (rest.heldToolText !== undefined) {
      const parsed = this.calls.length === 0 ? parseTextToolCalls(rest.heldToolText, this.toolNames) : undefined;
      if (parsed?.length) {
        out.toolCalls = [
          ...(out.toolCalls ?? []),
          ...parsed.map((c, i): ChunkCall => ({ index: this.calls.length + i, function: { name: c.name, arguments: c.arguments } })),
        ];
        out.finishReason = 'tool_calls';
      } else text += rest.heldToolText;
    }
    if (text) out.content = (out.content ?? '') + text;
  }
}

function partsText(parts: unknown): string {
  if (typeof parts === 'string') return parts;
  if (!Array.isArray(parts)) return '';
  return parts.map((p) => (typeof (p as { text?: unknown })?.text === 'string' ? (p as { text: string }).text : '')).join('');
}

function usageOf(u: unknown): MessageChunk['usage'] {
  if (!u || typeof u !== 'object') return undefined;
  const x = u as {
    prompt_tokens?: number;
    completion_tokens?: number;
    total_tokens?: number;
    prompt_tokens_details?: { cached_tokens?: unknown } | null;
    completion_tokens_details?: { reasoning_tokens?: unknown } | null;
  };
  const promptTokens = x.prompt_tokens ?? 0;
  const completionTokens = x.completion_tokens ?? 0;
  const usage: NonNullable<MessageChunk['usage']> = { promptTokens, completionTokens, totalTokens: x.total_tokens ?? promptTokens + completionTokens };
  // Prompt tokens served from OpenAI's prompt cache (part of prompt_tokens).
  const cached = x.prompt_tokens_details?.cached_tokens;
  if (typeof cached === 'number' && cached > 0) usage.cacheReadTokens = cached;
  // xAI counts reasoning outside completion_tokens (total = prompt + completion + reasoning); OpenAI inside.
  const reasoning = x.completion_tokens_details?.reasoning_tokens;
  if (typeof reasoning === 'number' && reasoning > 0 && x.total_tokens === promptTokens + completionTokens + reasoning) {
    usage.completionTokens = completionTokens + reasoning;
  }
  return usage;
}

function hasAny(c: MessageChunk): boolean {
  for (const _ in c) return true;
  return false;
}
