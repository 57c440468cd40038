import { sanitizeDeep } from '../text/sanitize.js';
import type { ViewAction } from './actions.js';
import { commit } from './commit.js';
import { commitLive, streamDelta, streamEnd, streamStart, wholeAssistantMessage } from './stream-reducer.js';
import { closeOpenRows, commitWaitingRows, interrupted, resumeWaitingRows, toolOutput, toolResult } from './tool-reducer.js';
import { initialViewState, type LiveMessage, type TranscriptItem, type ViewState } from './transcript.js';

/** Lines a tool result shows before it is collapsed. */
export const COLLAPSED_RESULT_LINES = 3;

/** The view model: a pure function from the view state and one action to the next view state. */
/**
 * The view's reducer. Every string that enters the view (model text, tool arguments and results,
 * file contents, errors) is made terminal-safe here, once: nothing a model, tool or file sends can
 * retitle the terminal, write the clipboard or move the cursor. adk's own styling is added later, by Ink.
 */
export function viewReducer(state: ViewState, action: ViewAction): ViewState {
  return reduce(state, action.type === 'batch' ? action : sanitizeDeep(action));
}

function reduce(state: ViewState, action: ViewAction): ViewState {
  switch (action.type) {
    case 'batch':
      return action.actions.reduce(viewReducer, state);
    case 'user':
      // A new message starts a new piece of work: the last list stays in the session, not on screen.
      return commit({ ...state, todos: undefined }, { kind: 'user', text: action.text });
    case 'pushed':
      return commit(state, { kind: 'user', text: action.text });
    case 'runStart':
      return { ...state, running: true };
    case 'runEnd':
      return endRun({ ...state, retry: undefined }, !!action.cancelled);
    case 'path':
      return samePath(state.path, action.runPath) ? state : { ...state, path: action.runPath };
    case 'streamStart':
      return streamStart(state.retry ? { ...state, retry: undefined } : state, action);
    case 'streamDelta':
      return streamDelta(state, action);
    case 'streamEnd':
      return streamEnd(state, action);
    case 'commitLive':
      return commitLive(state, action.at);
    case 'message': {
      const s = state.retry ? { ...state, retry: undefined } : state;
      return action.message.role === 'tool' ? toolResult(s, action.agent, action.message) : wholeAssistantMessage(s, action.agent, action.message);
    }
    case 'transfer':
      return commit(state, { kind: 'transfer', from: action.from, to: action.to });
    case 'retry':
      // Transient: a call that recovers leaves no trace; one that gives up ends in an error line.
      return { ...state, retry: { agent: action.agent, attempt: action.attempt, delayMs: action.delayMs, error: action.error } };
    case 'error':
      return commit(state, { kind: 'error', agent: action.agent, text: action.text });
    case 'cancelled':
      return commit(state, { kind: 'info', tone: 'muted', text: 'Cancelled.' });
    case 'interrupted':
      return interrupted(state, action.agent, action.contexts);
    case 'interruptsAnswered':
      return resumeWaitingRows({ ...state, interrupts: [] });
    case 'interruptsDismissed':
      return commitWaitingRows({ ...state, interrupts: [] });
    case 'info':
      return commit(state, { kind: 'info', text: action.text, tone: action.tone });
    case 'todos':
      return { ...state, todos: action.todos };
    case 'toolOutput':
      return toolOutput(state, action.agent, action.callId, action.tail, action.background);
    case 'append':
      return commit(state, action.item);
    case 'expandLast':
      return expandLast(state);
    case 'clear':
      return { ...initialViewState(), epoch: state.epoch + 1, nextId: state.nextId, usage: action.usage ?? state.usage, ...(action.usage || !state.usageByModel ? {} : { usageByModel: state.usageByModel }) };
    case 'usage':
      return addRequestUsage(state, action);
  }
}

/** Whatever is still live goes into the transcript, except rows waiting for an answer. */
function endRun(state: ViewState, cancelled: boolean): ViewState {
  let s: ViewState = { ...state, running: false };
  for (const m of state.live.filter((x): x is LiveMessage => x.kind === 'message'))
    s = streamEnd(s, { type: 'streamEnd', streamId: m.streamId, outcome: cancelled ? 'cancelled' : 'error' });
  return closeOpenRows(s, { keepWaiting: s.interrupts.length > 0, cancelled });
}

type Collapsible = Extract<TranscriptItem, { kind: 'tool' | 'thought' }>;

function collapsedText(x: TranscriptItem): string | undefined {
  if (x.kind === 'tool' && !x.expanded) return x.call.result ?? '';
  if (x.kind === 'thought' && !x.expanded) return x.text;
  return undefined;
}

/** The last tool result or thought that was shown collapsed, appended again in full. */
function expandLast(state: ViewState): ViewState {
  // A thought is collapsed to one line whatever its length; a result only past its first lines.
  const last = [...state.committed].reverse().find((x): x is Collapsible => (x.kind === 'thought' && !x.expanded) || (collapsedText(x)?.split('\n').length ?? 0) > COLLAPSED_RESULT_LINES);
  if (!last) return commit(state, { kind: 'info', tone: 'muted', text: 'Nothing to expand.' });
  const { id: _id, ...rest } = last;
  return commit(state, { ...rest, expanded: true });
}

function samePath(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** A request's usage: always per model; into the totals only when no message brought it (see usage-meter.ts). */
function addRequestUsage(state: ViewState, a: { model: string; promptTokens: number; completionTokens: number; nested?: boolean }): ViewState {
  const was = state.usageByModel?.[a.model] ?? { promptTokens: 0, completionTokens: 0 };
  const usageByModel = { ...state.usageByModel, [a.model]: { promptTokens: was.promptTokens + a.promptTokens, completionTokens: was.completionTokens + a.completionTokens } };
  const usage = a.nested ? { promptTokens: state.usage.promptTokens + a.promptTokens, completionTokens: state.usage.completionTokens + a.completionTokens } : state.usage;
  return { ...state, usage, usageByModel };
}
