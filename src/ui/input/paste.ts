/** Bracketed paste markers as Ink hands them over (the leading ESC is stripped). */
export const PASTE_START = '[200~';
export const PASTE_END = '[201~';

/** Turns the terminal's bracketed paste mode on or off (the CLI calls this around the app). */
export function bracketedPasteMode(on: boolean): string {
  return on ? '\u001B[?2004h' : '\u001B[?2004l';
}

/** Lines of a text as a person counts them: a final line break ends the last line, it starts none (300 copied lines are 300). */
export const lineCount = (text: string) => text.replace(/\n$/, '').split('\n').length;

/**
 * Large pastes are shown as a `[Pasted text #1 +300 lines]` placeholder (as Claude Code labels
 * them); the full text is kept here and put back when the input is submitted, while the
 * transcript keeps showing the label (`shown`).
 */
export class PasteStore {
  private readonly pastes = new Map<string, string>();
  /** Numbers pastes across messages, so each label stays unique in the transcript too. */
  private count = 0;

  /** The placeholder for `text` (unique within this store). */
  add(text: string): string {
    const token = `[Pasted text #${++this.count} +${lineCount(text)} lines]`;
    this.pastes.set(token, text);
    return token;
  }

  /** The placeholder that `before` ends with, if any (so Backspace removes it whole). */
  tokenAtEnd(before: string): string | undefined {
    for (const token of this.pastes.keys()) if (before.endsWith(token)) return token;
    return undefined;
  }

  expand(text: string): string {
    let out = text;
    for (const [token, content] of this.pastes) out = out.split(token).join(content);
    return out;
  }

  clear(): void {
    this.pastes.clear();
  }
}
