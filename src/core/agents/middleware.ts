import type { ChatModel } from '../models/chat-model.js';
import type { Message } from '../schema/message.js';
import type { ModelHandler, ToolCallHandler } from './handlers.js';
import type { Tool, ToolInfo } from '../tools/tool.js';
import type { RunContext } from './run-context.js';

export type { ModelHandler, ToolCallHandler, ToolCallRequest, ToolCallResult } from './handlers.js';

/**
 * Middlewares on ChatModelAgent, after Eino's ChatModelAgentMiddleware (adk/handler.go): hooks
 * around the agent run, around each model call and around each tool call. They are how adk itself
 * does approvals, output caps, summarisation and tool-result reduction.
 *
 * Order: `before*` hooks run first to last; `after*` hooks last to first; `wrap*` makes the first
 * middleware the outermost layer.
 */
export interface AgentMiddleware {
  /** Shown in errors and custom events. */
  readonly name: string;
  /**
   * Wraps tool calls outside approval (ChatModelAgent otherwise puts approval outermost): for
   * checks that must decide before a person is asked, such as PreToolUse hooks.
   */
  readonly beforeApproval?: boolean | undefined;
  /** Once per run (and per resume): may change the instruction and add tools. */
  beforeAgent?(ctx: MiddlewareContext, setup: AgentSetup): AgentSetup | void | Promise<AgentSetup | void>;
  /** When the run ends, however it ends (`error` set on failure, `interrupted` when it waits for a person). */
  afterAgent?(ctx: MiddlewareContext, state: AgentState, end: AgentEnd): void | Promise<void>;
  /**
   * Before each model call. May change `state.messages` (what is kept for the rest of the run and
   * saved in checkpoints) and return the request for this call only (messages and tools).
   */
  beforeModel?(ctx: MiddlewareContext, state: AgentState, request: ModelRequest): ModelRequest | void | Promise<ModelRequest | void>;
  /** After each model reply, before its tool calls run. */
  afterModel?(ctx: MiddlewareContext, state: AgentState, reply: Message): void | Promise<void>;
  /**
   * When the model gave its final answer (no tool calls) and the run is about to end with it: may
   * return text that sends the run on instead. The text reaches the model as a user message and the
   * loop calls it again (a Stop hook that blocks, as in Claude Code). A middleware that continues a
   * run is the one to cap how often: the agent only stops when its iterations run out.
   */
  beforeStop?(ctx: MiddlewareContext, state: AgentState, reply: Message): StopVerdict | void | Promise<StopVerdict | void>;
  /**
   * Before the run's context is compacted (summarised) on its own, because it grew past a threshold:
   * a middleware that compacts calls `ctx.compacting` first, which runs this of every middleware
   * (PreCompact hooks). Awaited; it cannot stop the compaction.
   */
  beforeCompact?(ctx: MiddlewareContext, info: CompactInfo): void | Promise<void>;
  /** Wraps the model call (retries and streaming are inside `next`). */
  wrapModel?(next: ModelHandler, ctx: MiddlewareContext): ModelHandler;
  /** Wraps each tool call: may answer without calling `next`, change the arguments, or change the result. */
  wrapToolCall?(next: ToolCallHandler, ctx: MiddlewareContext): ToolCallHandler;
}

/** The instruction and tools an agent run starts with; `beforeAgent` may return a changed copy. */
export interface AgentSetup {
  instruction: string;
  tools: Tool[];
}

/** The agent's working state during a run, shared by the model and agent hooks. */
export interface AgentState {
  /** The conversation as the agent keeps it (system prompt first). */
  messages: Message[];
  remainingIterations: number;
}

/** How the agent run ended, as `afterAgent` sees it: its final output, the error it failed with, or that it is waiting for a person. */
export interface AgentEnd {
  output?: string | undefined;
  error?: Error | undefined;
  interrupted?: boolean | undefined;
}

/** What `beforeStop` decides: go on with `continueWith` as the next user message. */
export interface StopVerdict {
  continueWith: string;
}

/** A compaction about to happen: always `auto` in a run (a person's `/compact` is the host's). */
export interface CompactInfo {
  trigger: 'auto' | 'manual';
  /** What the summary was asked to keep, if anything. */
  instructions?: string | undefined;
}

/** What one model call is sent: the messages and the tools offered. */
export interface ModelRequest {
  messages: Message[];
  tools: ToolInfo[];
}

/** What a middleware sees of the run. */
export interface MiddlewareContext {
  readonly agentName: string;
  readonly runPath: readonly string[];
  readonly model: ChatModel;
  readonly signal: AbortSignal;
  /** The tools of this run, by name. */
  readonly tools: ReadonlyMap<string, Tool>;
  /**
   * Values local to this agent run, by middleware: saved in the checkpoint when the run is
   * interrupted and there again on resume.
   */
  readonly values: Record<string, unknown>;
  readonly run: RunContext;
  /** Emits a custom event from the agent (`output.custom`), e.g. `{ type: 'compaction', … }`. */
  emit(custom: unknown): void;
  /** Says the context is about to be compacted: runs every middleware's `beforeCompact` (absent outside a ChatModelAgent run). */
  compacting?(info: CompactInfo): Promise<void>;
}

/** Composes `wrap*` hooks around a handler: the first middleware is the outermost. */
export function wrapAll<H>(base: H, middlewares: readonly AgentMiddleware[], pick: (m: AgentMiddleware) => ((next: H, ctx: MiddlewareContext) => H) | undefined, ctx: MiddlewareContext): H {
  let handler = base;
  for (let i = middlewares.length - 1; i >= 0; i--) {
    const wrap = pick(middlewares[i]);
    if (wrap) handler = wrap.call(middlewares[i], handler, ctx);
  }
  return handler;
}

/** Runs every `beforeModel` in order; each sees the request the one before returned. */
export async function runBeforeModel(middlewares: readonly AgentMiddleware[], ctx: MiddlewareContext, state: AgentState, request: ModelRequest): Promise<ModelRequest> {
  let current = request;
  for (const m of middlewares) {
    if (!m.beforeModel) continue;
    current = (await m.beforeModel(ctx, state, current)) ?? current;
  }
  return current;
}

/** Runs every `afterModel`, last middleware first. */
export async function runAfterModel(middlewares: readonly AgentMiddleware[], ctx: MiddlewareContext, state: AgentState, reply: Message): Promise<void> {
  for (let i = middlewares.length - 1; i >= 0; i--) await middlewares[i].afterModel?.(ctx, state, reply);
}

/** Runs every `beforeAgent` in order; each sees the setup the one before returned. */
export async function runBeforeAgent(middlewares: readonly AgentMiddleware[], ctx: MiddlewareContext, setup: AgentSetup): Promise<AgentSetup> {
  let current = setup;
  for (const m of middlewares) {
    if (!m.beforeAgent) continue;
    current = (await m.beforeAgent(ctx, current)) ?? current;
  }
  return current;
}

/** Runs every `afterAgent`, last middleware first. */
export async function runAfterAgent(middlewares: readonly AgentMiddleware[], ctx: MiddlewareContext, state: AgentState, end: AgentEnd): Promise<void> {
  for (let i = middlewares.length - 1; i >= 0; i--) await middlewares[i].afterAgent?.(ctx, state, end);
}

/**
 * Runs every `beforeStop` in order (each sees the final reply): the texts of those that want the
 * run to go on, joined; undefined when it may stop.
 */
export async function runBeforeStop(middlewares: readonly AgentMiddleware[], ctx: MiddlewareContext, state: AgentState, reply: Message): Promise<string | undefined> {
  const texts: string[] = [];
  for (const m of middlewares) {
    const v = await m.beforeStop?.(ctx, state, reply);
    if (v && v.continueWith) texts.push(v.continueWith);
  }
  return texts.length ? texts.join('\n\n') : undefined;
}

/** Runs every `beforeCompact` in order. */
export async function runBeforeCompact(middlewares: readonly AgentMiddleware[], ctx: MiddlewareContext, info: CompactInfo): Promise<void> {
  for (const m of middlewares) await m.beforeCompact?.(ctx, info);
}
