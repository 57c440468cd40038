import { StoreError, withRetry, type AdkStores, type PendingInterrupt, type SessionLease, type SessionRecord } from '../core/store/index.js';
import type { ApprovalPolicy } from '../core/agents/run-context.js';
import { ruleAllows } from '../core/agents/allow-rules.js';
import {
  Runner,
  userMessage,
  type AgentEvent,
  type HistoryEntry,
  type InterruptContext,
  type Message,
  type Session,
} from '../core/index.js';
import type { RunSummary } from './event-sink.js';
import { describeInterrupt } from './jsonl-sink.js';
import type { Team } from './team.js';

/** A stored message, tagged with the agent that wrote it (absent for the user's own turns). */
export type HistoryMessage = Message & { agentName?: string };

/**
 * One saved conversation: runs turns and resumes interrupts through the Runner, and keeps the
 * session record (history, status, pending interrupts, usage) saved before and after each step.
 */
export class Conversation {
  private session?: Session;
  /** Told about each failed save that is tried again (the headless run prints it). */
  onSaveRetry?: (error: Error, attempt: number, delayMs: number) => void;

  private constructor(
    readonly stores: AdkStores,
    public team: Team,
    public record: SessionRecord,
    /** This process's lease on the session: one writer per session. */
    readonly lease: SessionLease,
  ) {}

  /** A new session bound to the team's agents file (path and hash) and workspace. `lease` is on its id. */
  static async create(stores: AdkStores, team: Team, lease: SessionLease, init: { title?: string } = {}): Promise<Conversation> {
    const record = await stores.sessions.create({
      id: lease.sessionId,
      rootAgent: team.rootName,
      model: team.modelName,
      agentsFile: team.agentsFile,
      agentsHash: team.agentsHash,
      workspace: team.workspace,
      title: init.title,
    });
    return new Conversation(stores, team, record, lease);
  }

  /** An existing session, read after its lease was taken. */
  static open(stores: AdkStores, team: Team, record: SessionRecord, lease: SessionLease): Conversation {
    return new Conversation(stores, team, record, lease);
  }

  /** Gives the session up for another process. */
  close(): Promise<void> {
    return this.lease.release();
  }

  /** "Always allow": this tool runs without asking for the rest of this session (and when it is resumed). */
  async grant(tool: string): Promise<void> {
    const grants = (this.record.grants ??= []);
    if (grants.includes(tool)) return;
    grants.push(tool);
    await this.save();
  }

  get grants(): readonly string[] {
    return this.record.grants ?? [];
  }

  /** What runs without asking: this session's grants, then the team's allow-list (agents.yaml, adk config). */
  private get approvalPolicy(): ApprovalPolicy {
    return { allows: ({ tool, arguments: args }) => this.grants.includes(tool) || this.team.allowRules.some((r) => ruleAllows(r, tool, args)) };
  }

  /** The run stops if the caller cancels or the lease is lost to another process. */
  private runSignal(signal: AbortSignal): AbortSignal {
    return AbortSignal.any([signal, this.lease.signal]);
  }

  get id(): string {
    return this.record.id;
  }

  private runner(): Runner {
    return new Runner({ agent: this.team.agent, enableStreaming: true, checkpointStore: this.stores.checkpoints });
  }

  /** Starts a new turn. The user's message is saved before the model is called. */
  async startTurn(text: string, signal: AbortSignal): Promise<AsyncIterable<AgentEvent>> {
    await this.abandonStoppedTurn();
    const prior = toHistory(this.record.messages.slice(this.record.contextStart ?? 0) as HistoryMessage[]);
    this.record.messages.push(userMessage(text));
    this.record.status = 'active';
    this.record.pendingInterrupts = [];
    await this.save();
    return this.runner().run([userMessage(text)], {
      signal: this.runSignal(signal),
      history: prior,
      checkpointId: this.id,
      approvalPolicy: this.approvalPolicy,
      onSession: (s) => (this.session = s),
    });
  }

  /**
   * Starts the model's context afresh: later turns do not carry the earlier ones. Nothing is deleted;
   * a stopped turn is closed first, as a new message would close it.
   */
  async clearContext(): Promise<void> {
    await this.abandonStoppedTurn();
    this.record.contextStart = this.record.messages.length;
    this.record.pendingInterrupts = [];
    await this.save();
  }

  /** Continues the interrupted (or cancelled) turn, answering the targeted interrupt points. */
  async resumeTurn(targets: Record<string, unknown>, signal: AbortSignal): Promise<AsyncIterable<AgentEvent>> {
    const checkpointId = this.record.checkpointId ?? this.id;
    this.record.status = 'active';
    await this.save();
    return this.runner().resume(checkpointId, { targets }, { signal: this.runSignal(signal), approvalPolicy: this.approvalPolicy, onSession: (s) => (this.session = s) });
  }

  get pending(): PendingInterrupt[] {
    return this.record.pendingInterrupts;
  }

  /** Saves the waiting questions before anyone sees them, so quitting at a prompt loses nothing. */
  async markInterrupted(contexts: InterruptContext[]): Promise<void> {
    this.record.status = 'interrupted';
    this.record.checkpointId = this.id;
    this.record.pendingInterrupts = contexts.filter((c) => !c.cancelled).map(toPending);
    await this.save();
  }

  /** Records how the turn ended. A finished turn's messages join the history; an interrupted one waits. */
  async finishTurn(summary: RunSummary): Promise<void> {
    const r = this.record;
    r.usage.promptTokens += summary.usage.promptTokens;
    r.usage.completionTokens += summary.usage.completionTokens;
    r.status = summary.status;
    const resumable = summary.status === 'interrupted' || !!summary.cancelledAtCheckpoint;
    r.pendingInterrupts = resumable ? summary.interrupts.map(toPending) : [];
    if (resumable) {
      r.checkpointId = this.id;
      r.pendingTurn = await this.turnMessages();
      await this.save();
      return;
    }
    const finishedCheckpoint = r.checkpointId;
    r.checkpointId = undefined;
    r.pendingTurn = undefined;
    r.messages.push(...closeDanglingCalls(await this.turnMessages()));
    await this.save();
    // A finished turn's checkpoint must not be resumable again: that would re-run approved tools.
    if (finishedCheckpoint) await this.stores.checkpoints.delete(finishedCheckpoint);
  }

  /**
   * A new message after a turn that stopped (a cancel, or questions left unanswered): the stopped
   * turn joins the history as far as it got, each call that never finished answered "cancelled",
   * and its checkpoint is dropped, so the history stays a valid conversation for the model.
   */
  private async abandonStoppedTurn(): Promise<void> {
    const r = this.record;
    if (!r.checkpointId && !r.pendingTurn) return;
    r.messages.push(...closeDanglingCalls((r.pendingTurn ?? []) as HistoryMessage[]));
    const checkpoint = r.checkpointId;
    r.pendingTurn = undefined;
    r.checkpointId = undefined;
    r.pendingInterrupts = [];
    if (checkpoint) await this.stores.checkpoints.delete(checkpoint);
  }

  private async turnMessages(): Promise<HistoryMessage[]> {
    if (!this.session) return [];
    const events = await this.session.materialize();
    return events.filter((e) => e.message).map((e) => ({ ...e.message!, agentName: e.agentName }));
  }

  /**
   * Saves the record. A store that is unreachable (Redis restarting) is tried again with backoff
   * for a few seconds; a lock (SQLite) has already been waited on by the store itself.
   */
  async save(): Promise<void> {
    // The lease went to another process (this one stalled past its ttl): its record is not ours to overwrite.
    if (this.lease.signal.aborted) throw new Error(`session ${this.id} was taken over by another process; this copy of it was not saved there`);
    this.record = await withRetry(() => this.stores.sessions.save(this.record), {
      attempts: SAVE_ATTEMPTS,
      baseDelayMs: 250,
      maxDelayMs: 2000,
      what: `saving session ${this.id}`,
      retryable: (e) => e instanceof StoreError && e.code === 'store_unavailable',
      onRetry: this.onSaveRetry,
    });
  }
}

export const CANCELLED_CALL_RESULT = 'cancelled: this call did not finish because the turn was stopped';

/** Answers every tool call that has no result, right after the message that made it. */
export function closeDanglingCalls(messages: HistoryMessage[]): HistoryMessage[] {
  const answered = new Set(messages.filter((m) => m.role === 'tool').map((m) => `${m.agentName ?? ''}\u0000${m.toolCallId}`));
  const out: HistoryMessage[] = [];
  for (const m of messages) {
    out.push(m);
    for (const c of m.role === 'assistant' ? (m.toolCalls ?? []) : []) {
      if (answered.has(`${m.agentName ?? ''}\u0000${c.id}`)) continue;
      out.push({ role: 'tool', content: CANCELLED_CALL_RESULT, toolCallId: c.id, toolName: c.function.name, isError: true, agentName: m.agentName });
    }
  }
  return out;
}

/** Attempts per save: the waits between them add up to 2-4 s. */
export const SAVE_ATTEMPTS = 5;

/** Stored messages as the Runner's prior history: user turns are user input; the rest keep their agent. */
export function toHistory(messages: HistoryMessage[]): HistoryEntry[] {
  return messages.map(({ agentName, ...message }) => ({
    isUserInput: !agentName,
    agentName: agentName ?? '',
    message,
  }));
}

export function toPending(c: InterruptContext): PendingInterrupt {
  return describeInterrupt(c) as PendingInterrupt;
}
