import { randomInt } from 'node:crypto';
import type { Message, MessageChunk } from '../schema/message.js';

const SAFE_ID = /^[A-Za-z0-9_.-]{1,64}$/;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/**
 * The tool-call ids of one run. Providers repeat ids, send "" or none at all; interrupt
 * addresses, approvals, results and the history all key on the id, so a repeated one could move
 * an approval onto another call. Every call gets an id that is unique in the run: the provider's
 * own when it is new (so it goes back to the provider unchanged), else a fresh one.
 */
export class CallIds {
  private readonly used = new Set<string>();

  /** Ids already in a conversation (earlier turns, a resumed run's messages) are never handed out again. */
  reserve(messages: readonly Message[]): void {
    for (const m of messages) {
      for (const c of m.toolCalls ?? []) this.used.add(c.id);
      if (m.toolCallId) this.used.add(m.toolCallId);
    }
  }

  claim(providerId: string | undefined): string {
    // Ids become parts of interrupt addresses (`agent:a;tool:shell:<id>`): only plain ones are kept.
    let id = providerId && SAFE_ID.test(providerId) && !this.used.has(providerId) ? providerId : '';
    while (!id || this.used.has(id)) id = `call_${randomId(16)}`;
    this.used.add(id);
    return id;
  }

  /** Rewrites a whole message's call ids (non-streaming replies). */
  assign(message: Message): Message {
    if (!message.toolCalls?.length) return message;
    return { ...message, toolCalls: message.toolCalls.map((c) => withProviderId({ ...c, id: this.claim(c.id) }, c.id)) };
  }

  /** Rewrites the call ids of one streamed attempt's chunks: the first delta of each call carries its id. */
  streamAssigner(): (chunk: MessageChunk) => MessageChunk {
    const byIndex = new Map<number, string>();
    return (chunk) => {
      if (!chunk.toolCalls?.length) return chunk;
      const toolCalls = chunk.toolCalls.map((d) => {
        const known = byIndex.get(d.index);
        if (known !== undefined) return d.id === undefined ? d : { ...d, id: undefined };
        const id = this.claim(d.id);
        byIndex.set(d.index, id);
        return d.id && d.id !== id ? { ...d, id, providerId: d.id } : { ...d, id };
      });
      return { ...chunk, toolCalls };
    };
  }
}

function withProviderId<T extends { id: string; providerId?: string }>(c: T, providerId: string): T {
  if (providerId && providerId !== c.id) c.providerId = providerId;
  return c;
}

function randomId(n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += ALPHABET[randomInt(ALPHABET.length)];
  return s;
}
