import { isAbortError } from '../errors.js';
import { ChunkAccumulator, messageToChunk } from './concat.js';
import type { Message, MessageChunk } from './message.js';

const DONE: IteratorResult<MessageChunk> = Object.freeze({ value: undefined, done: true });

/** What the stream and its readers share. */
interface Buffer {
  chunks: MessageChunk[];
  done: boolean;
  failure?: Error | undefined;
  /** Readers that have read everything and wait for the next push or close. */
  waiting: Reader[];
}

/**
 * A streamed message that any number of consumers can read from the start (the UI, the session
 * recorder, the agent loop). Chunks are buffered; each reader has its own cursor.
 */
export class MessageStream implements AsyncIterable<MessageChunk> {
  private buf: Buffer = { chunks: [], done: false, waiting: [] };
  private acc = new ChunkAccumulator();
  private whole?: Promise<Message> | undefined;
  /** Set on the view `endingOnCancel` returns: its readers stop quietly where a cancel cut the stream. */
  private quietOnCancel = false;

  push(chunk: MessageChunk): void {
    const b = this.buf;
    if (b.done) return;
    b.chunks.push(chunk);
    this.acc.add(chunk);
    if (b.waiting.length) wakeAll(b);
  }

  close(error?: Error): void {
    const b = this.buf;
    if (b.done) return;
    b.done = true;
    b.failure = error;
    wakeAll(b);
  }

  get closed(): boolean {
    return this.buf.done;
  }

  get error(): Error | undefined {
    return this.buf.failure;
  }

  /** The message as received so far, without waiting. */
  snapshot(): Message {
    return this.acc.message();
  }

  /** The whole message once the stream ends; rejects if the stream failed (a cancelled one too). */
  collect(): Promise<Message> {
    this.whole ??= (async () => {
      for await (const _ of this);
      if (this.buf.failure) throw this.buf.failure;
      return this.acc.message();
    })();
    return this.whole;
  }

  /**
   * The same stream as the caller of a run reads it (the events a RunStream hands out carry this
   * view): when the run is cancelled mid-message, reading it ends where the cancel cut it instead of
   * throwing CancelledError, as a cancelled streamed run ends in openai-agents-js. `error` still
   * holds the CancelledError and `collect()` still rejects (the message never finished); any other
   * failure (a retried attempt's WillRetryError, a model error) throws as before.
   */
  endingOnCancel(): MessageStream {
    if (this.quietOnCancel) return this;
    const view = new MessageStream();
    view.buf = this.buf;
    view.acc = this.acc;
    view.quietOnCancel = true;
    return view;
  }

  [Symbol.asyncIterator](): AsyncIterator<MessageChunk> {
    return new Reader(this.buf, this.quietOnCancel);
  }

  static fromMessage(message: Message): MessageStream {
    const s = new MessageStream();
    s.push(messageToChunk(message));
    s.close();
    return s;
  }
}

function wakeAll(b: Buffer): void {
  const w = b.waiting;
  // Usually one reader waits: pop() is much cheaper than emptying the array by length.
  if (w.length === 1) return w.pop()!.wake();
  b.waiting = [];
  for (const r of w) r.wake();
}

/**
 * A hand-written iterator: an async generator costs several extra promise hops per chunk. A reader
 * that has caught up parks one promise, which the next push or close settles directly.
 */
class Reader implements AsyncIterator<MessageChunk> {
  private i = 0;
  private resolve?: ((r: IteratorResult<MessageChunk>) => void) | undefined;
  private reject?: ((e: Error) => void) | undefined;

  constructor(
    private readonly buf: Buffer,
    /** A cancel ends this reader quietly (see MessageStream.endingOnCancel). */
    private readonly quietOnCancel = false,
  ) {}

  /** The failure this reader throws at the end, if any. */
  private get failure(): Error | undefined {
    const f = this.buf.failure;
    return f && this.quietOnCancel && isAbortError(f) ? undefined : f;
  }

  next(): Promise<IteratorResult<MessageChunk>> {
    const b = this.buf;
    if (this.i < b.chunks.length) return Promise.resolve({ value: b.chunks[this.i++], done: false });
    if (b.done) return this.failure ? Promise.reject(this.failure) : Promise.resolve(DONE);
    return new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
      b.waiting.push(this);
    });
  }

  return(): Promise<IteratorResult<MessageChunk>> {
    return Promise.resolve(DONE);
  }

  wake(): void {
    const { resolve, reject, buf: b } = this;
    this.resolve = this.reject = undefined;
    if (this.i < b.chunks.length) resolve!({ value: b.chunks[this.i++], done: false });
    else if (this.failure) reject!(this.failure);
    else resolve!(DONE);
  }
}
