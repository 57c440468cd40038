import type { AddressSegment, ResumeContext } from '../interrupt.js';
import { CallIds } from './call-ids.js';
import { Session } from './session.js';
import type { HistoryEntry } from './history.js';
import type { AgentInput } from './events.js';
import type { RunCallbacks } from '../callbacks.js';
import type { RunJournal } from './run-journal.js';

export type { AgentRunInfo, AgentCallbacks } from '../callbacks.js';

/** Everything an agent run shares with the agents it runs: position, history, values, cancellation. */
export interface RunContext {
  runPath: string[];
  address: AddressSegment[];
  session: Session;
  rootInput?: AgentInput | undefined;
  /** Earlier turns of the conversation, replayed before the root input when inputs are rebuilt. */
  priorHistory?: HistoryEntry[] | undefined;
  signal: AbortSignal;
  enableStreaming: boolean;
  /** Observers of agent runs, model requests and tool calls (the Runner's `callbacks` and tracing). */
  callbacks?: RunCallbacks | undefined;
  resume?: ResumeContext | undefined;
  /** Counts transfers in this run so a transfer loop is bounded. */
  transfers: { count: number; max: number };
  /** Tool-call ids handed out in this run (shared by every agent of the run). */
  callIds: CallIds;
  /** Approvals a person granted ahead of time (a session's "always allow", a project allow-list). */
  approvalPolicy?: ApprovalPolicy | undefined;
  /** Records, durably, that an approved side effect is about to start (at most once across crashes). */
  sideEffects?: SideEffectLedger | undefined;
  /** Session-scoped storage for large texts a middleware keeps out of the context (whole tool results). */
  artifacts?: ArtifactStore | undefined;
  /** Messages the person sent while the run works, taken at the next safe point (Eino's TurnLoop Push). */
  inbox?: RunInbox | undefined;
  /** Model replies and tool results recorded as they happen, replayed by a later attempt of the turn (workers). */
  journal?: RunJournal | undefined;
  /** Values never sent to a model: tool results and model requests are redacted (the Runner's `secrets`). */
  secrets?: (() => readonly string[]) | undefined;
}

/** Where whole results are kept: the session's store (the CLI), else the run's own values. */
export interface ArtifactStore {
  put(id: string, text: string): Promise<void>;
  get(id: string): Promise<string | undefined>;
}

/**
 * Where a running turn finds messages the person sent after it started. An agent takes them after a
 * batch of tool calls, before its next model call; what is never taken is the caller's to send later.
 */
export interface RunInbox {
  /** Removes and returns the waiting messages (none: an empty array). */
  take(): string[] | Promise<string[]>;
}

/** Decides whether a call that needs approval may run without asking. */
export interface ApprovalPolicy {
  allows(call: { tool: string; arguments: unknown; agentName: string }): boolean;
}

/** The Runner's record of approved calls that started; a crash between start and the next save leaves it behind. */
export interface SideEffectLedger {
  /** Whether the call at this interrupt address started in an earlier attempt. */
  started(address: string): boolean;
  /** Awaited before the call starts. */
  markStarted(address: string): Promise<void>;
}

/** Transfers allowed in one run unless the Runner sets `maxTransfers`. */
export const DEFAULT_MAX_TRANSFERS = 50;

/** A run context with defaults (a fresh session, a signal that never aborts): for running an agent without a Runner, e.g. in tests. */
export function createRunContext(partial: Partial<RunContext> = {}): RunContext {
  return {
    runPath: [],
    address: [],
    session: new Session(),
    signal: new AbortController().signal,
    enableStreaming: false,
    transfers: { count: 0, max: DEFAULT_MAX_TRANSFERS },
    callIds: new CallIds(),
    ...partial,
  };
}

/** The context of an agent run inside `ctx`: run path and address both grow by the agent. */
export function enterAgent(ctx: RunContext, name: string, input?: AgentInput): RunContext {
  const next: RunContext = {
    ...ctx,
    runPath: [...ctx.runPath, name],
    address: [...ctx.address, { type: 'agent', id: name }],
  };
  if (ctx.runPath.length === 0 && input && !ctx.rootInput) next.rootInput = input;
  return next;
}
