import type { AddressSegment, ResumeContext } from '../interrupt.js';
import { Session } from './session.js';
import type { HistoryEntry } from './history.js';
import type { AgentInput } from './types.js';

export interface AgentRunInfo {
  agentName: string;
  agentType: string;
  runPath: string[];
}

/** Observers of each agent run (fired by the flow layer, once per agent run, including after transfer). */
export interface AgentCallbacks {
  onStart?(info: AgentRunInfo & { input: AgentInput }): void;
  onEnd?(info: AgentRunInfo): void;
  onError?(info: AgentRunInfo, error: Error): void;
}

/** Everything an agent run shares with the agents it runs: position, history, values, cancellation. */
export interface RunContext {
  runPath: string[];
  address: AddressSegment[];
  session: Session;
  rootInput?: AgentInput;
  /** Earlier turns of the conversation, replayed before the root input when inputs are rebuilt. */
  priorHistory?: HistoryEntry[];
  signal: AbortSignal;
  enableStreaming: boolean;
  callbacks?: AgentCallbacks;
  resume?: ResumeContext;
  /** Counts transfers in this run so a transfer loop is bounded. */
  transfers: { count: number; max: number };
}

export const DEFAULT_MAX_TRANSFERS = 50;

export function createRunContext(partial: Partial<RunContext> = {}): RunContext {
  return {
    runPath: [],
    address: [],
    session: new Session(),
    signal: new AbortController().signal,
    enableStreaming: false,
    transfers: { count: 0, max: DEFAULT_MAX_TRANSFERS },
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
