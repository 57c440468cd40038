/**
 * Unbounded FIFO with one async consumer. Producers never block, so an agent can keep emitting
 * while a slow UI reads. Items pushed before `close()` are still delivered.
 */
export class AsyncQueue<T> implements AsyncIterable<T> {
  private items: T[] = [];
  private head = 0;
  private closed = false;
  private waiter?: () => void;

  push(item: T): boolean {
    if (this.closed) return false;
    this.items.push(item);
    this.waiter?.();
    return true;
  }

  close(): void {
    this.closed = true;
    this.waiter?.();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for (;;) {
      if (this.head < this.items.length) {
        const item = this.items[this.head];
        this.items[this.head++] = undefined as T;
        // Compact occasionally so a long run does not keep every consumed slot alive.
        if (this.head > 1024 && this.head * 2 > this.items.length) {
          this.items = this.items.slice(this.head);
          this.head = 0;
        }
        yield item;
        continue;
      }
      if (this.closed) return;
      await new Promise<void>((resolve) => (this.waiter = resolve));
      this.waiter = undefined;
    }
  }
}

/** Runs `producer` in the background and returns its pushed items as an iterable. */
export function generate<T>(producer: (emit: (item: T) => void) => Promise<void>, onError: (e: unknown) => T): AsyncIterable<T> {
  const q = new AsyncQueue<T>();
  void producer((item) => q.push(item))
    .catch((e) => q.push(onError(e)))
    .finally(() => q.close());
  return q;
}
