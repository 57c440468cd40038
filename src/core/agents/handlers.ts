import type { AgentAction } from './events.js';
import type { InterruptSignal, ResumeInfo } from '../interrupt.js';
import type { ModelCallOptions } from '../models/chat-model.js';
import type { Message, ToolCall } from '../schema/message.js';
import type { SubRun } from '../schema/message.js';

/**
 * The two calls an agent makes, as the layers around them see them: a model call and a tool call.
 * Middlewares wrap them (wrapModel, wrapToolCall) and so does the run's journal; neither needs more
 * of the run than this.
 */

/** One model call as `wrapModel` sees it: messages and call options in, the whole reply out. */
export type ModelHandler = (messages: Message[], options: ModelCallOptions) => Promise<Message>;

/** One tool call as `wrapToolCall` sees it. */
export interface ToolCallRequest {
  call: ToolCall;
  /** Parsed arguments to use instead of the call's own (a person's edit, a middleware's rewrite). */
  arguments?: unknown | undefined;
  /** This call's interrupt point when the run resumes. */
  resume: ResumeInfo;
  /** The call's interrupt address, e.g. `agent:assistant;tool:shell:call_1`. */
  address: string;
  /**
   * What a layer outside approval decided about asking a person (a PreToolUse hook's
   * `permissionDecision`): `allow` runs the call without asking (deny rules still refuse it),
   * `ask` asks even where a grant or the mode would have let it run.
   */
  permission?: 'allow' | 'ask' | undefined;
}

/** Runs one tool call and gives its result; the handler `wrapToolCall` wraps. */
export type ToolCallHandler = (request: ToolCallRequest) => Promise<ToolCallResult>;

/** How a tool call ended: a result for the model (with any action), or an interrupt for a person. */
export type ToolCallResult =
  | { kind: 'done'; content: string; isError: boolean; action?: AgentAction; arguments?: unknown; edited?: boolean; replayed?: boolean; structured?: unknown; subRun?: SubRun }
  | { kind: 'interrupt'; info: unknown; state?: unknown; subs?: InterruptSignal[] };
