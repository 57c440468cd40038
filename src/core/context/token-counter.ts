import type { Message } from '../schema/message.js';
import { estimatePromptTokens } from '../models/token-estimate.js';
import type { ToolInfo } from '../tools/tool.js';

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

  /** A reply's reported prompt tokens for a request estimated at `estimated` (reported usage only). */
  observe(estimated: number, reported: number): void {
    if (estimated < 200 || reported <= 0) return; // too small to learn from
    const seen = reported / estimated;
    this.ratio = Math.max(1, Math.min(3, this.ratio * 0.5 + seen * 0.5));
  }
}
