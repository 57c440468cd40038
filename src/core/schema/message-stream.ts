import { ChunkAccumulator, messageToChunk } from './concat.js';
import type { Message, MessageChunk } from './message.js';

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
    this.notify();
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

  // A hand-written iterator: an async generator costs several extra promise hops per chunk.
  [Symbol.asyncIterator](): AsyncIterator<MessageChunk> {
    let i = 0;
    const next = (): Promise<IteratorResult<MessageChunk>> => {
      if (i < this.chunks.length) return Promise.resolve({ value: this.chunks[i++], done: false });
      if (this.done) return this.failure ? Promise.reject(this.failure) : Promise.resolve({ value: undefined, done: true });
      return new Promise<void>((resolve) => this.wake.push(resolve)).then(next);
    };
    return { next, return: () => Promise.resolve({ value: undefined, done: true }) };
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
