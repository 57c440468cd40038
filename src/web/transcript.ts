import type { AdkEvent, SessionView } from './api.js';

/** One row of the page's transcript. */
export type Item =
  | { kind: 'user'; text: string }
  | { kind: 'assistant'; agent: string; lane: string; text: string; done: boolean }
  | { kind: 'tool'; agent: string; id: string; name: string; args: unknown; status: 'running' | 'done' | 'error'; result?: string }
  | { kind: 'note'; text: string; tone: 'muted' | 'error' };

export interface ViewState {
  items: Item[];
  /** The run path of the latest event: the breadcrumb. */
  path: string[];
  running: boolean;
}

export const emptyView: ViewState = { items: [], path: [], running: false };

const laneOf = (e: AdkEvent) => (e.runPath ?? []).join('/') || String(e.agent ?? '');

/** The saved history as rows (a reload, an older session). */
export function fromHistory(s: SessionView): ViewState {
  const items: Item[] = [];
  for (const m of s.messages) {
    if (m.role === 'user' && !m.agentName) items.push({ kind: 'user', text: m.content });
    else if (m.role === 'assistant') {
      if (m.content) items.push({ kind: 'assistant', agent: m.agentName ?? '', lane: m.agentName ?? '', text: m.content, done: true });
      for (const c of m.toolCalls ?? []) items.push({ kind: 'tool', agent: m.agentName ?? '', id: c.id, name: c.function.name, args: parse(c.function.arguments), status: 'running' });
    } else if (m.role === 'tool') {
      const row = items.find((i): i is Extract<Item, { kind: 'tool' }> => i.kind === 'tool' && i.id === m.toolCallId);
      if (row) Object.assign(row, { status: 'done', result: m.content });
    }
  }
  return { items, path: [], running: s.status === 'running' };
}

/** Applies one event of the live stream. */
export function apply(state: ViewState, e: AdkEvent): ViewState {
  const items = [...state.items];
  const path = e.runPath?.length ? e.runPath : state.path;
  const agent = String(e.agent ?? '');
  switch (e.type) {
    case 'session':
      return { ...state, running: true };
    case 'delta': {
      const lane = laneOf(e);
      const i = items.findLastIndex((x) => x.kind === 'assistant' && x.lane === lane && !x.done);
      if (i >= 0) items[i] = { ...(items[i] as Extract<Item, { kind: 'assistant' }>), text: (items[i] as Extract<Item, { kind: 'assistant' }>).text + String(e.content) };
      else items.push({ kind: 'assistant', agent, lane, text: String(e.content), done: false });
      return { ...state, items, path };
    }
    case 'message': {
      if (e.role === 'user') {
        items.push({ kind: 'user', text: String(e.content) });
        return { ...state, items, path };
      }
      const lane = laneOf(e);
      const i = items.findLastIndex((x) => x.kind === 'assistant' && x.lane === lane && !x.done);
      if (i >= 0) items[i] = { ...(items[i] as Extract<Item, { kind: 'assistant' }>), text: String(e.content), done: true };
      else if (e.content) items.push({ kind: 'assistant', agent, lane, text: String(e.content), done: true });
      return { ...state, items, path };
    }
    case 'tool_call':
      if (e.name === 'transfer_to_agent') return { ...state, path };
      items.push({ kind: 'tool', agent, id: String(e.id), name: String(e.name), args: e.arguments, status: 'running' });
      return { ...state, items, path };
    case 'tool_result': {
      const i = items.findIndex((x) => x.kind === 'tool' && x.id === e.id);
      if (i >= 0) items[i] = { ...(items[i] as Extract<Item, { kind: 'tool' }>), status: e.isError ? 'error' : 'done', result: String(e.content) };
      return { ...state, items, path };
    }
    case 'transfer':
      items.push({ kind: 'note', tone: 'muted', text: `${agent} → ${String(e.to)}` });
      return { ...state, items, path };
    case 'retry':
      items.push({ kind: 'note', tone: 'muted', text: `retrying (attempt ${Number(e.attempt) + 1}): ${String(e.error)}` });
      return { ...state, items };
    case 'error':
      items.push({ kind: 'note', tone: 'error', text: String(e.message) });
      return { ...state, items };
    case 'done':
      if (e.status === 'cancelled') items.push({ kind: 'note', tone: 'muted', text: 'cancelled' });
      return { ...state, items, running: false, path: [] };
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
