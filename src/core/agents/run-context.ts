import type { RunBudget } from './run-budget.js';
import type { AddressSegment, ResumeContext } from '../interrupt.js';
import { CallIds } from './call-ids.js';
import { Session } from './session.js';
import type { HistoryEntry } from './history.js';
import type { AgentInput } from './events.js';
import type { RunCallbacks } from '../callbacks.js';
import type { RunJournal } from './run-journal.js';
import type { ModelOptions } from '../models/chat-model.js';

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
  /** The run's model and tool options (the Runner's `modelOptions`, `toolOptions` and `agents`); see `callOptionsFor`. */
  callOptions?: CallOptions | undefined;
  /** The run's caps on model calls, tool calls and tokens, shared by every agent of the run. */
  budget?: RunBudget | undefined;
}

/** The model and tool options of one agent's calls (Eino's WithChatModelOptions and WithToolOptions). */
export interface AgentCallOptions {
  /** Laid over the model's own settings in every model request (temperature, maxTokens, …). */
  modelOptions?: ModelOptions | undefined;
  /** Given to every tool call as `ctx.options`: each tool reads the keys it knows (e.g. its own name's). */
  toolOptions?: Record<string, unknown> | undefined;
}

/**
 * Model and tool options of a run, for every agent, and for agents by name (Eino's `DesignateAgent`):
 *
 * ```ts
 * runner.query('Write it', {
 *   modelOptions: { temperature: 0 },                                  // every agent's model requests
 *   toolOptions: { shell: { dryRun: true } },                          // every agent's tool calls (ctx.options)
 *   agents: { writer: { modelOptions: { temperature: 0.8, maxTokens: 2000 } } }, // only the agent named writer
 * });
 * ```
 *
 * An agent named in `agents` gets the shared options with its own laid over them, key by key.
 * ChatModelAgent applies them; a custom agent reads its own with `callOptionsFor(ctx, name)`.
 */
export interface CallOptions extends AgentCallOptions {
  agents?: Record<string, AgentCallOptions> | undefined;
}

/** The model and tool options that reach `agentName`'s calls in this run (the shared ones, its own over them). */
export function callOptionsFor(ctx: Pick<RunContext, 'callOptions'>, agentName: string): { modelOptions: ModelOptions; toolOptions: Record<string, unknown> } {
  const all = ctx.callOptions;
  const own = all?.agents && Object.prototype.hasOwnProperty.call(all.agents, agentName) ? all.agents[agentName] : undefined;
  return {
    modelOptions: { ...all?.modelOptions, ...own?.modelOptions },
    toolOptions: { ...all?.toolOptions, ...own?.toolOptions },
  };
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
  /**
   * Why this call may not run at all just now (a read-only mode), told to the model as the call's
   * result; undefined lets it through to approval as usual. Asked for every tool call, gated or not.
   */
  refuses?(call: { tool: string; arguments: unknown; agentName: string; readOnly: boolean }): string | undefined;
  /**
   * Calls that ask every time, even when a PreToolUse hook allowed them (Claude Code's ask rules;
   * adk's shell when its wanted sandbox cannot be made). `allows` already answers false for them.
   */
  alwaysAsks?(call: { tool: string; arguments: unknown; agentName: string }): boolean;
  /**
   * Settles once `allows` and `alwaysAsks` can answer for sure (adk's sandbox probe has answered):
   * awaited before a gated call is decided, so nothing before the first tool call (the first model
   * request) waits for it.
   */
  ready?(): Promise<unknown>;
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
