/**
 * Whether the terminal speaks the kitty keyboard protocol, asked once at adk chat's first moment.
 *
 * Ink can ask itself, but gives the answer 200 ms; a REPL busy starting (loading the team, the
 * bundle) on a loaded machine read it late, so the protocol stayed off at random. Here the
 * question goes out with the startup-key reader already listening, followed by the Primary Device
 * Attributes query that every terminal answers: the kitty answer, if any, comes before that one,
 * so no timer decides (kitty's own docs recommend this pair). A terminal that answers neither is
 * given QUIET_MS.
 */

/** The kitty query (`CSI ? u`) and Primary Device Attributes (`CSI c`). */
export const KITTY_QUERY = '\u001B[?u\u001B[c';
/** A terminal that answers nothing at all is taken not to speak the protocol after this long. */
export const QUIET_MS = 2000;

// `CSI ? flags u` (kitty) and `CSI ? params c` (DA1); nothing a person types starts with `ESC [ ?`.
const ANSWER = /\u001B\[\?(\d*)u|\u001B\[\?[\d;]*c/g;
// An answer cut off at the end of a read: kept until the next read completes it.
const PARTIAL = /\u001B(\[(\?[\d;]*)?)?$/;

/** Terminals known to speak the protocol (Ink's own list); only these are asked. */
export function mayAnswerKitty(env: NodeJS.ProcessEnv = process.env): boolean {
  return 'KITTY_WINDOW_ID' in env || env.TERM === 'xterm-kitty' || env.TERM_PROGRAM === 'WezTerm' || env.TERM_PROGRAM === 'ghostty';
}

/** Reads the two answers out of the bytes typed at startup; what the person typed is passed on untouched. */
export class KittyAnswers {
  private pending = '';
  private kitty = false;
  private done = false;
  private readonly waiting: Array<(kitty: boolean) => void> = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(quietMs = QUIET_MS) {
    this.timer = setTimeout(() => this.finish(), quietMs);
    this.timer.unref();
  }

  /** Takes one read from stdin; returns the bytes that were not an answer (held back: a possible answer's start). */
  take(bytes: Buffer): Buffer {
    if (this.done) return Buffer.concat([this.leftover(), bytes]);
    const text = this.pending + bytes.toString('latin1');
    let rest = text.replace(ANSWER, (whole, flags: string | undefined) => {
      if (flags !== undefined) this.kitty = true;
      else this.finish();
      return '';
    });
    // The kitty answer alone settles it: no need to wait for the second one.
    if (this.kitty) this.finish();
    const partial = this.done ? null : PARTIAL.exec(rest);
    this.pending = partial ? partial[0] : '';
    if (partial) rest = rest.slice(0, partial.index);
    return Buffer.from(rest, 'latin1');
  }

  /** Bytes held back as a possible answer's start; given back when the reading ends. */
  leftover(): Buffer {
    const left = Buffer.from(this.pending, 'latin1');
    this.pending = '';
    return left;
  }

  /** Resolves once the terminal has answered (or stayed quiet QUIET_MS). */
  supported(): Promise<boolean> {
    return this.done ? Promise.resolve(this.kitty) : new Promise((resolve) => this.waiting.push(resolve));
  }

  private finish(): void {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.timer);
    for (const resolve of this.waiting.splice(0)) resolve(this.kitty);
  }
}
