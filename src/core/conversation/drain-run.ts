import type { AgentEvent } from '../agents/types.js';
import { addByModel, isUsageEvent, type UsageByModel } from '../models/usage-meter.js';
import type { InterruptContext } from '../interrupt.js';
import type { Message, Usage } from '../schema/message.js';
import { AsyncQueue } from '../async-queue.js';
import { RunStatusTracker, type RunStatus } from '../run-status.js';
import { isCompactionEvent, type CompactionEvent } from '../middlewares/summarize.js';
import { isTodosEvent, type Todo, type TodosEvent } from '../prebuilt/deep/todos.js';
import { isModelNotice, type ModelNotice } from '../models/model-notice.js';

/** Receives a run's events already flattened: streamed text arrives as deltas, in order. */
export interface EventSink {
  delta(e: AgentEvent, text: string): void;
  thought(e: AgentEvent, text: string): void;
  /** A finished assistant or tool message; `discarded` when it was a failed attempt that is retried. */
  message(e: AgentEvent, message: Message): void;
  transfer(e: AgentEvent, to: string): void;
  retry(e: AgentEvent): void;
  error(e: AgentEvent, error: Error): void;
  interrupt(e: AgentEvent, contexts: InterruptContext[]): void;
  /** The context was compacted (a summary, or the oldest messages dropped when it failed). */
  compaction(e: AgentEvent, c: CompactionEvent): void;
  /** A deep agent wrote its todo list. */
  todos(e: AgentEvent, t: TodosEvent): void;
  /** Another model answered after a failure, or the model's window is a guess. */
  notice?(e: AgentEvent, n: ModelNotice): void;
}

export type { RunStatus };

export interface RunSummary {
  status: RunStatus;
  output: string;
  /** `estimated`: some reply's usage was counted by adk because its server reported none. */
  usage: { promptTokens: number; completionTokens: number; estimated?: boolean };
  /** The same tokens per model (every request of the run: sub-agents and summaries too). */
  usageByModel?: UsageByModel;
  error?: Error;
  /** Tokens in the model's context after the last reply (its prompt plus the reply), when the provider reported usage. */
  contextTokens?: number;
  /** Why an incomplete run's last reply was cut off: `length` or `content_filter`. */
  incompleteReason?: string;
  interrupts: InterruptContext[];
  /** The run was cancelled and saved at a safe point: resuming continues it. */
  cancelledAtCheckpoint?: boolean;
  /** Every finished message, in order: the turn's contribution to the conversation history. */
  messages: Message[];
  /** The last todo list written in the run (deep agents). */
  todos?: Todo[];
}

/** Reads a run to the end, feeding `sink`, and sums it up. */
export async function drainRun(events: AsyncIterable<AgentEvent>, sink: EventSink, signal?: AbortSignal): Promise<RunSummary> {
  const summary: RunSummary = { status: 'completed', output: '', usage: { promptTokens: 0, completionTokens: 0 }, interrupts: [], messages: [] };
  const status = new RunStatusTracker();
  for await (const e of events) {
    const v = e.output?.message;
    if (v) {
      const msg = v.stream ? await readStream(e, sink) : v.message;
      if (msg) {
        sink.message(e, msg);
        summary.messages.push(msg);
        summary.output = msg.content;
        if (msg.usage) {
          if (msg.role === 'assistant') summary.contextTokens = msg.usage.promptTokens + msg.usage.completionTokens;
          summary.usage.promptTokens += msg.usage.promptTokens;
          summary.usage.completionTokens += msg.usage.completionTokens;
          if (msg.usage.estimated) summary.usage.estimated = true;
        }
      }
    }
    if (e.retry) sink.retry(e);
    const custom = e.output?.custom;
    // Requests whose replies are no message here (sub-agents, summaries) count through their usage event.
    if (isUsageEvent(custom)) {
      summary.usageByModel = addByModel(summary.usageByModel ?? {}, custom);
      if (custom.nested) {
        summary.usage.promptTokens += custom.promptTokens;
        summary.usage.completionTokens += custom.completionTokens;
        if (custom.estimated) summary.usage.estimated = true;
      }
    }
    if (isCompactionEvent(custom)) sink.compaction(e, custom);
    if (isModelNotice(custom)) sink.notice?.(e, custom);
    if (isTodosEvent(custom)) {
      sink.todos(e, custom);
      summary.todos = custom.todos;
    }
    if (e.action?.transferToAgent) sink.transfer(e, e.action.transferToAgent.destAgentName);
    const seen = status.see(e, !!signal?.aborted);
    if (seen.interrupts) sink.interrupt(e, seen.interrupts);
    if (seen.failure) sink.error(e, seen.failure);
  }
  summary.status = status.finish(!!signal?.aborted);
  summary.interrupts = status.interrupts;
  if (status.cancelledAtCheckpoint) summary.cancelledAtCheckpoint = true;
  if (status.error) summary.error = status.error;
  if (status.incompleteReason) summary.incompleteReason = status.incompleteReason;
  return summary;
}

async function readStream(e: AgentEvent, sink: EventSink): Promise<Message | undefined> {
  const stream = e.output!.message!.stream!;
  try {
    for await (const chunk of stream) {
      if (chunk.reasoningContent) sink.thought(e, chunk.reasoningContent);
      if (chunk.content) sink.delta(e, chunk.content);
    }
    // A run's streams end quietly where a cancel cut them: that partial text is not a message.
    if (stream.error) return undefined;
    return stream.snapshot();
  } catch {
    // A retried attempt is dropped (its retry event follows); other failures arrive as error events.
    return undefined;
  }
}

export type { Usage };

const silent: EventSink = { delta() {}, thought() {}, message() {}, transfer() {}, retry() {}, error() {}, interrupt() {}, compaction() {}, todos() {} };

/**
 * Passes a run's events through to one consumer (the REPL) while a second reader sums the run up
 * for the session record. Streams are multi-consumer, so both read every chunk.
 */
export function withSummary(events: AsyncIterable<AgentEvent>, signal?: AbortSignal): { events: AsyncIterable<AgentEvent>; summary: Promise<RunSummary> } {
  const copy = new AsyncQueue<AgentEvent>();
  const summary = drainRun(copy, silent, signal);
  async function* pass(): AsyncIterable<AgentEvent> {
    try {
      for await (const e of events) {
        copy.push(e);
        yield e;
      }
    } finally {
      copy.close();
    }
  }
  return { events: pass(), summary };
}
