/** What the page asks `adk serve`; the session id lives in the URL hash (#s=<id>), so a reload keeps it. */

export interface SessionSummary {
  id: string;
  title?: string;
  status?: string;
  updatedAt?: string;
}

export interface PendingInterrupt {
  id: string;
  kind: string;
  tool?: string;
  arguments?: unknown;
  message?: string;
  plan?: string[];
}

export interface SessionView {
  id: string;
  title: string;
  agent: string;
  status: string;
  messages: Array<{ role: string; content: string; agentName?: string; toolName?: string; toolCallId?: string; toolCalls?: Array<{ id: string; function: { name: string; arguments: string } }> }>;
  pending: PendingInterrupt[];
  lastEventId: number;
  turnFrom: number;
}

export type AdkEvent = { type: string; agent?: string; runPath?: string[]; [k: string]: unknown };

async function call<T>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> {
  const res = await fetch(path, {
    ...init,
    headers: { accept: 'application/json', ...(init.json !== undefined || init.method === 'POST' ? { 'content-type': 'application/json' } : {}) },
    body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
  });
  if (!res.ok) {
    const body = (await res.json().catch(() => ({}))) as { error?: { message?: string } };
    throw new Error(body.error?.message ?? `${res.status} ${res.statusText}`);
  }
  return (res.status === 204 ? undefined : await res.json()) as T;
}

export const api = {
  sessions: () => call<{ sessions: SessionSummary[] }>('/v1/sessions').then((r) => r.sessions.filter((s) => s.id)),
  create: () => call<{ id: string }>('/v1/sessions', { method: 'POST', json: {} }),
  session: (id: string) => call<SessionView>(`/v1/sessions/${id}`),
  send: (id: string, content: string) => call(`/v1/sessions/${id}/messages`, { method: 'POST', json: { content } }),
  answer: (id: string, targets: Record<string, unknown>) => call(`/v1/sessions/${id}/interrupts`, { method: 'POST', json: { targets } }),
  cancel: (id: string) => call(`/v1/sessions/${id}/cancel`, { method: 'POST' }),
};

/** The session's events from `after` on, live; EventSource reconnects with Last-Event-ID by itself. */
export function watch(id: string, after: number, onEvent: (e: AdkEvent) => void): () => void {
  const source = new EventSource(`/v1/sessions/${id}/events?after=${after}`);
  const types = ['session', 'delta', 'thought', 'message', 'tool_call', 'tool_result', 'transfer', 'retry', 'error', 'compaction', 'todos', 'interrupt', 'done'];
  for (const t of types) source.addEventListener(t, (m) => onEvent(JSON.parse((m as MessageEvent<string>).data) as AdkEvent));
  return () => source.close();
}
