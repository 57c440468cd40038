/**
 * Collects actions and hands them over at most once per frame, so a stream of tokens costs one
 * render per frame instead of one per token.
 */
export class FrameBatcher<A> {
  private queue: A[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastFlush = 0;

  constructor(
    private readonly apply: (actions: A[]) => void,
    private readonly intervalMs: number,
    private readonly coalesce: (actions: A[]) => A[] = (x) => x,
  ) {}

  push(action: A): void {
    this.queue.push(action);
    if (this.timer) return;
    const wait = Math.max(0, this.intervalMs - (Date.now() - this.lastFlush));
    this.timer = setTimeout(() => this.flush(), wait);
  }

  /** Hands over everything queued now (user actions should not wait for the next frame). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.lastFlush = Date.now();
    if (!this.queue.length) return;
    const actions = this.coalesce(this.queue);
    this.queue = [];
    this.apply(actions);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.queue = [];
  }
}
