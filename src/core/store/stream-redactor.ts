import { foldCase, needlesOf, redactString } from './redact.js';

/**
 * Redacts text that arrives in pieces (a model's streamed deltas). Redacting each piece alone lets a
 * secret split across two of them through whole; this holds back the end of the text while it could
 * still be the start of a secret (in any form redactSecrets knows), at most the longest form's length,
 * and lets it go once the next piece shows it is not, or redacted once it is. `flush` ends the stream.
 */
export class StreamRedactor {
  private held = '';
  private readonly needles: readonly string[];

  constructor(secrets: readonly string[]) {
    this.needles = needlesOf(secrets);
  }

  /** Whether there is anything to look for (no secrets: pieces pass as they are). */
  get active(): boolean {
    return this.needles.length > 0;
  }

  /** What of the text so far can be shown now, redacted. */
  push(piece: string): string {
    if (!this.active) return piece;
    const text = this.held + piece;
    const cut = this.safeEnd(text);
    this.held = text.slice(cut);
    return redactString(text.slice(0, cut), this.needles);
  }

  /** The rest, redacted: the stream has ended. */
  flush(): string {
    const rest = this.held;
    this.held = '';
    return rest && redactString(rest, this.needles);
  }

  /**
   * Where the text may be cut: before the longest ending that begins some form of a secret, and before
   * any whole form that would be cut in two by that point.
   */
  private safeEnd(text: string): number {
    const folded = foldCase(text);
    let cut = text.length;
    for (const n of this.needles) {
      // Only where the form's first character stands can it begin; those are few.
      for (let at = folded.indexOf(n[0]!, Math.max(0, text.length - n.length + 1)); at >= 0 && at < cut; at = folded.indexOf(n[0]!, at + 1)) {
        if (n.startsWith(folded.slice(at))) {
          cut = at;
          break;
        }
      }
    }
    // A whole form that starts before the cut and ends after it is held back whole.
    for (let moved = true; moved; ) {
      moved = false;
      for (const n of this.needles) {
        for (let at = folded.indexOf(n, Math.max(0, cut - n.length + 1)); at >= 0 && at < cut; at = folded.indexOf(n, at + 1)) {
          if (at + n.length > cut) {
            cut = at;
            moved = true;
          }
        }
      }
    }
    return cut;
  }
}
