import type { ZodType } from 'zod';
import type { RunContext } from '../agents/run-context.js';
import type { AgentAction, AgentEvent } from '../agents/events.js';
import type { InterruptDetails, InterruptSignal, ResumeInfo } from '../interrupt.js';
import type { Message } from '../schema/message.js';

import type { JsonSchema } from './tool-info.js';
import type { SubRun } from '../schema/message.js';

export type { JsonSchema, ToolInfo } from './tool-info.js';

/** What a tool's `execute` gets besides its arguments: cancellation, the call, the run, and ways to interrupt or act. */
export interface ToolContext {
  /** Aborts when the run is cancelled or the tool's own timeout passes. */
  signal: AbortSignal;
  callId: string;
  agentName: string;
  runPath: string[];
  /** Shared run values (`outputKey`, `{Key}` placeholders); typed access with `getSessionValue` / `setSessionValue`. */
  sessionValues: Record<string, unknown>;
  /**
   * The run's tool options for the calling agent (Eino's WithToolOptions: the Runner's `toolOptions`,
   * and `agents[name].toolOptions` over them); `{}` when the run gives none. Read the keys you know.
   */
  options: Readonly<Record<string, unknown>>;
  /** This call's own resume info when the run is being resumed. */
  resume: ResumeInfo;
  /** Stops the run here for a person; the run can later be resumed with data for this point. */
  interrupt(info: InterruptDetails | unknown, state?: unknown): never;
  /** Attaches an action (transfer, exit, break loop) to this call's result event. */
  sendAction(action: AgentAction): void;
  /** Forwards an event (e.g. an inner agent's) to the caller's stream. */
  emit(event: AgentEvent): void;
  /** The calling agent's run context (address, resume data, streaming), when an agent makes the call. */
  runContext?: RunContext | undefined;
  /** The calling agent's conversation so far, ending with the assistant message that made this call. */
  messages?: readonly Message[] | undefined;
}

/** A tool result: its text for the model, and whether it reports a failure. */
export interface ToolOutput {
  content: string;
  isError?: boolean | undefined;
  /** The same result as data (an MCP tool's structuredContent): kept on the tool message, shown by `adk run --json`. */
  structured?: unknown;
  /** An agent tool's inner run: kept on the tool message for trajectories (`adk sessions export`), never sent to a model. */
  subRun?: SubRun | undefined;
}

/** A tool an agent can call: name, description, arguments schema (zod or JSON Schema) and `execute`. Declare one with `defineTool` to get typed arguments. */
export interface Tool<Args = any> {
  name: string;
  description: string;
  /** A zod schema or a JSON schema for the arguments object. */
  parameters: ZodType<Args> | JsonSchema;
  execute(args: Args, ctx: ToolContext): Promise<string | ToolOutput> | string | ToolOutput;
  /**
   * Changes nothing outside the run (reads, searches, asks, plans, hands over): such a tool runs in
   * a read-only mode (plan mode). A tool that does not say so is taken to change something.
   */
  readOnly?: boolean | undefined;
  /** Per-call timeout; the executor's default applies when unset. */
  timeoutMs?: number | undefined;
  /**
   * What the call would change, for the person asked to approve it: a unified diff (edit_file,
   * write_file). Read-only; a failure just leaves the preview out.
   */
  preview?(args: Args, ctx: { signal: AbortSignal }): Promise<string | undefined>;
  /**
   * Why the call would fail as it stands (edit_file: `old` is not in the file), found without
   * changing anything. Asked before a person is asked to approve the call: the model gets this as
   * the call's result instead, and nobody approves a call that cannot work. Undefined: it may run.
   */
  check?(args: Args, ctx: { signal: AbortSignal }): Promise<string | undefined>;
}

/** A JSON Schema for a tool's arguments: an object schema. */
export interface JsonObjectSchema {
  type: 'object';
  properties?: Readonly<Record<string, unknown>>;
  required?: readonly string[];
  [key: string]: unknown;
}

/**
 * The arguments a JSON Schema describes, as a type: objects (required and optional properties),
 * arrays, strings, numbers and integers, booleans, null, `enum` and `const`. Anything else is `unknown`.
 */
export type JsonSchemaArgs<S> = S extends { enum: readonly (infer E)[] }
  ? E
  : S extends { const: infer C }
    ? C
    : S extends { type: 'string' }
      ? string
      : S extends { type: 'number' | 'integer' }
        ? number
        : S extends { type: 'boolean' }
          ? boolean
          : S extends { type: 'null' }
            ? null
            : S extends { type: 'array'; items: infer I }
              ? JsonSchemaArgs<I>[]
              : S extends { type: 'object'; properties: infer P }
                ? ObjectArgs<P, S extends { required: readonly (infer R)[] } ? R : never>
                : S extends { type: 'object' }
                  ? Record<string, unknown>
                  : unknown;

type ObjectArgs<P, R> = Simplify<{ -readonly [K in keyof P as K extends R ? K : never]: JsonSchemaArgs<P[K]> } & { -readonly [K in keyof P as K extends R ? never : K]?: JsonSchemaArgs<P[K]> | undefined }>;
type Simplify<T> = { [K in keyof T]: T[K] };

/**
 * Declares a tool with typed arguments: inferred from a zod schema, or from a JSON Schema written
 * inline (`{ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }` gives
 * `{ city: string }`). Returns the tool as it is.
 */
export function defineTool<Args>(tool: Tool<Args> & { parameters: ZodType<Args> }): Tool<Args>;
export function defineTool<const S extends JsonObjectSchema>(
  tool: Omit<Tool<JsonSchemaArgs<S>>, 'parameters'> & { parameters: S },
): Tool<JsonSchemaArgs<S>>;
export function defineTool<Args>(tool: Tool<Args>): Tool<Args>;
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
