import { randomUUID } from 'node:crypto';
import type { Message, MessageChunk, ToolCall, Usage } from '../schema/message.js';
import { partData } from '../schema/content-part.js';
import type { ToolInfo } from '../tools/tool-info.js';
import type { ToolChoice } from './chat-model.js';

/** Marks provider items Gemini wrote (the thought signature of a text part). */
export const GOOGLE_PROVIDER = 'google';

type Part = Record<string, unknown>;
export interface GeminiContent {
  role: 'user' | 'model';
  parts: Part[];
}

/**
 * A call's thought signature, kept the way Gemini's OpenAI-compatible endpoint returns it
 * (`extra_content.google.thought_signature`), so a session can move between the two endpoints.
 */
export function signatureOf(call: ToolCall): string | undefined {
  const sig = (call.extra?.extra_content as { google?: { thought_signature?: unknown } } | undefined)?.google?.thought_signature;
  return typeof sig === 'string' ? sig : undefined;
}

const signatureExtra = (sig: string) => ({ extra_content: { google: { thought_signature: sig } } });

/**
 * Our conversation as Gemini contents: system messages become the system instruction, tool results
 * `functionResponse` parts of one user turn (parallel calls answered together), and each model turn
 * goes back with its thought signatures where Gemini put them: on function calls, and on text.
 */
export function toGeminiRequest(messages: Message[]): { systemInstruction?: string; contents: GeminiContent[] } {
  const system = messages.filter((m) => m.role === 'system' && m.content).map((m) => m.content).join('\n\n');
  const names = new Map<string, string>();
  const contents: GeminiContent[] = [];
  const push = (role: GeminiContent['role'], parts: Part[]) => {
    if (!parts.length) return;
    const prev = contents[contents.length - 1];
    if (prev?.role === role) prev.parts.push(...parts);
    else contents.push({ role, parts });
  };
  for (const m of messages) {
    if (m.role === 'user') push('user', [...(m.content ? [{ text: m.content }] : []), ...(m.parts ?? []).map((p) => ({ inlineData: { mimeType: p.mimeType, data: partData(p) } }))]);
    else if (m.role === 'tool') {
      const name = m.toolName ?? names.get(m.toolCallId ?? '') ?? 'tool';
      const id = m.toolCallId && !m.toolCallId.startsWith(LOCAL_ID) ? { id: m.toolCallId } : {};
      push('user', [{ functionResponse: { name, ...id, response: m.isError ? { error: m.content } : { output: m.content } } }]);
    } else if (m.role === 'assistant') {
      const parts: Part[] = [];
      const textSig = (m.providerItems ?? []).find((p) => p.provider === GOOGLE_PROVIDER && typeof p.data.thoughtSignature === 'string')?.data.thoughtSignature;
      if (m.content) parts.push({ text: m.content, ...(textSig ? { thoughtSignature: textSig } : {}) });
      for (const c of m.toolCalls ?? []) {
        names.set(c.id, c.function.name);
        const sig = signatureOf(c);
        const id = c.id.startsWith(LOCAL_ID) ? {} : { id: c.id };
        parts.push({ functionCall: { name: c.function.name, ...id, args: parseArgs(c.function.arguments) }, ...(sig ? { thoughtSignature: sig } : {}) });
      }
      push('model', parts);
    }
  }
  if (contents[0]?.role === 'model') contents.unshift({ role: 'user', parts: [{ text: '(continue)' }] });
  return { ...(system ? { systemInstruction: system } : {}), contents };
}

/** Gemini takes JSON Schema as it is in `parametersJsonSchema`. */
export function toGeminiTools(tools: ToolInfo[]): Part[] {
  return [{ functionDeclarations: tools.map((t) => ({ name: t.name, description: t.description, parametersJsonSchema: t.parameters })) }];
}

export function toGeminiToolConfig(choice: ToolChoice): Part {
  if (choice === 'auto') return { functionCallingConfig: { mode: 'AUTO' } };
  if (choice === 'none') return { functionCallingConfig: { mode: 'NONE' } };
  if (choice === 'required') return { functionCallingConfig: { mode: 'ANY' } };
  return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.name] } };
}

/** Gemini's finish and block reasons that mean a safety filter stopped the reply. */
const BLOCKED = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY', 'IMAGE_PROHIBITED_CONTENT', 'MODEL_ARMOR', 'LANGUAGE', 'OTHER_BLOCK']);

/** Ids adk made for calls Gemini sent without one; never sent back as Gemini ids. */
const LOCAL_ID = 'gcall_';

/** Gemini usage: thoughts count as completion tokens, cached content as cache reads. */
export function geminiUsage(u: Record<string, unknown> | undefined): Usage | undefined {
  if (!u) return undefined;
  const n = (k: string) => (typeof u[k] === 'number' ? (u[k] as number) : 0);
  const thoughts = n('thoughtsTokenCount');
  const promptTokens = n('promptTokenCount') + n('toolUsePromptTokenCount');
  const completionTokens = n('candidatesTokenCount') + thoughts;
  if (!promptTokens && !completionTokens) return undefined;
  const usage: Usage = { promptTokens, completionTokens, totalTokens: n('totalTokenCount') || promptTokens + completionTokens };
  const cached = n('cachedContentTokenCount');
  if (cached) usage.cacheReadTokens = cached;
  if (thoughts) usage.reasoningTokens = thoughts;
  return usage;
}

/** What ended a Gemini reply that was not a normal stop (for the error of a malformed call). */
export class MalformedCallError extends Error {}

/**
 * Gemini stream responses as our chunks. Every response carries whole parts; usage is cumulative, so
 * the last one counts. The finish reason, usage and the text's thought signature go out in `finish()`.
 */
export class GeminiStreamDecoder {
  private calls = 0;
  private usage?: Usage | undefined;
  private reason?: string | undefined;
  private textSignature?: string | undefined;
  private started = false;

  decode(res: Record<string, unknown>): MessageChunk | undefined {
    const usage = geminiUsage(res.usageMetadata as Record<string, unknown> | undefined);
    if (usage) this.usage = usage;
    const blocked = (res.promptFeedback as { blockReason?: unknown } | undefined)?.blockReason;
    if (typeof blocked === 'string' && blocked) this.reason = blocked;
    const cand = (res.candidates as Array<Record<string, unknown>> | undefined)?.[0];
    if (typeof cand?.finishReason === 'string') this.reason = cand.finishReason;
    const parts = ((cand?.content as { parts?: Part[] } | undefined)?.parts ?? []) as Part[];
    const out: MessageChunk = this.started ? {} : { role: 'assistant' };
    this.started = true;
    for (const p of parts) {
      const sig = typeof p.thoughtSignature === 'string' && p.thoughtSignature ? p.thoughtSignature : undefined;
      if (p.functionCall && typeof p.functionCall === 'object') {
        const fc = p.functionCall as { name?: unknown; args?: unknown; id?: unknown };
        const id = typeof fc.id === 'string' && fc.id ? fc.id : `${LOCAL_ID}${randomUUID().replace(/-/g, '').slice(0, 16)}`;
        (out.toolCalls ??= []).push({ index: this.calls++, id, function: { name: String(fc.name ?? ''), arguments: JSON.stringify(fc.args ?? {}) }, ...(sig ? { extra: signatureExtra(sig) } : {}) });
      } else if (typeof p.text === 'string') {
        if (p.thought === true) {
          if (p.text) out.reasoningContent = (out.reasoningContent ?? '') + p.text;
        } else {
          if (p.text) out.content = (out.content ?? '') + p.text;
          if (sig) this.textSignature = sig;
        }
      }
    }
    return Object.keys(out).length ? out : undefined;
  }

  /** Whether Gemini said the reply ended (a finish reason, or a blocked prompt). */
  get finished(): boolean {
    return this.reason !== undefined;
  }

  finish(): MessageChunk {
    if (this.reason === 'MALFORMED_FUNCTION_CALL') throw new MalformedCallError('Gemini wrote a malformed function call (finishReason MALFORMED_FUNCTION_CALL)');
    const out: MessageChunk = {};
    if (this.usage) out.usage = this.usage;
    const r = this.reason;
    out.finishReason = r === 'STOP' || r === undefined ? (this.calls ? 'tool_calls' : 'stop') : r === 'MAX_TOKENS' ? 'length' : BLOCKED.has(r) ? 'content_filter' : r.toLowerCase();
    if (this.textSignature) out.providerItems = [{ provider: GOOGLE_PROVIDER, data: { thoughtSignature: this.textSignature } }];
    return out;
  }
}

function parseArgs(args: string): Record<string, unknown> {
  try {
    const v = JSON.parse(args || '{}');
    return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}
