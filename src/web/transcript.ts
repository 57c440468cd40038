import type { AdkEvent, PartInfo, SessionView, Todo } from './api.js';

/** An image or PDF on the person's message; `url`: an image's bytes, when this page sent it. */
export type ShownPart = Omit<PartInfo, 'hash'> & { hash?: string | undefined; url?: string | undefined };

export type ToolStatus = 'running' | 'done' | 'error';

/** One row of the page's transcript. */
export type Item =
  /** `local`: sent from this page and not yet seen in the saved history. */
  | { kind: 'user'; text: string; parts?: ShownPart[]; local?: boolean }
  | { kind: 'assistant'; agent: string; lane: string; text: string; reasoning: string; done: boolean }
  | { kind: 'tool'; agent: string; id: string; name: string; args: unknown; status: ToolStatus; result?: string; startedAt?: number; endedAt?: number }
  | { kind: 'note'; text: string; tone: 'muted' | 'error' };

type Assistant = Extract<Item, { kind: 'assistant' }>;
type ToolItem = Extract<Item, { kind: 'tool' }>;

export interface ViewState {
  /** The session these rows belong to. */
  session?: string | undefined;
  items: Item[];
  /** The run path of the latest event: the live transfer path. */
  path: string[];
  running: boolean;
  todos: Todo[];
}

export const emptyView: ViewState = { items: [], path: [], running: false, todos: [] };

const laneOf = (e: AdkEvent) => (e.runPath ?? []).join('/') || String(e.agent ?? '');

/** The saved history as rows (a reload, an older session). */
export function fromHistory(s: Pick<SessionView, 'id' | 'messages' | 'status' | 'todos'>): ViewState {
  const items: Item[] = [];
  for (const m of s.messages) {
    if (m.role === 'user' && !m.agentName) items.push({ kind: 'user', text: m.content, ...(m.parts?.length ? { parts: m.parts } : {}) });
    else if (m.role === 'assistant') {
      if (m.content || m.reasoningContent) items.push({ kind: 'assistant', agent: m.agentName ?? '', lane: m.agentName ?? '', text: m.content, reasoning: m.reasoningContent ?? '', done: true });
      for (const c of m.toolCalls ?? []) items.push({ kind: 'tool', agent: m.agentName ?? '', id: c.id, name: c.function.name, args: parse(c.function.arguments), status: 'running' });
    } else if (m.role === 'tool') {
      const i = items.findIndex((x) => x.kind === 'tool' && x.id === m.toolCallId);
      if (i >= 0) items[i] = { ...(items[i] as ToolItem), status: m.isError ? 'error' : 'done', result: m.content };
    }
  }
  return { session: s.id, items, path: [], running: s.status === 'running', todos: s.todos ?? [] };
}

/**
 * The saved history of `next.session` replaces the rows; messages this page sent that the history
 * does not have yet (it was read before the server saved them) stay at the end.
 */
export function reset(state: ViewState, next: ViewState): ViewState {
  // A message typed on a blank page is shown before its session exists: it moves into that session.
  if (state.session !== next.session && state.session !== undefined) return next;
  const local = state.items.filter((i): i is Extract<Item, { kind: 'user' }> => i.kind === 'user' && !!i.local);
  const saved = next.items.filter((i) => i.kind === 'user').slice(-local.length);
  const unsaved = local.filter((l) => !saved.some((s) => s.kind === 'user' && s.text === l.text));
  return { ...next, items: [...next.items, ...unsaved] };
}

/** The person's own message, shown as soon as it is sent (`session`: none yet on a blank page). */
export function sent(state: ViewState, session: string | undefined, text: string, parts: ShownPart[] = []): ViewState {
  const base = state.session === session ? state : { ...emptyView, session };
  return { ...base, items: [...base.items, { kind: 'user', text, ...(parts.length ? { parts } : {}), local: true }] };
}

/** Applies one event of the live stream (`now`: when it arrived, for tool durations). */
export function apply(state: ViewState, e: AdkEvent, now = Date.now()): ViewState {
  const items = [...state.items];
  const path = e.runPath?.length ? e.runPath : state.path;
  const agent = String(e.agent ?? '');
  const lane = laneOf(e);
  const open = () => items.findLastIndex((x) => x.kind === 'assistant' && x.lane === lane && !x.done);
  const update = (i: number, patch: Partial<Assistant>) => (items[i] = { ...(items[i] as Assistant), ...patch });
  switch (e.type) {
    case 'session':
      return { ...state, running: true };
    case 'delta':
    case 'thought': {
      const field = e.type === 'delta' ? 'text' : 'reasoning';
      const i = open();
      if (i >= 0) update(i, { [field]: (items[i] as Assistant)[field] + String(e.content) });
      else items.push({ kind: 'assistant', agent, lane, text: '', reasoning: '', done: false, [field]: String(e.content) });
      return { ...state, items, path };
    }
    case 'message': {
      if (e.role === 'user') {
        items.push({ kind: 'user', text: String(e.content) });
        return { ...state, items, path };
      }
      const i = open();
      const reasoning = typeof e.reasoning === 'string' ? e.reasoning : undefined;
      if (i >= 0) update(i, { text: String(e.content), done: true, ...(reasoning ? { reasoning } : {}) });
      else if (e.content || reasoning) items.push({ kind: 'assistant', agent, lane, text: String(e.content), reasoning: reasoning ?? '', done: true });
      return { ...state, items, path };
    }
    case 'tool_call':
      if (e.name === 'transfer_to_agent') return { ...state, path };
      items.push({ kind: 'tool', agent, id: String(e.id), name: String(e.name), args: e.arguments, status: 'running', startedAt: now });
      return { ...state, items, path };
    case 'tool_result': {
      const i = items.findIndex((x) => x.kind === 'tool' && x.id === e.id);
      if (i >= 0) items[i] = { ...(items[i] as ToolItem), status: e.isError ? 'error' : 'done', result: String(e.content), endedAt: now };
      return { ...state, items, path };
    }
    case 'todos':
      return { ...state, todos: Array.isArray(e.todos) ? (e.todos as Todo[]) : state.todos, path };
    case 'transfer':
      items.push({ kind: 'note', tone: 'muted', text: `${agent} → ${String(e.to)}` });
      return { ...state, items, path: [...path, String(e.to)] };
    case 'retry':
      items.push({ kind: 'note', tone: 'muted', text: `retrying (attempt ${Number(e.attempt) + 1}): ${String(e.error)}` });
      return { ...state, items };
    case 'error':
      items.push({ kind: 'note', tone: 'error', text: String(e.message) });
      return { ...state, items };
    case 'done':
      if (e.status === 'cancelled') items.push({ kind: 'note', tone: 'muted', text: 'cancelled' });
      // Rows still streaming when the turn ended are finished as they are.
      return { ...state, items: items.map((x) => (x.kind === 'assistant' && !x.done ? { ...x, done: true } : x)), running: false, path: [] };
    default:
      return state;
  }
}

function parse(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}
