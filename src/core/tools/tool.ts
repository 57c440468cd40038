import type { ZodType } from 'zod';
import type { RunContext } from '../agents/run-context.js';
import type { AgentAction, AgentEvent } from '../agents/types.js';
import type { InterruptDetails, InterruptSignal, ResumeInfo } from '../interrupt.js';
import type { Message } from '../schema/message.js';

export type JsonSchema = Record<string, unknown>;

/** What the model is told about a tool. */
export interface ToolInfo {
  name: string;
  description: string;
  parameters: JsonSchema;
}

export interface ToolContext {
  /** Aborts when the run is cancelled or the tool's own timeout passes. */
  signal: AbortSignal;
  callId: string;
  agentName: string;
  runPath: string[];
  /** Shared run values (`outputKey`, `{Key}` placeholders). */
  sessionValues: Record<string, unknown>;
  /** This call's own resume info when the run is being resumed. */
  resume: ResumeInfo;
  /** Stops the run here for a person; the run can later be resumed with data for this point. */
  interrupt(info: InterruptDetails | unknown, state?: unknown): never;
  /** Attaches an action (transfer, exit, break loop) to this call's result event. */
  sendAction(action: AgentAction): void;
  /** Forwards an event (e.g. an inner agent's) to the caller's stream. */
  emit(event: AgentEvent): void;
  /** The calling agent's run context (address, resume data, streaming), when an agent makes the call. */
  runContext?: RunContext;
  /** The calling agent's conversation so far, ending with the assistant message that made this call. */
  messages?: readonly Message[];
}

export interface ToolOutput {
  content: string;
  isError?: boolean;
}

export interface Tool<Args = any> {
  name: string;
  description: string;
  /** A zod schema or a JSON schema for the arguments object. */
  parameters: ZodType<Args> | JsonSchema;
  execute(args: Args, ctx: ToolContext): Promise<string | ToolOutput> | string | ToolOutput;
  /** Per-call timeout; the executor's default applies when unset. */
  timeoutMs?: number;
}

/** Identity helper that infers argument types from a zod schema. */
export function defineTool<Args>(tool: Tool<Args>): Tool<Args> {
  return tool;
}

/** Thrown by `ctx.interrupt()`; caught by the tool executor, never seen by users. */
export class ToolInterrupt {
  constructor(
    readonly info: unknown,
    readonly state?: unknown,
    /** Interrupts of whatever ran inside the tool (an agent tool's inner agents). */
    readonly subs?: InterruptSignal[],
  ) {}
}
