import type { Message } from '../schema/message.js';
import { estimatePromptTokens } from '../models/token-estimate.js';
import type { ToolInfo } from '../tools/tool-info.js';

/**
 * Counts a request's tokens before it is sent: the tokenizer's estimate, corrected by what the
 * provider reported for earlier requests of the same model (never below the estimate: counting
 * too few is what overflows a window).
 */
export class TokenCounter {
  private ratio = 1;

  constructor(readonly modelName: string) {}

  async count(messages: readonly Message[], tools?: readonly ToolInfo[]): Promise<number> {
    return Math.ceil((await estimatePromptTokens(this.modelName, messages, tools)) * this.ratio);
  }

  /**
   * Whether the request may pass `limit` tokens. A token is at least one byte, so a byte count
   * settles most requests without loading the tokenizer (a few hundred ms) or tokenizing the context.
   */
  async exceeds(messages: readonly Message[], tools: readonly ToolInfo[] | undefined, limit: number): Promise<boolean> {
    if (upperBound(messages, tools) * FAMILY_MAX * this.ratio <= limit) return false;
    return (await this.count(messages, tools)) > limit;
  }

  /** A reply's reported prompt tokens for a request estimated at `estimated` (reported usage only). */
  observe(estimated: number, reported: number): void {
    if (estimated < 200 || reported <= 0) return; // too small to learn from
    const seen = reported / estimated;
    this.ratio = Math.max(1, Math.min(3, this.ratio * 0.5 + seen * 0.5));
  }
}

/** The largest family factor estimatePromptTokens applies. */
const FAMILY_MAX = 1.1;

/** Tokens the request cannot exceed: its bytes, plus the per-message overhead. */
function upperBound(messages: readonly Message[], tools: readonly ToolInfo[] | undefined): number {
  let n = tools?.length ? Buffer.byteLength(JSON.stringify(tools)) : 0;
  for (const m of messages) {
    n += 4 + Buffer.byteLength(m.content) + (m.reasoningContent ? Buffer.byteLength(m.reasoningContent) : 0);
    for (const c of m.toolCalls ?? []) n += Buffer.byteLength(c.function.name) + Buffer.byteLength(c.function.arguments);
  }
  return n;
}
