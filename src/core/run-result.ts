import { AsyncQueue } from './async-queue.js';
import { addByModel, isUsageEvent, type UsageByModel } from './models/usage-meter.js';
import { toError } from './errors.js';
import { RunStatusTracker, type RunStatus } from './run-status.js';
import type { InterruptContext } from './interrupt.js';
import type { Message } from './schema/message.js';
import { errorEvent, eventMessage, type AgentEvent } from './agents/events.js';

/** How a run ended: `completed`, `interrupted` (waits for a person), `cancelled`, `incomplete` (the reply was cut off) or `error`. */
export type { RunStatus };

/**
 * How a run ended, for code that wants the outcome rather than the events (openai-agents-js's
 * RunResult). `T` is the type of `structured`: the root agent's output schema's (see Agent).
 */
export interface RunResult<T = unknown> {
  status: RunStatus;
  /** The text of the last message of the run (the answer, when it completed). */
  finalOutput: string;
  /** The agent that produced the last message. */
  lastAgent: string;
  /** The final answer parsed and checked against the last agent's output schema (`outputSchema`), when it has one. */
  structured?: T | undefined;
  /** Summed over every model reply that reported (or estimated) usage; `estimated` when adk counted some itself. */
  usage: { promptTokens: number; completionTokens: number; estimated?: boolean };
  /** The same tokens per model (every request of the run: sub-agents and summaries too). */
  usageByModel?: UsageByModel;
  /** Every finished message of the run, in order: what the run adds to a conversation. */
  messages: Message[];
  /** The points waiting for a person (status `interrupted`): answer them by id with `Runner.resume`. */
  interrupts: InterruptContext[];
  /** Where the run was saved when it stopped (interrupted, or cancelled at a safe point), if a store was given. */
  checkpointId?: string | undefined;
  /** What failed (status `error` or `incomplete`). */
  error?: Error | undefined;
}

/**
 * A run: iterate it for the events as they happen, and/or await `result` for the outcome. Awaiting
 * `result` without iterating reads the events itself (and drops them); to have both, start
 * iterating before awaiting `result`.
 */
export class RunStream<T = unknown> implements AsyncIterable<AgentEvent> {
  private pump?: Promise<RunResult<T>> | undefined;
  private queue?: AsyncQueue<AgentEvent> | undefined;

  constructor(
    private readonly source: AsyncIterable<AgentEvent>,
    private readonly checkpointId?: string,
  ) {}

  [Symbol.asyncIterator](): AsyncIterator<AgentEvent> {
    if (this.pump && !this.queue) throw new Error('this run is already being read through its result: iterate it before awaiting result');
    if (this.queue) throw new Error('a run can be iterated once');
    this.queue = new AsyncQueue<AgentEvent>();
    this.start();
    return this.queue[Symbol.asyncIterator]();
  }

  /** The run's outcome, once it has ended. */
  get result(): Promise<RunResult<T>> {
    return this.start();
  }

  private start(): Promise<RunResult<T>> {
    this.pump ??= this.read();
    return this.pump;
  }

  private async read(): Promise<RunResult<T>> {
    const r: RunResult<T> = { status: 'completed', finalOutput: '', lastAgent: '', usage: { promptTokens: 0, completionTokens: 0 }, messages: [], interrupts: [] };
    // Messages are collected in order without holding the events back (a stream is read by both sides).
    const pending: Array<Promise<{ agent: string; message: Message | undefined }>> = [];
    const status = new RunStatusTracker();
    let structured: { agent: string; value: unknown } | undefined;
    try {
      for await (const e of this.source) {
        this.queue?.push(forCaller(e));
        if (e.output?.message) pending.push(eventMessage(e).then((message) => ({ agent: e.agentName, message }), () => ({ agent: e.agentName, message: undefined })));
        if (e.output && 'structured' in e.output) structured = { agent: e.agentName, value: e.output.structured };
        // Requests whose replies are no message of the run (sub-agents, summaries) count through their usage event.
        const custom = e.output?.custom;
        if (isUsageEvent(custom)) {
          r.usageByModel = addByModel(r.usageByModel ?? {}, custom);
          if (custom.nested) {
            r.usage.promptTokens += custom.promptTokens;
            r.usage.completionTokens += custom.completionTokens;
            if (custom.estimated) r.usage.estimated = true;
          }
        }
        status.see(e);
      }
    } catch (e) {
      // A source that throws (a turn that could not be saved) ends the run as an error event.
      const err = toError(e);
      this.queue?.push(errorEvent(err, r.lastAgent));
      status.failed(err);
    } finally {
      this.queue?.close();
    }
    r.status = status.finish();
    r.interrupts = status.interrupts;
    if (status.error) r.error = status.error;
    const cancelledAtCheckpoint = status.cancelledAtCheckpoint;
    for (const { agent, message } of await Promise.all(pending)) {
      if (!message) continue;
      r.messages.push(message);
      r.finalOutput = message.content;
      r.lastAgent = agent;
      if (message.usage) {
        r.usage.promptTokens += message.usage.promptTokens;
        r.usage.completionTokens += message.usage.completionTokens;
        if (message.usage.estimated) r.usage.estimated = true;
      }
    }
    // Another agent's answer after it (a transfer) is not what the schema described.
    if (structured && structured.agent === r.lastAgent && r.status === 'completed') r.structured = structured.value as T;
    if ((r.status === 'interrupted' || cancelledAtCheckpoint) && this.checkpointId) r.checkpointId = this.checkpointId;
    return r;
  }
}

/**
 * The event as the run's caller reads it: a streamed message comes as its view that ends quietly
 * where a cancel cut it (MessageStream.endingOnCancel), so a loop that prints streams ends cleanly
 * when the run is aborted; the run's last events say it was cancelled.
 */
function forCaller(e: AgentEvent): AgentEvent {
  const v = e.output?.message;
  if (!v?.stream) return e;
  const stream = v.stream.endingOnCancel();
  return stream === v.stream ? e : { ...e, output: { ...e.output, message: { ...v, stream } } };
}
