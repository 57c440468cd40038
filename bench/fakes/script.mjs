// The one reply script every fake model plays, so each runtime gets the same work.
// A reply: { chunks?: string[], toolCall?: { name, args }, delayMs?: number }.
import { setTimeout as sleep } from 'node:timers/promises';

export { sleep };

/** A call counter the benchmark resets before each run, so one agent/graph can be reused. */
export class Script {
  constructor(next) {
    this.next = next;
    this.call = 0;
  }
  take() {
    return this.next(this.call++);
  }
  reset() {
    this.call = 0;
  }
}

export const textReply = (chunks) => ({ chunks });
export const toolReply = (name, args = {}, id) => ({ toolCall: { name, args, id } });

const cache = new Map();
/** ~4-character pieces, like the tokens of a real stream. Built once per size, outside the timings. */
export function pieces(n) {
  let p = cache.get(n);
  if (!p) cache.set(n, (p = Object.freeze(Array.from({ length: n }, (_, i) => `w${i % 10}x `.slice(0, 4)))));
  return p;
}
