import type { AgentEvent } from '../core/agents/types.js';
import type { Conversation } from '../core/conversation/conversation.js';
import { drainRun, type RunSummary } from '../core/conversation/drain-run.js';
import { JsonEvents, type JsonEvent } from '../core/conversation/json-events.js';
import type { ConversationTeam } from '../core/conversation/team.js';

/** One event of a session as the API streams it: `id` orders it (and resumes a dropped stream). */
export interface SessionEvent {
  id: number;
  event: JsonEvent;
}

/** Events kept per session for `Last-Event-ID` replay; older ones are dropped first. */
export const EVENT_LOG_LIMIT = 10_000;

/** A turn (or its continuation) already running: one at a time per session. */
export class SessionBusyError extends Error {
  constructor(id: string) {
    super(`session ${id} is running a turn; wait for it to end, or POST /v1/sessions/${id}/cancel`);
  }
}

/**
 * A session the server holds open: its conversation (leased by this process), the events of its
 * turns numbered in order, the clients listening, and the turn running, if any. A client that goes
 * away does not stop a turn; `cancel()` does.
 */
export class LiveSession {
  private seq = 0;
  private readonly log: SessionEvent[] = [];
  private readonly listeners = new Set<(e: SessionEvent) => void>();
  private running?: { abort: AbortController; done: Promise<RunSummary> } | undefined;

  constructor(
    readonly conv: Conversation<ConversationTeam>,
    private readonly team?: { close?(): Promise<void> },
  ) {}

  /** Gives the session's lease up and closes its team (MCP servers, background jobs). */
  async close(): Promise<void> {
    await this.conv.close();
    await this.team?.close?.();
  }

  get id(): string {
    return this.conv.id;
  }

  get busy(): boolean {
    return !!this.running;
  }

  /** The id of the first event of the person's latest turn (its continuations after interrupts included). */
  get turnFrom(): number {
    return this.turnStart;
  }
  private turnStart = 1;

  /** The last event id handed out (0: none yet). */
  get lastId(): number {
    return this.seq;
  }

  /** Events after `id`, oldest first (the ones still kept). */
  since(id: number): SessionEvent[] {
    const first = this.log.findIndex((e) => e.id > id);
    return first < 0 ? [] : this.log.slice(first);
  }

  /** Calls `listener` with each new event until the returned function is called. */
  subscribe(listener: (e: SessionEvent) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** Starts a turn for `content`, or continues the waiting one with `targets`. Resolves when it is saved. */
  start(step: { content: string } | { targets: Record<string, unknown> }): Promise<RunSummary> {
    if (this.running) throw new SessionBusyError(this.id);
    const abort = new AbortController();
    if ('content' in step) this.turnStart = this.seq + 1;
    const done = this.run(abort.signal, (signal) =>
      'content' in step ? this.conv.startTurn(step.content, signal) : this.conv.resumeTurn(step.targets, signal),
    ).finally(() => (this.running = undefined));
    this.running = { abort, done };
    return done;
  }

  /** Stops the running turn at its next safe point (saved, resumable); false when none runs. */
  cancel(): boolean {
    if (!this.running) return false;
    this.running.abort.abort();
    return true;
  }

  /** Waits for the running turn to be saved (shutdown). */
  async settle(): Promise<void> {
    await this.running?.done.catch(() => {});
  }

  private publish(event: JsonEvent): void {
    const e = { id: ++this.seq, event };
    this.log.push(e);
    if (this.log.length > EVENT_LOG_LIMIT) this.log.splice(0, this.log.length - EVENT_LOG_LIMIT);
    for (const listener of this.listeners) listener(e);
  }

  private async run(signal: AbortSignal, start: (signal: AbortSignal) => Promise<AsyncIterable<AgentEvent>>): Promise<RunSummary> {
    const sink = new JsonEvents((e) => this.publish(e));
    const conv = this.conv;
    sink.session(conv.id, conv.team.agent.name);
    let summary: RunSummary;
    try {
      summary = await drainRun(await start(signal), sink, signal);
      await conv.finishTurn(summary);
    } catch (e) {
      const error = e as Error;
      sink.error({ agentName: conv.team.agent.name, runPath: [] }, error);
      summary = { status: 'error', output: '', usage: { promptTokens: 0, completionTokens: 0 }, interrupts: [], messages: [], error };
      sink.done(summary, conv.id);
      return summary;
    }
    if (summary.status === 'interrupted') sink.interrupted({ agent: conv.team.agent.name }, conv.record.checkpointId ?? conv.id, summary.interrupts);
    sink.done(summary, conv.id);
    return summary;
  }
}
