import type { MessageChunk } from '../schema/message.js';
import { StreamRedactor } from '../store/stream-redactor.js';

/**
 * A model stream's text and reasoning deltas with the run's secrets redacted, a secret split across
 * deltas included (StreamRedactor). Done once where chunks are made, so that the REPL, JSON Lines,
 * ACP, serve and every protocol show the same safe text. Tool-call arguments pass untouched: an
 * approved call must run as it was asked (the faces redact them whole when they show them).
 */
export class DeltaRedactor {
  private readonly content: StreamRedactor;
  private readonly reasoning: StreamRedactor;

  private constructor(secrets: readonly string[]) {
    this.content = new StreamRedactor(secrets);
    this.reasoning = new StreamRedactor(secrets);
  }

  /** A redactor for `secrets`, or undefined when there are none (chunks then pass as they are). */
  static of(secrets: readonly string[] | undefined): DeltaRedactor | undefined {
    if (!secrets?.length) return undefined;
    const r = new DeltaRedactor(secrets);
    return r.content.active ? r : undefined;
  }

  chunk(c: MessageChunk): MessageChunk {
    if (c.content === undefined && c.reasoningContent === undefined) return c;
    const out = { ...c };
    if (c.content !== undefined) out.content = this.content.push(c.content);
    if (c.reasoningContent !== undefined) out.reasoningContent = this.reasoning.push(c.reasoningContent);
    return out;
  }

  /** What was held back, as a last chunk (undefined when nothing was). */
  flush(): MessageChunk | undefined {
    const content = this.content.flush();
    const reasoningContent = this.reasoning.flush();
    if (!content && !reasoningContent) return undefined;
    return { ...(content ? { content } : {}), ...(reasoningContent ? { reasoningContent } : {}) };
  }
}
