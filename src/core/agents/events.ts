import type { InterruptAction, ResumeInfo } from '../interrupt.js';
import type { Message } from '../schema/message.js';
import type { MessageStream } from '../schema/message-stream.js';

/** What an agent run starts from: the conversation so far, and whether model replies should stream. */
export interface AgentInput {
  messages: Message[];
  enableStreaming?: boolean | undefined;
}

/** A whole message or a stream of chunks, tagged with who produced it. */
export interface MessageVariant {
  isStreaming: boolean;
  message?: Message | undefined;
  stream?: MessageStream | undefined;
  /** `assistant` for model output, `tool` for tool results, `user` for a message the person sent into the running turn. */
  role: 'assistant' | 'tool' | 'user';
  /** Set when role is `tool`: lets a consumer know the tool before reading a stream. */
  toolName?: string | undefined;
  toolCallId?: string | undefined;
}

/** Hand the conversation to the agent named `destAgentName` (emitted by the transfer tool). */
export interface TransferToAgentAction {
  destAgentName: string;
}

/**
 * Stop the enclosing LoopAgent. `from` is the agent that asked; the loop that handles it sets
 * `done` and the iteration it stopped in, so outer loops ignore it.
 */
export interface BreakLoopAction {
  from: string;
  done: boolean;
  currentIterations: number;
}

/** A control action carried by an event: exit the run, wait for a person, transfer, break a loop, or something custom. */
export interface AgentAction {
  exit?: boolean | undefined;
  interrupted?: InterruptAction | undefined;
  transferToAgent?: TransferToAgentAction | undefined;
  breakLoop?: BreakLoopAction | undefined;
  custom?: unknown | undefined;
}

/** A retry of a failed model call, visible to the UI and to `adk run --json`. */
export interface RetryNotice {
  attempt: number;
  delayMs: number;
  error: string;
}

/**
 * One item of an agent's event stream: output (a message, a stream or a custom value), an action,
 * an error or a retry notice. `runPath` lists the agents it passed through.
 */
export interface AgentEvent {
  agentName: string;
  runPath: string[];
  /** `structured`: the final answer parsed and checked against the agent's output schema. */
  output?: { message?: MessageVariant; custom?: unknown; structured?: unknown } | undefined;
  action?: AgentAction | undefined;
  error?: Error | undefined;
  retry?: RetryNotice | undefined;
  /** Handed back by the run's journal from an earlier attempt of the same turn: already shown once. */
  replayed?: boolean | undefined;
}

/**
 * An event carrying a whole message; the role is `tool` for tool results, `user` for the person's, else `assistant`.
 * `agentName` and `runPath` are left empty for the caller to fill.
 */
export function messageEvent(message: Message, toolName?: string): AgentEvent {
  return {
    agentName: '',
    runPath: [],
    output: {
      message: {
        isStreaming: false,
        message,
        role: message.role === 'tool' || message.role === 'user' ? message.role : 'assistant',
        toolName: toolName ?? message.toolName,
        toolCallId: message.toolCallId,
      },
    },
  };
}

/** An event carrying a message stream (assistant by default). `agentName` and `runPath` are left empty. */
export function streamEvent(stream: MessageStream, role: 'assistant' | 'tool' = 'assistant', toolName?: string): AgentEvent {
  return { agentName: '', runPath: [], output: { message: { isStreaming: true, stream, role, toolName } } };
}

/** An event reporting `error`, as agents do instead of throwing. */
export function errorEvent(error: Error, agentName = ''): AgentEvent {
  return { agentName, runPath: [], error };
}

/** The event's message, waiting for a stream to finish. */
export async function eventMessage(e: AgentEvent): Promise<Message | undefined> {
  const v = e.output?.message;
  if (!v) return undefined;
  if (v.message) return v.message;
  return v.stream?.collect();
}

/** True when both run paths list the same agents in the same order. */
export const sameRunPath = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((x, i) => x === b[i]);
