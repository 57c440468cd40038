import type { SessionRecord } from '../../../core/store/session-record.js';
import type { ServedSession } from '../../served-session.js';
import { lgInterrupt, type LgInterrupt } from './interrupts.js';
import { lcMessage, type LcMessage } from './messages.js';
import type { ThreadRecord } from './records.js';

export type ThreadStatus = 'idle' | 'busy' | 'interrupted' | 'error';

/** A thread's state values: the conversation as LangChain messages, its title, and a deep agent's todos. */
export interface ThreadValues {
  messages: LcMessage[];
  title?: string | undefined;
  todos?: unknown[] | undefined;
  [key: string]: unknown;
}

/** What a session shows now: its messages so far (a stopped turn's too), its status and its interrupts. */
export interface SessionView {
  values: ThreadValues;
  status: ThreadStatus;
  interrupts: LgInterrupt[];
  record: SessionRecord;
  /** How many messages the values hold (the next message's index). */
  count: number;
}

export async function sessionView(thread: string, live: ServedSession): Promise<SessionView> {
  const [record, busy] = await Promise.all([live.record(), live.busy()]);
  const from = record.messagesFrom ?? 0;
  // A turn stopped at an interrupt keeps its messages aside until it ends: they are part of the state.
  const all = [...record.messages, ...(record.pendingTurn ?? [])];
  const waiting = !busy && record.status === 'interrupted' ? record.pendingInterrupts : [];
  const status: ThreadStatus = busy ? 'busy' : waiting.length ? 'interrupted' : record.status === 'error' ? 'error' : 'idle';
  // Made when read: a run that only waits for its end never converts the thread it starts from.
  let values: ThreadValues | undefined;
  return {
    get values() {
      values ??= { messages: all.map((m, i) => lcMessage(m, thread, from + i)), ...(record.title ? { title: record.title } : {}), ...(record.todos ? { todos: record.todos } : {}) };
      return values;
    },
    status,
    interrupts: waiting.map((p) => lgInterrupt(p)),
    record,
    count: from + all.length,
  };
}

/** A thread with no session yet (no run so far): empty. */
export const EMPTY_VALUES: ThreadValues = { messages: [] };

/** The thread as LangGraph's `Thread`. */
export function lgThread(t: ThreadRecord, view: SessionView | undefined) {
  const interrupts = view?.interrupts ?? [];
  return {
    thread_id: t.thread_id,
    created_at: t.created_at,
    updated_at: view?.record.updatedAt ?? t.updated_at,
    state_updated_at: view?.record.updatedAt ?? t.updated_at,
    metadata: { ...t.metadata, ...(t.assistant_id ? { graph_id: t.metadata.graph_id ?? t.assistant_id, assistant_id: t.assistant_id } : {}) },
    status: view?.status ?? 'idle',
    values: view?.values ?? EMPTY_VALUES,
    interrupts: interrupts.length ? { [taskId(t.thread_id, view!.record)]: interrupts } : {},
    config: { configurable: { thread_id: t.thread_id } },
    error: view?.status === 'error' ? 'the last run failed' : null,
  };
}

const taskId = (thread: string, r: SessionRecord) => `${thread}:task:${r.checkpointId ?? r.messageCount}`;

/**
 * The thread's state as LangGraph's `ThreadState`. A stopped turn is one task (the root agent)
 * holding its interrupts, so `next` names the agent and `tasks[].interrupts` what it waits on.
 */
export function lgState(t: ThreadRecord, view: SessionView | undefined, values?: ThreadValues) {
  const record = view?.record;
  const checkpoint = { thread_id: t.thread_id, checkpoint_ns: '', checkpoint_id: checkpointId(t.thread_id, view?.count ?? 0), checkpoint_map: null };
  const waiting = view?.interrupts ?? [];
  const agent = record?.rootAgent ?? t.assistant_id ?? 'agent';
  return {
    values: values ?? view?.values ?? EMPTY_VALUES,
    next: waiting.length ? [agent] : [],
    checkpoint,
    metadata: { source: 'loop', step: view?.count ?? 0, thread_id: t.thread_id, ...(t.assistant_id ? { graph_id: t.assistant_id } : {}) },
    created_at: record?.updatedAt ?? t.created_at,
    parent_checkpoint: null as null | typeof checkpoint,
    tasks: waiting.length ? [{ id: taskId(t.thread_id, record!), name: agent, path: ['__pregel_pull', agent], error: null, interrupts: waiting, checkpoint: null, state: null, result: null }] : [],
    interrupts: waiting,
  };
}

/** A checkpoint id names the thread's state after `count` messages: history and `getState(checkpoint)` read it back. */
export const checkpointId = (thread: string, count: number): string => `${thread}:${count}`;

export function countFromCheckpoint(thread: string, id: string): number | undefined {
  if (!id.startsWith(`${thread}:`)) return undefined;
  const n = Number(id.slice(thread.length + 1));
  return Number.isInteger(n) && n >= 0 ? n : undefined;
}

/**
 * The thread's history, newest first: one state per checkpoint a run can start from (LangGraph's
 * `checkpoint` on runs): the state now, and around each of the person's messages the state before
 * it (edit: a new message from there) and after it (regenerate: the answer again). adk keeps the
 * messages, not LangGraph's per-step checkpoints, so steps inside a turn have none.
 */
export function lgHistory(t: ThreadRecord, view: SessionView | undefined, limit: number, before?: string) {
  if (!view) return [];
  const from = view.count - view.values.messages.length;
  const counts = new Set<number>([view.count]);
  view.values.messages.forEach((m, i) => {
    if (m.type !== 'human') return;
    counts.add(from + i);
    counts.add(from + i + 1);
  });
  const agent = view.record.rootAgent ?? t.assistant_id ?? 'agent';
  const states = [...counts]
    .sort((a, b) => b - a)
    .map((count) => {
      if (count === view.count) return lgState(t, view);
      const values = { ...view.values, messages: view.values.messages.slice(0, count - from) };
      const state = lgState(t, { ...view, interrupts: [], count }, values);
      // After the person's message, the agent runs next.
      return values.messages.at(-1)?.type === 'human' ? { ...state, next: [agent] } : state;
    });
  for (let i = 0; i < states.length - 1; i++) states[i]!.parent_checkpoint = states[i + 1]!.checkpoint;
  const cut = before ? countFromCheckpoint(t.thread_id, before) : undefined;
  return states.filter((s) => cut === undefined || (s.metadata.step as number) < cut).slice(0, limit);
}

/** The state at a checkpoint `getState` was given (one `lgHistory` named). */
export function stateAt(t: ThreadRecord, view: SessionView | undefined, checkpoint: string) {
  const n = countFromCheckpoint(t.thread_id, checkpoint);
  if (n === undefined || !view) return undefined;
  return lgHistory(t, view, Number.MAX_SAFE_INTEGER).find((s) => s.metadata.step === n);
}
