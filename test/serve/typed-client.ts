import createClient from 'openapi-fetch';
import type { components, paths } from './generated/adk-api.js';

// A client of `adk serve` as a user writes one: openapi-fetch over the types openapi-typescript made
// of /openapi.json. Type-checked (strict) by openapi-client.test.ts; the @ts-expect-error lines fail
// that check if a type is lost (any or unknown accept them all).

export type AdkEvent = components['schemas']['SessionEvent'];
type Pending = components['schemas']['PendingInterrupt'];

/** The events of a turn's stream, each `data:` as a typed event. */
export async function* sessionEvents(body: ReadableStream<Uint8Array>): AsyncIterable<AdkEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buf = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buf += decoder.decode(value, { stream: true });
    let cut: number;
    while ((cut = buf.indexOf('\n\n')) >= 0) {
      const data = buf
        .slice(0, cut)
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trim())
        .join('\n');
      buf = buf.slice(cut + 2);
      if (data) yield JSON.parse(data) as AdkEvent;
    }
  }
}

/** What the full session saw, for the test to check. */
export interface SessionTrace {
  id: string;
  events: Array<AdkEvent['type']>;
  asked: Pending[];
  answered: components['schemas']['RunStatus'];
  cancelled: boolean;
  after: components['schemas']['SessionStatus'];
  resumable: boolean;
}

/** Create a session, stream a message, answer its approval, then start another turn and cancel it. */
export async function fullSession(baseUrl: string, token: string): Promise<SessionTrace> {
  // Answers are read as JSON; a turn's stream is read with parseAs: 'stream'.
  const adk = createClient<paths, `${string}/json`>({ baseUrl, headers: { authorization: `Bearer ${token}` } });
  const created = await adk.POST('/v1/sessions', { body: { title: 'typed client' } });
  if (!created.data) throw new Error(created.error?.error.message);
  const id: string = created.data.id;
  // @ts-expect-error the new session's id is a string
  const notANumber: number = created.data.id;
  void notANumber;

  const turn = await adk.POST('/v1/sessions/{id}/messages', { params: { path: { id } }, body: { content: 'make a.txt' }, parseAs: 'stream' });
  const events: SessionTrace['events'] = [];
  let asked: Pending[] = [];
  for await (const e of sessionEvents(turn.response.body!)) {
    events.push(e.type);
    // The union narrows on `type`: an interrupt event has its interrupts.
    if (e.type === 'interrupt') asked = e.interrupts;
    if (e.type === 'delta') {
      // @ts-expect-error a delta has no interrupts
      const none: Pending[] = e.interrupts;
      void none;
    }
  }

  const answer = await adk.POST('/v1/sessions/{id}/interrupts', { params: { path: { id } }, body: { approve: asked.map((p) => p.id) }, headers: { accept: 'application/json' } });
  if (!answer.data) throw new Error(answer.error?.error.message);
  // @ts-expect-error answers are ids, not booleans
  void adk.POST('/v1/sessions/{id}/interrupts', { params: { path: { id } }, body: { approve: true } });

  const slow = await adk.POST('/v1/sessions/{id}/messages', { params: { path: { id } }, body: { content: 'count slowly' }, parseAs: 'stream' });
  let cancelled = false;
  for await (const e of sessionEvents(slow.response.body!)) {
    // Cancel takes no body.
    if (e.type === 'delta' && !cancelled) cancelled = (await adk.POST('/v1/sessions/{id}/cancel', { params: { path: { id } } })).data?.cancelled ?? false;
    if (e.type === 'done') break;
  }
  const shown = await adk.GET('/v1/sessions/{id}', { params: { path: { id } } });
  if (!shown.data) throw new Error(shown.error?.error.message);
  // @ts-expect-error `active` is not a status word of the API
  const active: typeof shown.data.status = 'active';
  void active;
  return { id, events, asked, answered: answer.data.status, cancelled, after: shown.data.status, resumable: shown.data.resumable };
}
