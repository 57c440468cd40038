import type { AgentInput } from './agents/events.js';
import type { Message, MessageChunk, Usage } from './schema/message.js';
import type { ModelResponseInfo, ModelTelemetry, ResponseFormat } from './models/chat-model.js';
import type { ToolInfo } from './tools/tool-info.js';

/** Which agent run a callback is about. */
export interface AgentRunInfo {
  agentName: string;
  agentType: string;
  runPath: string[];
}

/** One model request (each retry is a request of its own, with a higher `attempt`). */
export interface ModelCallInfo {
  agentName: string;
  runPath: readonly string[];
  /** The model id, e.g. `gpt-4o-mini`. */
  model: string;
  /** 1 for the first request of this step, 2 for its first retry, … */
  attempt: number;
  messages: readonly Message[];
  tools?: readonly ToolInfo[] | undefined;
  /** Provider, endpoint and settings of this request, when the model tells (ChatModel.telemetry, with the run's model options over it). */
  request?: ModelTelemetry | undefined;
  /** The JSON Schema the answer must match, when the agent has an output schema. */
  responseFormat?: ResponseFormat | undefined;
  /** Filled in as the provider answers: the response's id and the model that answered. */
  response?: ModelResponseInfo | undefined;
  /**
   * On `onModelError` of an attempt that failed mid-stream: what it used, the provider's figures or
   * (usually) adk's estimate of its prompt and of what it streamed before failing.
   */
  usage?: Usage | undefined;
}

/** One tool call, after approval, with the arguments it runs with. */
export interface ToolCallInfo {
  agentName: string;
  runPath: readonly string[];
  tool: string;
  callId: string;
  arguments: unknown;
}

/** How a tool call ended: its result as the model sees it, or `interrupted` when it waits for a person. */
export interface ToolCallOutcome {
  content: string;
  isError: boolean;
  interrupted?: boolean | undefined;
}

/**
 * Observers of a run, at three levels: each agent run, each model request and each tool call
 * (start, streamed chunk, end, error), as Eino's callbacks. Pass them to `Runner.run(…, { callbacks })`;
 * OpenTelemetry tracing is built on them. They observe only: a callback that throws is ignored.
 */
export interface RunCallbacks {
  /** An agent run starts (again after each transfer to it). */
  onStart?(info: AgentRunInfo & { input: AgentInput }): void;
  onEnd?(info: AgentRunInfo): void;
  onError?(info: AgentRunInfo, error: Error): void;
  onModelStart?(info: ModelCallInfo): void;
  /** Each streamed piece of the reply (streaming runs only). */
  onModelChunk?(info: ModelCallInfo, chunk: MessageChunk): void;
  /** The whole reply, with `usage` when the provider reported it. */
  onModelEnd?(info: ModelCallInfo, reply: Message): void;
  onModelError?(info: ModelCallInfo, error: Error): void;
  onToolStart?(info: ToolCallInfo): void;
  onToolEnd?(info: ToolCallInfo, outcome: ToolCallOutcome): void;
  /** The call was stopped (the run was cancelled); failures the model sees are `onToolEnd` with `isError`. */
  onToolError?(info: ToolCallInfo, error: Error): void;
}

/** The agent-level callbacks, under their first name. */
export type AgentCallbacks = RunCallbacks;

type Hook = keyof RunCallbacks;

/** Calls one hook of one set of callbacks; an observer's failure never reaches the run. */
export function fire<K extends Hook>(callbacks: RunCallbacks | undefined, hook: K, ...args: Parameters<NonNullable<RunCallbacks[K]>>): void {
  const fn = callbacks?.[hook] as ((...a: unknown[]) => void) | undefined;
  if (!fn) return;
  try {
    fn.apply(callbacks, args);
  } catch {
    // Observers observe; the run goes on.
  }
}

const HOOKS: Hook[] = ['onStart', 'onEnd', 'onError', 'onModelStart', 'onModelChunk', 'onModelEnd', 'onModelError', 'onToolStart', 'onToolEnd', 'onToolError'];

/** One set of callbacks that calls each of `list` in order. */
export function combineCallbacks(...list: Array<RunCallbacks | undefined>): RunCallbacks | undefined {
  const present = list.filter((c): c is RunCallbacks => !!c);
  if (present.length <= 1) return present[0];
  const out: RunCallbacks = {};
  for (const hook of HOOKS) {
    if (!present.some((c) => c[hook])) continue;
    (out as Record<Hook, unknown>)[hook] = (...args: unknown[]) => {
      for (const c of present) fire(c, hook, ...(args as Parameters<NonNullable<RunCallbacks[typeof hook]>>));
    };
  }
  return out;
}
