/** What the page asks `adk serve`; the session id lives in the URL hash (#s=<id>), so a reload keeps it. */

export interface SessionSummary {
  id: string;
  title?: string;
  agent?: string;
  status?: string;
  /** A stopped turn (cancelled at a safe point, or waiting on a person) can be continued. */
  resumable?: boolean;
  updatedAt?: string;
}

export interface PendingInterrupt {
  id: string;
  kind: string;
  tool?: string;
  callId?: string;
  arguments?: unknown;
  message?: string;
  plan?: string[];
  /** What the call would change, as a unified diff (write_file, edit_file). */
  diff?: string;
  /** The tool asks before every call here (shell without its sandbox): "always allow" would not apply. */
  alwaysAsks?: boolean;
  /** A budget reached (kind `budget`): which, what was spent, and its limit. */
  budget?: { name: string; spent: number; limit: number };
}

export interface Todo {
  content: string;
  status: string;
  activeForm?: string;
}

/** An image or PDF of a saved message, as the API lists it: without its bytes. */
export interface PartInfo {
  type: 'image' | 'file';
  mimeType: string;
  name?: string;
  size: number;
  hash: string;
}

/** An image or PDF as `POST …/messages` takes it. */
export interface MessagePartBody {
  type: 'image' | 'file';
  mimeType: string;
  name: string;
  /** The bytes, base64. */
  data: string;
}

export interface SavedMessage {
  role: string;
  content: string;
  parts?: PartInfo[];
  agentName?: string;
  toolName?: string;
  toolCallId?: string;
  isError?: boolean;
  reasoningContent?: string;
  toolCalls?: Array<{ id: string; function: { name: string; arguments: string } }>;
}

export interface SessionView {
  id: string;
  title: string;
  agent: string;
  status: string;
  messages: SavedMessage[];
  /** The messages of a stopped turn (waiting on a person, or cancelled) so far. */
  pendingTurn?: SavedMessage[];
  pending: PendingInterrupt[];
  todos?: Todo[];
  lastEventId: number;
  turnFrom: number;
}

/** A root agent of the agents file: a team a session can be started with. */
export interface Team {
  name: string;
  type: string;
}

export type AdkEvent = { type: string; agent?: string; runPath?: string[]; [k: string]: unknown };

/** A server started with ADK_SERVE_TOKEN wants it on every request; the page keeps it for this tab only. */
const TOKEN_KEY = 'adk-serve-token';
export const token = {
  get: (): string | null => sessionStorage.getItem(TOKEN_KEY),
  set: (value: string) => sessionStorage.setItem(TOKEN_KEY, value),
  clear: () => sessionStorage.removeItem(TOKEN_KEY),
};

// The address `adk serve` prints carries the token in its fragment (`/#token=…`, never sent to a
// server): kept for this tab, then taken out of the address bar and the history.
const fragment = new URLSearchParams(location.hash.slice(1));
const fromUrl = fragment.get('token');
if (fromUrl) {
  token.set(fromUrl);
  fragment.delete('token');
  const rest = fragment.toString();
  history.replaceState(null, '', `${location.pathname}${location.search}${rest ? `#${rest}` : ''}`);
}

/** The server refused the request for want of the right token. */
export class NeedsTokenError extends Error {
  constructor() {
    super('this server needs its access token (ADK_SERVE_TOKEN)');
  }
}

function headers(extra: Record<string, string> = {}): Record<string, string> {
  const t = token.get();
  return { ...extra, ...(t ? { authorization: `Bearer ${t}` } : {}) };
}

async function call<T>(path: string, { json, bare, ...init }: RequestInit & { json?: unknown; bare?: boolean } = {}): Promise<T> {
  const res = await fetch(path, {
    ...init,
    headers: headers({ accept: 'application/json', ...(json !== undefined || (init.method === 'POST' && !bare) ? { 'content-type': 'application/json' } : {}) }),
    body: json !== undefined ? JSON.stringify(json) : undefined,
  });
  if (res.status === 401) throw new NeedsTokenError();
  if (!res.ok) {
    const body = (await res.json().catch(() => ({}))) as { error?: { message?: string } };
    throw new Error(body.error?.message ?? `${res.status} ${res.statusText}`);
  }
  return (res.status === 204 ? undefined : await res.json()) as T;
}

export const api = {
  sessions: () => call<{ sessions: SessionSummary[] }>('/v1/sessions').then((r) => r.sessions.filter((s) => s.id)),
  agents: () => call<{ default: string; teams: Team[] }>('/v1/agents'),
  create: (agent?: string) => call<{ id: string }>('/v1/sessions', { method: 'POST', json: agent ? { agent } : {} }),
  session: (id: string) => call<SessionView>(`/v1/sessions/${id}`),
  send: (id: string, content: string, parts: MessagePartBody[] = []) => call(`/v1/sessions/${id}/messages`, { method: 'POST', json: parts.length ? { content, parts } : { content } }),
  answer: (id: string, targets: Record<string, unknown>) => call(`/v1/sessions/${id}/interrupts`, { method: 'POST', json: { targets } }),
  /** Continues a turn cancelled at a safe point (nothing to answer). */
  resume: (id: string) => call(`/v1/sessions/${id}/interrupts`, { method: 'POST', json: {} }),
  always: (id: string, interruptId: string) => call(`/v1/sessions/${id}/interrupts`, { method: 'POST', json: { always: [interruptId] } }),
  // No body, so no content type: the server takes a bare POST here.
  cancel: (id: string) => call(`/v1/sessions/${id}/cancel`, { method: 'POST', bare: true }),
};

/** Wait before reconnecting a dropped event stream. */
const RECONNECT_MS = 1000;

/**
 * The session's events from `after` on, live. Read with fetch rather than EventSource, which cannot
 * send the token; a dropped stream reconnects from the last event seen (Last-Event-ID), as
 * EventSource would.
 */
export function watch(id: string, after: number, onEvent: (e: AdkEvent) => void, onError: (e: Error) => void = () => {}): () => void {
  const stop = new AbortController();
  let last = after;
  void (async () => {
    while (!stop.signal.aborted) {
      try {
        const res = await fetch(`/v1/sessions/${id}/events`, { headers: headers({ accept: 'text/event-stream', 'last-event-id': String(last) }), signal: stop.signal });
        if (res.status === 401) throw new NeedsTokenError();
        if (!res.ok || !res.body) throw new Error(`${res.status} ${res.statusText}`);
        for await (const e of sseEvents(res.body)) {
          if (e.id !== undefined) last = e.id;
          onEvent(e.event);
        }
      } catch (e) {
        if (stop.signal.aborted) return;
        if (e instanceof NeedsTokenError) return onError(e);
      }
      await new Promise((r) => setTimeout(r, RECONNECT_MS));
    }
  })();
  return () => stop.abort();
}

/** Server-sent events of a response body: each `data:` parsed, with its `id:`. */
async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncIterable<{ id?: number; event: AdkEvent }> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buf = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buf += decoder.decode(value, { stream: true });
    let cut: number;
    while ((cut = buf.indexOf('\n\n')) >= 0) {
      const block = buf.slice(0, cut);
      buf = buf.slice(cut + 2);
      let data = '';
      let id: number | undefined;
      for (const line of block.split('\n')) {
        if (line.startsWith('data:')) data += line.slice(5).replace(/^ /, '');
        else if (line.startsWith('id:')) id = Number(line.slice(3).trim());
      }
      if (data) yield { id, event: JSON.parse(data) as AdkEvent };
    }
  }
}
