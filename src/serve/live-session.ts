import { rewindConversation } from '../core/conversation/rewind.js';
import type { AgentEvent } from '../core/agents/types.js';
import type { Conversation } from '../core/conversation/conversation.js';
import type { RunSummary } from '../core/conversation/drain-run.js';
import type { JsonEvent } from '../core/conversation/json-events.js';
import type { ConversationTeam } from '../core/conversation/team.js';
import type { SessionRecord } from '../core/store/session-record.js';
import { EVENT_LOG_LIMIT, ServerStoppingError, SessionBusyError, type ServedSession, type SessionEvent, type TurnStep } from './served-session.js';
import { runTurn } from './turn-run.js';

export { EVENT_LOG_LIMIT, SessionBusyError, type SessionEvent } from './served-session.js';

/**
 * A session whose turns run in this process: its conversation (leased by this process), the events
 * of its turns numbered in order, the clients listening, and the turn running, if any. A client
 * that goes away does not stop a turn; `cancel()` does.
 */
export class LiveSession implements ServedSession {
  private seq = 0;
  private readonly log: SessionEvent[] = [];
  private readonly listeners = new Set<(e: SessionEvent) => void>();
  private running?: { abort: AbortController; done: Promise<RunSummary> } | undefined;
  private turnStart = 1;
  private lastActive = Date.now();
  /** Set once let go (the server stopping, the session deleted): why a request that still held it starts nothing. */
  private refusal?: (() => Error) | undefined;

  constructor(
    readonly conv: Conversation<ConversationTeam>,
    private readonly team?: { close?(): Promise<void> },
  ) {}

  /** Gives the session's lease up and closes its team (MCP servers, background jobs); later turns get `refusal`'s error. */
  async close(refusal: () => Error = () => new ServerStoppingError()): Promise<void> {
    this.refusal = refusal;
    await this.conv.close();
    await this.team?.close?.();
  }

  get id(): string {
    return this.conv.id;
  }

  async record(): Promise<SessionRecord> {
    return { ...this.conv.record, messages: [...this.conv.history] };
  }

  async busy(): Promise<boolean> {
    return !!this.running;
  }

  async turnFrom(): Promise<number> {
    return this.turnStart;
  }

  async lastId(): Promise<number> {
    return this.seq;
  }

  async since(id: number): Promise<SessionEvent[]> {
    const first = this.log.findIndex((e) => e.id > id);
    return first < 0 ? [] : this.log.slice(first);
  }

  async subscribe(listener: (e: SessionEvent) => void): Promise<() => void> {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
      this.lastActive = Date.now();
    };
  }

  /** A request is using it: it is not idle. */
  touch(): void {
    this.lastActive = Date.now();
  }

  /** Nothing runs, nobody listens, and nothing happened for `ms`: the hub may let it go. */
  idleFor(ms: number, now = Date.now()): boolean {
    return !this.running && this.listeners.size === 0 && now - this.lastActive >= ms;
  }

  async start(step: TurnStep): Promise<void> {
    void this.run(step).catch(() => {});
  }

  /** Starts a turn for `content`, or continues the waiting one with `targets`. Resolves when it is saved. */
  run(step: TurnStep): Promise<RunSummary> {
    if (this.refusal) throw this.refusal();
    if (this.running) throw new SessionBusyError(this.id);
    const abort = new AbortController();
    if ('content' in step) this.turnStart = this.seq + 1;
    const start = async (signal: AbortSignal): Promise<AsyncIterable<AgentEvent>> => {
      if (!('content' in step)) return this.resume(step, signal);
      if (step.rewindTo !== undefined) await rewindConversation(this.conv, step.rewindTo);
      return this.conv.startTurn({ text: step.content, parts: step.parts }, signal, undefined, step.options ?? {});
    };
    // The session is free before `done` is seen: a client that answers at once is not told it is busy.
    const done = runTurn(this.conv, start, abort.signal, (e) => this.publish(e), () => void (this.running = undefined), step.options ?? {});
    this.running = { abort, done };
    return done;
  }

  private async resume(step: Extract<TurnStep, { targets: unknown }>, signal: AbortSignal): Promise<AsyncIterable<AgentEvent>> {
    for (const tool of step.grants ?? []) await this.conv.grant(tool);
    return this.conv.resumeTurn(step.targets, signal, undefined, step.options ?? {});
  }

  async cancel(): Promise<boolean> {
    if (!this.running) return false;
    this.running.abort.abort();
    return true;
  }

  /** Waits for the running turn to be saved (shutdown). */
  async settle(): Promise<void> {
    await this.running?.done.catch(() => {});
  }

  private publish(event: JsonEvent): void {
    this.lastActive = Date.now();
    const e = { id: ++this.seq, event };
    this.log.push(e);
    if (this.log.length > EVENT_LOG_LIMIT) this.log.splice(0, this.log.length - EVENT_LOG_LIMIT);
    for (const listener of this.listeners) listener(e);
  }
}
