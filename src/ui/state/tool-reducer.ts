import { TRANSFER_TOOL_NAME } from '../../core/agents/instruction.js';
import type { InterruptContext, InterruptDetails } from '../../core/interrupt.js';
import type { Message, ToolCall } from '../../core/schema/message.js';
import { commit, replaceLive, takeId } from './commit.js';
import { toolCallIdOfAddress, toolResultStatus } from './tool-status.js';
import type { LiveTool, PendingInterrupt, ToolStatus, ViewState } from './transcript.js';

/** Tools whose rows are not shown: the transfer line tells the story better. */
export const HIDDEN_TOOLS: ReadonlySet<string> = new Set([TRANSFER_TOOL_NAME]);

// Call ids are unique only within one model reply, so rows are found by agent and id together.
const callKey = (agent: string, callId: string) => `${agent}\u0000${callId}`;

function findTool(state: ViewState, agent: string, callId: string): LiveTool | undefined {
  return state.live.find((x): x is LiveTool => x.kind === 'tool' && x.agent === agent && x.call.callId === callId);
}

/** Rows for the calls of a finished assistant message; they run until their results arrive. */
export function addToolRows(state: ViewState, agent: string, calls: ToolCall[]): ViewState {
  let s = state;
  for (const c of calls) {
    if (HIDDEN_TOOLS.has(c.function.name)) {
      s = { ...s, hiddenCalls: [...s.hiddenCalls, callKey(agent, c.id)] };
      continue;
    }
    // A resumed run may announce a call again: keep the one row.
    if (findTool(s, agent, c.id)) continue;
    const [id, next] = takeId(s);
    const row: LiveTool = { kind: 'tool', id, agent, call: { callId: c.id, name: c.function.name, args: c.function.arguments, status: 'running' } };
    s = { ...next, live: [...next.live, row] };
  }
  return s;
}

/** The last lines a running call printed: shown under its row (the result replaces them). `movable`: Ctrl-B can move it now. */
export function toolOutput(state: ViewState, agent: string, callId: string, tail: string, movable = false): ViewState {
  const row = findTool(state, agent, callId);
  if (!row || row.call.status !== 'running') return state;
  const call = movable ? { ...row.call, movable } : { ...row.call, progress: tail };
  return replaceLive(state, row.id, { ...row, call });
}

/** Whether Ctrl-B would move something to the background now: the hint shows exactly then. */
export function canMoveToBackground(state: ViewState): boolean {
  return state.live.some((x) => x.kind === 'tool' && x.call.status === 'running' && x.call.movable === true);
}

/** A tool result: its row gets the final status and moves into the transcript. */
export function toolResult(state: ViewState, agent: string, message: Message): ViewState {
  const callId = message.toolCallId ?? '';
  if (state.hiddenCalls.includes(callKey(agent, callId)) || (message.toolName && HIDDEN_TOOLS.has(message.toolName))) return state;
  const status = toolResultStatus(message);
  const row = callId ? findTool(state, agent, callId) : undefined;
  if (row) {
    // The row gets its result where it is; it moves into the transcript once the calls made before it have.
    const { progress: _progress, movable: _movable, ...call } = row.call;
    const done: LiveTool = { ...row, call: { ...call, ...ranWith(message), status, result: resultText(message) } };
    return commitFinishedInCallOrder(replaceLive(state, row.id, done), agent);
  }
  // No row yet: the call was made before this process started (a resumed session).
  return commit(state, {
    kind: 'tool',
    agent,
    call: { callId, name: message.toolName ?? 'tool', args: '', status, result: message.content },
  });
}

/**
 * Moves the agent's finished rows into the transcript in the order the calls were made, up to its
 * first call still running (or waiting for a person): parallel calls finish in any order, but the
 * transcript reads in call order.
 */
/** The arguments a call ran with, when a person edited them (the row shows those). */
export function ranWith(message: Message): { args?: string; edited?: boolean } {
  return message.editedArguments ? { args: message.editedArguments, edited: true } : {};
}

/** The result as shown: the note for the model about edited arguments is the row's `edited` mark instead. */
export function resultText(message: Message): string {
  return message.editedArguments ? message.content.replace(/^\[The user edited this call[^\n]*\]\n/, '') : message.content;
}

function commitFinishedInCallOrder(state: ViewState, agent: string): ViewState {
  let s = state;
  for (const row of state.live) {
    if (row.kind !== 'tool' || row.agent !== agent) continue;
    if (row.call.status === 'running' || row.call.status === 'pending') break;
    s = commit(replaceLive(s, row.id, undefined), { kind: 'tool', agent: row.agent, call: row.call });
  }
  return s;
}

export function interrupted(state: ViewState, agent: string, contexts: InterruptContext[]): ViewState {
  let s = state;
  const pending: PendingInterrupt[] = [];
  for (const c of contexts) {
    if (c.cancelled) continue;
    const toolCallId = toolCallIdOfAddress(c.address);
    const p: PendingInterrupt = { id: c.id, address: c.address, agent: agentOfAddress(c.address) ?? agent, info: asDetails(c.info) };
    if (toolCallId) {
      p.toolCallId = toolCallId;
      s = setToolStatus(s, p.agent, toolCallId, 'pending');
    }
    pending.push(p);
  }
  const known = new Set(pending.map((p) => p.id));
  return { ...s, interrupts: [...s.interrupts.filter((p) => !known.has(p.id)), ...pending] };
}

/** Rows still waiting for a person go into the transcript as they are. */
export function commitWaitingRows(state: ViewState): ViewState {
  let s = state;
  // The waiting rows and the finished rows kept behind them, in call order.
  for (const row of state.live) {
    if (row.kind !== 'tool' || row.call.status === 'running') continue;
    s = commit(replaceLive(s, row.id, undefined), { kind: 'tool', agent: row.agent, call: row.call });
  }
  return s;
}

export function resumeWaitingRows(state: ViewState): ViewState {
  const live = state.live.map((x) => (x.kind === 'tool' && x.call.status === 'pending' ? { ...x, call: { ...x.call, status: 'running' as const } } : x));
  return { ...state, live };
}

/** At the end of a run: rows that never got a result are closed (waiting rows stay if asked). */
export function closeOpenRows(state: ViewState, opts: { keepWaiting: boolean; cancelled: boolean }): ViewState {
  let s = state;
  // Behind a call that waits for a person, its agent's later rows wait too: the transcript keeps call order.
  const waiting = new Set<string>();
  for (const row of state.live) {
    if (row.kind !== 'tool') continue;
    const finished = row.call.status !== 'running' && row.call.status !== 'pending';
    if (opts.keepWaiting && (row.call.status === 'pending' || (finished && waiting.has(row.agent)))) {
      waiting.add(row.agent);
      continue;
    }
    const call =
      row.call.status === 'running'
        ? { ...row.call, status: 'error' as const, result: opts.cancelled ? 'cancelled' : '(no result)' }
        : row.call;
    s = commit(replaceLive(s, row.id, undefined), { kind: 'tool', agent: row.agent, call });
  }
  return s;
}

function setToolStatus(state: ViewState, agent: string, callId: string, status: ToolStatus): ViewState {
  const row = findTool(state, agent, callId);
  return row ? replaceLive(state, row.id, { ...row, call: { ...row.call, status } }) : state;
}

function agentOfAddress(address: string): string | undefined {
  const agents = address.split(';').filter((x) => x.startsWith('agent:'));
  return agents.length ? agents[agents.length - 1].slice('agent:'.length).split(':')[0] : undefined;
}

/** Interrupt info from tools follows InterruptDetails; anything else is shown as a custom request. */
export function asDetails(info: unknown): InterruptDetails {
  if (info && typeof info === 'object' && typeof (info as InterruptDetails).kind === 'string') {
    const d = info as InterruptDetails;
    return { ...d, message: typeof d.message === 'string' ? d.message : '' };
  }
  return { kind: 'custom', message: typeof info === 'string' ? info : JSON.stringify(info ?? null), data: info };
}
