import type { AgentEvent } from './agents/events.js';
import { IncompleteReplyError, isAbortError } from './errors.js';
import type { InterruptContext } from './interrupt.js';

/** How a run ended. */
export type RunStatus = 'completed' | 'interrupted' | 'cancelled' | 'incomplete' | 'error';

/**
 * Works out how a run ended from its events, for RunStream's result and the CLI's and server's
 * summaries alike (one set of rules: a cancel saved at a safe point is `cancelled`, not an interrupt).
 */
export class RunStatusTracker {
  status: RunStatus = 'completed';
  /** The points waiting for a person (a cancel's saved point is not one). */
  interrupts: InterruptContext[] = [];
  /** The run was cancelled and saved at a safe point: resuming continues it. */
  cancelledAtCheckpoint = false;
  /** What failed (status `error` or `incomplete`). */
  error: Error | undefined;
  /** Why an incomplete run's last reply was cut off: `length` or `content_filter`. */
  incompleteReason: string | undefined;

  /**
   * Takes one event; `aborted` says whether the caller's signal has fired (an error then is the
   * cancel's). Returns what the event reported: a question, or a failure to show.
   */
  see(e: AgentEvent, aborted = false): { interrupts?: InterruptContext[]; failure?: Error } {
    const seen: { interrupts?: InterruptContext[]; failure?: Error } = {};
    const stopped = e.action?.interrupted;
    if (stopped) {
      this.interrupts = stopped.contexts.filter((c) => !c.cancelled);
      this.cancelledAtCheckpoint = !!stopped.cancelled;
      this.status = stopped.cancelled ? 'cancelled' : 'interrupted';
      if (!stopped.cancelled) seen.interrupts = this.interrupts;
    }
    if (e.error) {
      if (isAbortError(e.error) || aborted) {
        if (this.status !== 'interrupted' || this.cancelledAtCheckpoint) this.status = 'cancelled';
      } else {
        this.status = e.error instanceof IncompleteReplyError ? 'incomplete' : 'error';
        if (e.error instanceof IncompleteReplyError) this.incompleteReason = e.error.reason;
        this.error = e.error;
        seen.failure = e.error;
      }
    }
    return seen;
  }

  /** The run threw instead of ending with an event. */
  failed(err: Error): void {
    this.status = isAbortError(err) ? 'cancelled' : 'error';
    this.error = err;
  }

  /** The final status, once the events are read. */
  finish(aborted = false): RunStatus {
    if (this.cancelledAtCheckpoint || (aborted && this.status !== 'interrupted')) this.status = 'cancelled';
    return this.status;
  }
}
