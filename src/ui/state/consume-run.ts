import { isInterruptPendingEvent } from '../../core/agents/interrupt-pending.js';
import { isToolOutputEvent } from '../../core/tools/builtin/tool-output.js';
import type { AgentEvent, MessageVariant } from '../../core/agents/types.js';
import { WillRetryError, isAbortError, toError } from '../../core/errors.js';
import type { InterruptContext } from '../../core/interrupt.js';
import type { MessageStream } from '../../core/schema/message-stream.js';
import type { StreamOutcome, ViewAction } from './actions.js';
import { compactionText, isCompactionEvent } from '../../core/middlewares/summarize.js';
import { isTodosEvent } from '../../core/prebuilt/deep/todos.js';
import { isUsageEvent } from '../../core/models/usage-meter.js';
import { isModelNotice } from '../../core/models/model-notice.js';

export type Dispatch = (action: ViewAction) => void;

/** What a run ended with, for the caller that decides what happens next. */
export interface RunOutcome {
  /** The points waiting for a person (answer each by its id). Empty when the run did not stop. */
  interrupts: InterruptContext[];
  error?: Error;
  cancelled: boolean;
  exit: boolean;
}

export interface ConsumeOptions {
  /** When it aborts, open streams are no longer waited for and the run ends as cancelled. */
  signal?: AbortSignal;
}

let streamSeq = 0;
const GAVE_UP = Symbol('gave up');
const ABORT_GRACE_MS = 1500;

/** Events of one agent run position are shown in order; different lanes may interleave. */
export function laneOf(e: AgentEvent): string {
  return e.runPath.length ? e.runPath.join('/') : e.agentName;
}

interface Task {
  lane: string;
  open: () => boolean;
  done: Promise<void>;
}

/**
 * Feeds a run's events to the view. Streams are read chunk by chunk while later events are
 * handled, so parallel agents stream side by side; an event waits for earlier work in its own
 * lane, and for any stream that has already closed, so the transcript keeps the run's order.
 */
export async function consumeRun(events: AsyncIterable<AgentEvent>, dispatch: Dispatch, options: ConsumeOptions = {}): Promise<RunOutcome> {
  const outcome: RunOutcome = { interrupts: [], cancelled: false, exit: false };
  const tasks = new Set<Task>();
  const aborted = abortPromise(options.signal);
  // After an abort the runtime normally ends its run at once; a hung one is not waited for long.
  const givenUp = aborted.then(() => new Promise<typeof GAVE_UP>((r) => setTimeout(() => r(GAVE_UP), ABORT_GRACE_MS).unref?.()));
  const iterator = events[Symbol.asyncIterator]();
  dispatch({ type: 'runStart' });
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), givenUp]);
      if (next === GAVE_UP || next.done) break;
      const e = next.value;
      const lane = laneOf(e);
      const blockers = [...tasks].filter((t) => t.lane === lane || !t.open());
      if (blockers.length) await Promise.race([Promise.all(blockers.map((t) => t.done)), aborted]);
      if (e.runPath.length) dispatch({ type: 'path', runPath: e.runPath });
      const stream = e.output?.message?.isStreaming ? e.output.message.stream : undefined;
      const done = handleEvent(e, dispatch, outcome);
      if (stream && !stream.closed) {
        const task: Task = { lane, open: () => !stream.closed, done };
        tasks.add(task);
        void done.finally(() => tasks.delete(task));
      } else await done;
    }
    await Promise.race([Promise.all([...tasks].map((t) => t.done)), aborted]);
  } catch (err) {
    const error = toError(err);
    if (isAbortError(error)) outcome.cancelled = true;
    else {
      outcome.error = error;
      dispatch({ type: 'error', text: error.message });
    }
  }
  // What was streamed so far, and the rows the cancel closed, stay on screen, followed by the note.
  if (options.signal?.aborted) outcome.cancelled = true;
  dispatch({ type: 'runEnd', cancelled: outcome.cancelled });
  if (outcome.cancelled) dispatch({ type: 'cancelled' });
  return outcome;
}

async function handleEvent(e: AgentEvent, dispatch: Dispatch, outcome: RunOutcome): Promise<void> {
  const v = e.output?.message;
  if (v) await handleMessage(e, v, dispatch);
  const a = e.action;
  if (a?.transferToAgent) dispatch({ type: 'transfer', from: e.agentName, to: a.transferToAgent.destAgentName });
  if (a?.breakLoop) dispatch({ type: 'info', tone: 'muted', text: `${a.breakLoop.from} ended the loop` });
  if (a?.exit) outcome.exit = true;
  if (a?.interrupted?.cancelled) {
    // A cancelled run is saved at its last safe point: nothing to ask, it was the person's choice.
    outcome.cancelled = true;
  } else if (a?.interrupted) {
    const contexts = a.interrupted.contexts.filter((c) => !c.cancelled);
    outcome.interrupts = contexts;
    dispatch({ type: 'interrupted', agent: e.agentName, contexts });
  }
  if (e.retry) dispatch({ type: 'retry', agent: e.agentName, ...e.retry });
  const custom = e.output?.custom;
  if (isCompactionEvent(custom)) dispatch({ type: 'info', tone: custom.error ? 'warning' : 'muted', text: compactionText(custom) });
  if (isTodosEvent(custom)) dispatch({ type: 'todos', todos: custom.todos });
  if (isUsageEvent(custom)) dispatch({ type: 'usage', model: custom.model, promptTokens: custom.promptTokens, completionTokens: custom.completionTokens, ...(custom.nested ? { nested: true } : {}) });
  if (isModelNotice(custom)) dispatch({ type: 'info', tone: 'warning', text: custom.text });
  // A parallel branch waits for a person while its siblings run: its prompt can show already.
  if (isToolOutputEvent(custom)) dispatch({ type: 'toolOutput', agent: e.agentName, callId: custom.callId, tail: custom.tail, ...(custom.background ? { background: true } : {}) });
  if (isInterruptPendingEvent(custom)) dispatch({ type: 'interrupted', agent: e.agentName, contexts: custom.contexts });
  if (e.error) {
    if (isAbortError(e.error)) outcome.cancelled = true;
    else {
      outcome.error = e.error;
      dispatch({ type: 'error', agent: e.agentName || undefined, text: e.error.message });
    }
  }
}

async function handleMessage(e: AgentEvent, v: MessageVariant, dispatch: Dispatch): Promise<void> {
  // A message the person sent into the run, shown where the run took it.
  if (v.role === 'user') {
    if (v.message) dispatch({ type: 'pushed', text: v.message.content });
    return;
  }
  if (v.role === 'tool') {
    let message = v.message;
    if (!message && v.stream) {
      try {
        message = await v.stream.collect();
      } catch (err) {
        message = { role: 'tool', content: toError(err).message, isError: true };
      }
    }
    if (!message) return;
    message = { ...message, toolCallId: message.toolCallId ?? v.toolCallId, toolName: message.toolName ?? v.toolName };
    dispatch({ type: 'message', agent: e.agentName, runPath: e.runPath, message });
    return;
  }
  if (v.message) {
    dispatch({ type: 'message', agent: e.agentName, runPath: e.runPath, message: v.message });
    return;
  }
  if (v.stream) await readStream(e, v.stream, dispatch);
}

async function readStream(e: AgentEvent, stream: MessageStream, dispatch: Dispatch): Promise<void> {
  const streamId = `s${++streamSeq}`;
  dispatch({ type: 'streamStart', streamId, lane: laneOf(e), agent: e.agentName, runPath: e.runPath });
  let outcome: StreamOutcome = 'done';
  try {
    for await (const chunk of stream) {
      const toolNames = chunk.toolCalls?.map((c) => c.function?.name).filter((n): n is string => !!n);
      if (!chunk.content && !chunk.reasoningContent && !toolNames?.length) continue;
      dispatch({
        type: 'streamDelta',
        streamId,
        ...(chunk.content ? { content: chunk.content } : {}),
        ...(chunk.reasoningContent ? { reasoning: chunk.reasoningContent } : {}),
        ...(toolNames?.length ? { toolNames } : {}),
        at: Date.now(),
      });
    }
    // A run's streams end quietly where a cancel cut them; the stream still says so.
    if (stream.error) throw stream.error;
  } catch (err) {
    outcome = err instanceof WillRetryError ? 'retry' : isAbortError(err) ? 'cancelled' : 'error';
  }
  dispatch({ type: 'streamEnd', streamId, outcome, ...(outcome === 'done' ? { message: stream.snapshot() } : {}) });
}

function abortPromise(signal?: AbortSignal): Promise<void> {
  if (!signal) return new Promise(() => {});
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
