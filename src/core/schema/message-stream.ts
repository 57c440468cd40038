import { ChunkAccumulator, messageToChunk } from './concat.js';
import type { Message, MessageChunk } from './message.js';

const DONE: IteratorResult<MessageChunk> = Object.freeze({ value: undefined, done: true });

/**
 * A streamed message that any number of consumers can read from the start (the UI, the session
 * recorder, the agent loop). Chunks are buffered; each reader has its own cursor.
 */
export class MessageStream implements AsyncIterable<MessageChunk> {
  private chunks: MessageChunk[] = [];
  private acc = new ChunkAccumulator();
  private done = false;
  private failure?: Error;
  private wake: Array<() => void> = [];
  private whole?: Promise<Message>;

  push(chunk: MessageChunk): void {
    if (this.done) return;
    this.chunks.push(chunk);
    this.acc.add(chunk);
    if (this.wake.length) this.notify();
  }

  close(error?: Error): void {
    if (this.done) return;
    this.done = true;
    this.failure = error;
    this.notify();
  }

  get closed(): boolean {
    return this.done;
  }

  get error(): Error | undefined {
    return this.failure;
  }

  /** The message as received so far, without waiting. */
  snapshot(): Message {
    return this.acc.message();
  }

  /** The whole message once the stream ends; rejects if the stream failed. */
  collect(): Promise<Message> {
    this.whole ??= (async () => {
      for await (const _ of this);
      return this.acc.message();
    })();
    return this.whole;
  }

  // A hand-written iterator: an async generator costs several extra promise hops per chunk. A
  // reader that has caught up waits on one promise, settled directly by the next push or close.
  [Symbol.asyncIterator](): AsyncIterator<MessageChunk> {
    let i = 0;
    const next = (): Promise<IteratorResult<MessageChunk>> => {
      if (i < this.chunks.length) return Promise.resolve({ value: this.chunks[i++], done: false });
      if (this.done) return this.failure ? Promise.reject(this.failure) : Promise.resolve(DONE);
      return new Promise<IteratorResult<MessageChunk>>((resolve, reject) => {
        this.wake.push(() => {
          if (i < this.chunks.length) resolve({ value: this.chunks[i++], done: false });
          else if (this.failure) reject(this.failure);
          else resolve(DONE);
        });
      });
    };
    return { next, return: () => Promise.resolve(DONE) };
  }

  static fromMessage(message: Message): MessageStream {
    const s = new MessageStream();
    s.chunks.push(messageToChunk(message));
    s.acc.add(s.chunks[0]);
    s.done = true;
    return s;
  }

  private notify(): void {
    const w = this.wake;
    this.wake = [];
    for (const f of w) f();
  }
}
