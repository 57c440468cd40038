import type { ResumeInfo } from '../interrupt.js';
import type { AgentEvent, AgentInput } from './events.js';
import type { RunContext } from './run-context.js';

// The event vocabulary sits below the run context (tools and callbacks speak it); agents above both.
export * from './events.js';

/**
 * Anything that runs as an agent: a chat agent, a workflow, a prebuilt team. Runs yield events rather
 * than return a value. `Structured` is the type of `RunResult.structured` when it answers a run.
 */
export interface Agent<Structured = unknown> {
  readonly name: string;
  readonly description: string;
  /** Shown in callbacks and `adk agents`: ChatModel, Sequential, Parallel, Loop, Supervisor, … */
  readonly type?: string | undefined;
  /** Never throws: failures arrive as events with `error`. */
  run(input: AgentInput, ctx?: RunContext): AsyncIterable<AgentEvent>;
  /** Continues after an interrupt. `info` describes this agent's own interrupt point. */
  resume?(info: ResumeInfo, ctx?: RunContext): AsyncIterable<AgentEvent>;
  /**
   * Type only, never set at run time: what `RunResult.structured` holds when this agent gives the
   * run's answer (a ChatModelAgent's is its zod `outputSchema`'s type), so `new Runner({ agent })`
   * types its results.
   */
  readonly structuredType?: Structured | undefined;
}

/** An agent that knows about its place in a multi-agent tree (Eino's OnSubAgents). */
export interface SubAgentAware {
  onSetSubAgents(subAgents: Agent[]): void;
  onSetAsSubAgent(parent: Agent): void;
  onDisallowTransferToParent(): void;
}

/** True when the agent implements SubAgentAware (checked by its `onSetSubAgents` method). */
export function isSubAgentAware(a: unknown): a is SubAgentAware {
  return typeof (a as SubAgentAware)?.onSetSubAgents === 'function';
}
