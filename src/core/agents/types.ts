import type { InterruptAction, ResumeInfo } from '../interrupt.js';
import type { Message } from '../schema/message.js';
import type { MessageStream } from '../schema/message-stream.js';
import type { RunContext } from './run-context.js';

export interface AgentInput {
  messages: Message[];
  enableStreaming?: boolean;
}

/** A whole message or a stream of chunks, tagged with who produced it. */
export interface MessageVariant {
  isStreaming: boolean;
  message?: Message;
  stream?: MessageStream;
  /** `assistant` for model output, `tool` for tool results. */
  role: 'assistant' | 'tool';
  /** Set when role is `tool`: lets a consumer know the tool before reading a stream. */
  toolName?: string;
  toolCallId?: string;
}

export interface TransferToAgentAction {
  destAgentName: string;
}

export interface BreakLoopAction {
  from: string;
  done: boolean;
  currentIterations: number;
}

export interface AgentAction {
  exit?: boolean;
  interrupted?: InterruptAction;
  transferToAgent?: TransferToAgentAction;
  breakLoop?: BreakLoopAction;
  custom?: unknown;
}

/** A retry of a failed model call, visible to the UI and to `adk run --json`. */
export interface RetryNotice {
  attempt: number;
  delayMs: number;
  error: string;
}

export interface AgentEvent {
  agentName: string;
  runPath: string[];
  /** `structured`: the final answer parsed and checked against the agent's output schema. */
  output?: { message?: MessageVariant; custom?: unknown; structured?: unknown };
  action?: AgentAction;
  error?: Error;
  retry?: RetryNotice;
}

export interface Agent {
  readonly name: string;
  readonly description: string;
  /** Shown in callbacks and `adk agents`: ChatModel, Sequential, Parallel, Loop, Supervisor, … */
  readonly type?: string;
  /** Never throws: failures arrive as events with `error`. */
  run(input: AgentInput, ctx?: RunContext): AsyncIterable<AgentEvent>;
  /** Continues after an interrupt. `info` describes this agent's own interrupt point. */
  resume?(info: ResumeInfo, ctx?: RunContext): AsyncIterable<AgentEvent>;
}

/** An agent that knows about its place in a multi-agent tree (Eino's OnSubAgents). */
export interface SubAgentAware {
  onSetSubAgents(subAgents: Agent[]): void;
  onSetAsSubAgent(parent: Agent): void;
  onDisallowTransferToParent(): void;
}

export function isSubAgentAware(a: unknown): a is SubAgentAware {
  return typeof (a as SubAgentAware)?.onSetSubAgents === 'function';
}

export function messageEvent(message: Message, toolName?: string): AgentEvent {
  return {
    agentName: '',
    runPath: [],
    output: {
      message: {
        isStreaming: false,
        message,
        role: message.role === 'tool' ? 'tool' : 'assistant',
        toolName: toolName ?? message.toolName,
        toolCallId: message.toolCallId,
      },
    },
  };
}

export function streamEvent(stream: MessageStream, role: 'assistant' | 'tool' = 'assistant', toolName?: string): AgentEvent {
  return { agentName: '', runPath: [], output: { message: { isStreaming: true, stream, role, toolName } } };
}

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

export const sameRunPath = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((x, i) => x === b[i]);
