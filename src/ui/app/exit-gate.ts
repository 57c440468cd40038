/** How long a first Ctrl-C keeps the door open for a second one to exit. */
export const EXIT_WINDOW_MS = 2000;

/**
 * The double-press rule: the first press only arms the gate; a second press within the window
 * exits. An accidental Ctrl-C (a copy habit) never loses the session.
 */
export class ExitGate {
  private armedAt: number | undefined;

  constructor(private readonly windowMs = EXIT_WINDOW_MS, private readonly now: () => number = Date.now) {}

  press(): 'armed' | 'exit' {
    const t = this.now();
    if (this.armedAt !== undefined && t - this.armedAt <= this.windowMs) {
      this.armedAt = undefined;
      return 'exit';
    }
    this.armedAt = t;
    return 'armed';
  }

  get armed(): boolean {
    return this.armedAt !== undefined && this.now() - this.armedAt <= this.windowMs;
  }

  reset(): void {
    this.armedAt = undefined;
  }
}
