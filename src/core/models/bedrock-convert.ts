import type { Message, MessageChunk, Usage } from '../schema/message.js';
import { partData, partFileName, type ContentPart } from '../schema/content-part.js';
import type { ToolInfo } from '../tools/tool-info.js';
import type { ToolChoice } from './chat-model.js';

type Block = Record<string, unknown>;

/** providerItems of a Bedrock turn: server-side tool blocks (Nova's code interpreter) sent back as they came. */
export const BEDROCK_PROVIDER = 'bedrock';
export interface BedrockMessage {
  role: 'user' | 'assistant';
  content: Block[];
}

/**
 * Our conversation as a Converse request: system text apart, tool results as `toolResult` blocks of a
 * user turn, roles alternating, and reasoning blocks (Claude's, with their signatures) sent back ahead
 * of the text and tool uses of their turn, as thinking blocks are on Anthropic's own API.
 */
export function toBedrockRequest(messages: Message[]): { system: Block[]; messages: BedrockMessage[] } {
  const system = messages.filter((m) => m.role === 'system' && m.content).map((m) => ({ text: m.content }));
  const out: BedrockMessage[] = [];
  const push = (role: BedrockMessage['role'], blocks: Block[]) => {
    if (!blocks.length) return;
    const prev = out[out.length - 1];
    if (prev?.role === role) prev.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const m of messages) {
    if (m.role === 'user') push('user', userBlocks(m));
    else if (m.role === 'tool') {
      push('user', [{ toolResult: { toolUseId: m.toolCallId ?? '', content: [{ text: m.content || '(no output)' }], ...(m.isError ? { status: 'error' } : {}) } }]);
    } else if (m.role === 'assistant') {
      const blocks: Block[] = [];
      for (const b of m.thinkingBlocks ?? []) {
        if (b.type === 'thinking') blocks.push({ reasoningContent: { reasoningText: { text: b.thinking, ...(b.signature ? { signature: b.signature } : {}) } } });
        else blocks.push({ reasoningContent: { redactedContent: Buffer.from(b.data, 'base64') } });
      }
      // Calls Bedrock ran itself (server_tool_use) and their results, as it sent them.
      for (const p of m.providerItems ?? []) if (p.provider === BEDROCK_PROVIDER && p.data.block) blocks.push(p.data.block as Block);
      if (m.content.trim()) blocks.push({ text: m.content });
      for (const c of m.toolCalls ?? []) blocks.push({ toolUse: { toolUseId: c.id, name: c.function.name, input: parseInput(c.function.arguments) } });
      // Reasoning alone is not a turn Bedrock takes back.
      if (blocks.some((b) => !b.reasoningContent)) push('assistant', blocks);
    }
  }
  if (out[0]?.role === 'assistant') out.unshift({ role: 'user', content: [{ text: '(continue)' }] });
  return { system, messages: out };
}

/**
 * A user turn: text, then images as `image` blocks and PDFs as `document` blocks (raw bytes; the SDK
 * sends them base64). Converse wants a text block beside a document, and names of letters, digits,
 * spaces, hyphens, parentheses and brackets.
 */
function userBlocks(m: Message): Block[] {
  const parts = m.parts ?? [];
  const text = m.content || (parts.some((p) => p.type === 'file') ? '(attached)' : '');
  const blocks: Block[] = text ? [{ text }] : [];
  for (const p of parts) {
    const bytes = Buffer.from(partData(p), 'base64');
    const format = p.mimeType.split('/')[1];
    if (p.type === 'image') blocks.push({ image: { format, source: { bytes } } });
    else blocks.push({ document: { format, name: documentName(p), source: { bytes } } });
  }
  return blocks;
}

function documentName(p: ContentPart): string {
  const base = partFileName(p).replace(/\.pdf$/i, '').replace(/[^A-Za-z0-9\s\-()[\]]+/g, '-').replace(/\s+/g, ' ').trim();
  return base || `document-${p.hash.slice(0, 12)}`;
}

/** Tools and the choice among them; `none` keeps the tools (a history with tool blocks needs them) and sets no choice. */
export function toBedrockToolConfig(tools: ToolInfo[], choice: ToolChoice | undefined): Block {
  const config: Block = { tools: tools.map((t) => ({ toolSpec: { name: t.name, description: t.description, inputSchema: { json: t.parameters } } })) };
  if (choice === 'auto') config.toolChoice = { auto: {} };
  else if (choice === 'required') config.toolChoice = { any: {} };
  else if (choice && typeof choice === 'object') config.toolChoice = { tool: { name: choice.name } };
  return config;
}

const STOP_REASONS: Record<string, string> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  guardrail_intervened: 'content_filter',
  content_filtered: 'content_filter',
};

/** Converse usage: cache reads and writes are outside inputTokens, as on Anthropic's API. */
export function bedrockUsage(u: Record<string, unknown> | undefined): Usage | undefined {
  if (!u) return undefined;
  const n = (k: string) => (typeof u[k] === 'number' ? (u[k] as number) : 0);
  const cacheRead = n('cacheReadInputTokens');
  const cacheWrite = n('cacheWriteInputTokens');
  const promptTokens = n('inputTokens') + cacheRead + cacheWrite;
  const completionTokens = n('outputTokens');
  const usage: Usage = { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens };
  if (cacheRead) usage.cacheReadTokens = cacheRead;
  if (cacheWrite) usage.cacheWriteTokens = cacheWrite;
  return usage;
}

/**
 * ConverseStream events as our chunks. Reasoning text streams as thinking and is also kept whole, with
 * its signature, as a thinking block handed over when its content block stops. `metadata` (usage) may
 * come after `messageStop`, so the finish goes out in `finish()`.
 */
export class BedrockStreamDecoder {
  private readonly blocks = new Map<number, { callIndex?: number; reasoning?: string; signature?: string; redacted?: Uint8Array[]; server?: ServerBlock }>();
  private calls = 0;
  private usage?: Usage | undefined;
  private stopReason?: string | undefined;

  get finished(): boolean {
    return this.stopReason !== undefined;
  }

  decode(ev: Record<string, unknown>): MessageChunk | undefined {
    if (ev.messageStart) return { role: 'assistant' };
    if (ev.contentBlockStart) {
      const e = ev.contentBlockStart as { contentBlockIndex?: number; start?: { toolUse?: { toolUseId?: string; name?: string; type?: string }; toolResult?: { toolUseId?: string; type?: string; status?: string } } };
      const use = e.start?.toolUse;
      const result = e.start?.toolResult;
      // A call Bedrock runs itself (Nova's code interpreter) and its result: kept, shown, never run here.
      if (use?.type === 'server_tool_use') return void this.blocks.set(Number(e.contentBlockIndex), { server: { toolUse: { ...use, input: '' } } });
      if (result) return void this.blocks.set(Number(e.contentBlockIndex), { server: { toolResult: { ...result, content: [] } } });
      if (!use) return undefined;
      const callIndex = this.calls++;
      this.blocks.set(Number(e.contentBlockIndex), { callIndex });
      return { toolCalls: [{ index: callIndex, id: String(use.toolUseId ?? ''), function: { name: String(use.name ?? '') } }] };
    }
    if (ev.contentBlockDelta) {
      const e = ev.contentBlockDelta as { contentBlockIndex?: number; delta?: Record<string, unknown> };
      const index = Number(e.contentBlockIndex);
      const d = e.delta ?? {};
      if (typeof d.text === 'string') return d.text ? { content: d.text } : undefined;
      const use = d.toolUse as { input?: unknown } | undefined;
      const server = this.blocks.get(index)?.server;
      if (server) {
        if (server.toolUse && typeof use?.input === 'string') server.toolUse.input += use.input;
        if (server.toolResult && Array.isArray(d.toolResult)) server.toolResult.content.push(...(d.toolResult as Block[]));
        return undefined;
      }
      if (use) {
        const block = this.blocks.get(index);
        return block?.callIndex !== undefined && typeof use.input === 'string' && use.input ? { toolCalls: [{ index: block.callIndex, function: { arguments: use.input } }] } : undefined;
      }
      const r = d.reasoningContent as { text?: unknown; signature?: unknown; redactedContent?: unknown } | undefined;
      if (r) {
        const block = this.blocks.get(index) ?? {};
        this.blocks.set(index, block);
        if (typeof r.signature === 'string') block.signature = (block.signature ?? '') + r.signature;
        if (r.redactedContent instanceof Uint8Array) (block.redacted ??= []).push(r.redactedContent);
        if (typeof r.text === 'string' && r.text) {
          block.reasoning = (block.reasoning ?? '') + r.text;
          return { reasoningContent: r.text };
        }
      }
      return undefined;
    }
    if (ev.contentBlockStop) {
      const block = this.blocks.get(Number((ev.contentBlockStop as { contentBlockIndex?: number }).contentBlockIndex));
      if (block?.server) return serverChunk(block.server);
      if (block?.redacted) return { thinkingBlocks: [{ type: 'redacted_thinking', data: Buffer.concat(block.redacted).toString('base64') }] };
      if (block?.reasoning !== undefined || block?.signature) return { thinkingBlocks: [{ type: 'thinking', thinking: block.reasoning ?? '', signature: block.signature ?? '' }] };
      return undefined;
    }
    if (ev.messageStop) {
      const reason = (ev.messageStop as { stopReason?: unknown }).stopReason;
      this.stopReason = typeof reason === 'string' ? reason : 'end_turn';
      return undefined;
    }
    if (ev.metadata) {
      const usage = bedrockUsage((ev.metadata as { usage?: Record<string, unknown> }).usage);
      if (usage) this.usage = usage;
    }
    return undefined;
  }

  finish(): MessageChunk {
    const out: MessageChunk = {};
    if (this.usage) out.usage = this.usage;
    const r = this.stopReason ?? 'end_turn';
    out.finishReason = STOP_REASONS[r] ?? r;
    return out;
  }
}

interface ServerBlock {
  toolUse?: { toolUseId?: string; name?: string; type?: string; input: string };
  toolResult?: { toolUseId?: string; type?: string; status?: string; content: Block[] };
}

/**
 * A server-side block, whole: kept for the next request (providerItems) and shown as the model's
 * own work (a thought: the code it ran, then what came out), never as a call adk would run.
 */
function serverChunk(b: ServerBlock): MessageChunk {
  if (b.toolUse) {
    const { input, ...rest } = b.toolUse;
    const parsed = parseInput(input) as Record<string, unknown>;
    const code = typeof parsed.code === 'string' ? parsed.code : JSON.stringify(parsed);
    return { providerItems: [{ provider: BEDROCK_PROVIDER, data: { block: { toolUse: { ...rest, input: parsed } } } }], reasoningContent: `\n[${rest.name ?? 'server tool'} ran on Bedrock]\n${code}\n` };
  }
  const r = b.toolResult!;
  const text = r.content.map((c) => (typeof c.text === 'string' ? c.text : JSON.stringify(c.json ?? c))).join('\n');
  return { providerItems: [{ provider: BEDROCK_PROVIDER, data: { block: { toolResult: r } } }], reasoningContent: `[result${r.status === 'error' ? ', error' : ''}] ${text}\n` };
}

function parseInput(args: string): unknown {
  try {
    const v = JSON.parse(args || '{}');
    return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}
