/**
 * Unbounded FIFO with one async consumer. Producers never block, so an agent can keep emitting
 * while a slow UI reads. Items pushed before `close()` are still delivered.
 */
export class AsyncQueue<T> implements AsyncIterable<T> {
  private items: T[] = [];
  private head = 0;
  private closed = false;
  /** The consumer's pending read, when it has caught up. */
  private waiter?: ((r: IteratorResult<T>) => void) | undefined;

  push(item: T): boolean {
    if (this.closed) return false;
    const w = this.waiter;
    if (w) {
      // The consumer is waiting, so nothing is buffered: hand the item over directly.
      this.waiter = undefined;
      w({ value: item, done: false });
    } else this.items.push(item);
    return true;
  }

  close(): void {
    this.closed = true;
    const w = this.waiter;
    this.waiter = undefined;
    w?.({ value: undefined, done: true });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  // A hand-written iterator: an async generator costs extra promise hops per item. An iterator
  // that was returned (a `break` out of for-await) reads nothing more; the items stay queued.
  [Symbol.asyncIterator](): AsyncIterator<T> {
    let stopped = false;
    return {
      next: () => {
        if (stopped) return Promise.resolve({ value: undefined, done: true });
        if (this.head < this.items.length) return Promise.resolve({ value: this.take(), done: false });
        if (this.closed) return Promise.resolve({ value: undefined, done: true });
        return new Promise<IteratorResult<T>>((resolve) => (this.waiter = resolve));
      },
      return: () => {
        stopped = true;
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }

  private take(): T {
    const item = this.items[this.head];
    this.items[this.head++] = undefined as T;
    // Compact occasionally so a long run does not keep every consumed slot alive.
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
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
