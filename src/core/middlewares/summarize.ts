import type { AgentMiddleware, MiddlewareContext, ModelRequest } from '../agents/middleware.js';
import { reportModelCall } from '../models/usage-meter.js';
import { isContextOverflow } from '../models/context-overflow.js';
import { defaultWindowNotice } from '../models/model-notice.js';
import { compactMessages } from '../context/compact.js';
import { summaryMessage } from '../context/summary.js';
import { TokenCounter } from '../context/token-counter.js';
import type { Message } from '../schema/message.js';
import type { ContextWindowInfo } from '../models/chat-model.js';
import { underBudget } from '../agents/run-budget.js';
import { raceAbort } from '../abort.js';

/** Options of summarizeMiddleware (`summarize` in an agent's `middlewares:`). */
export interface SummarizeOptions {
  /** Compact when a request would pass this share of the context window (default 0.8). */
  threshold?: number | undefined;
  /** User turns kept verbatim (default 3). */
  keepTurns?: number | undefined;
  /** Overrides the model's own `context_window`. */
  contextWindow?: number | undefined;
  /** What every summary should keep. */
  instructions?: string | undefined;
}

/** Share of the context window a request may fill before compaction (or result clearing) starts. */
export const DEFAULT_COMPACT_THRESHOLD = 0.8;
/** User turns a compaction keeps verbatim by default. */
export const DEFAULT_KEEP_TURNS = 3;
/**
 * No chat model adk talks to has a smaller window (tokens): a request under the threshold of it is
 * sent without waiting to learn the real one. One that is still too long for its server is caught by
 * the overflow path below (the server's "too long" teaches the window).
 */
const SMALLEST_WINDOW = 8_192;

/** The custom event a compaction emits (`output.custom`). */
export interface CompactionEvent {
  type: 'compaction';
  agent: string;
  /** Messages the summary now stands for. */
  summarized: number;
  /** Set when the summary failed and the oldest messages were dropped instead. */
  error?: string | undefined;
}

/** `⋯ 143 earlier messages summarised`, as the REPL and `adk run` show it. */
export function compactionText(c: Pick<CompactionEvent, 'summarized' | 'error'>): string {
  return c.error
    ? `⋯ ${c.summarized} earlier messages dropped from the context (the summary failed: ${c.error})`
    : `⋯ ${c.summarized} earlier messages summarised`;
}

/** True when a custom event value is a CompactionEvent. */
export function isCompactionEvent(x: unknown): x is CompactionEvent {
  return !!x && typeof x === 'object' && (x as { type?: unknown }).type === 'compaction';
}

/**
 * Summarisation (Eino's summarization middleware): before a model call whose request would pass
 * the threshold, the older turns in the agent's state become one structured summary written by the
 * model; the system prompt and the last turns stay verbatim, a tool call never loses its result.
 * If the summary fails, the oldest turns are dropped instead, so the run goes on.
 */
export interface SummarizeMiddleware extends AgentMiddleware {
  readonly name: 'summarize';
  /** Its settings, so a conversation can compact between turns (and on `/compact`) the same way. */
  readonly options: SummarizeOptions;
}

/** True when the middleware is one summarizeMiddleware made (named `summarize`, with its options). */
export function isSummarizeMiddleware(m: AgentMiddleware): m is SummarizeMiddleware {
  return m.name === 'summarize' && typeof (m as SummarizeMiddleware).options === 'object';
}

/**
 * Makes the summarisation middleware described at SummarizeMiddleware. The window is the option's,
 * else the model's (asked of its server when unknown, else a conservative default with a notice).
 * A request the server still rejects as too long teaches the real window: the request is compacted
 * under it and sent once more, instead of ending the session.
 */
export function summarizeMiddleware(options: SummarizeOptions = {}): SummarizeMiddleware {
  const threshold = options.threshold ?? DEFAULT_COMPACT_THRESHOLD;
  const counters = new Map<string, TokenCounter>();
  const counterFor = (model: string) => counters.get(model) ?? counters.set(model, new TokenCounter(model)).get(model)!;
  let lastEstimate = 0;
  /** The window a server's "too long" answer revealed (smaller than what adk believed). */
  let learnedWindow: number | undefined;
  let noticed = false;

  /** What each model's server said of its window, once it has (asked in the background, see windowOf). */
  const asked = new Map<string, Promise<ContextWindowInfo>>();
  const answered = new Map<string, ContextWindowInfo>();

  /**
   * The window a request is measured against. One the settings or the name give is known at once.
   * Else its server is asked (`GET /models`) in the background: a request small enough to fit any
   * window a chat model has does not wait for the answer (the first request of a run goes out
   * without that round trip); a larger one does.
   */
  const windowOf = async (ctx: MiddlewareContext, request: ModelRequest): Promise<{ window: number; guessed: boolean } | undefined> => {
    if (options.contextWindow) return { window: options.contextWindow, guessed: false };
    if (learnedWindow) return { window: learnedWindow, guessed: false };
    const model = ctx.model;
    // Known from the settings or the name: no question to ask.
    if (model.contextWindow) return { window: model.contextWindow, guessed: false };
    if (!model.resolveContextWindow) return undefined;
    let info = answered.get(model.modelName);
    if (!info) {
      // Not tied to this run's signal: a run that ends first must not leave the answer "unknown".
      let pending = asked.get(model.modelName);
      if (!pending) {
        pending = model.resolveContextWindow();
        asked.set(model.modelName, pending);
        void pending.then((i) => answered.set(model.modelName, i), () => {});
      }
      if (!(await counterFor(model.modelName).exceeds(request.messages, request.tools, threshold * SMALLEST_WINDOW))) return undefined;
      info = await raceAbort(pending, ctx.signal);
    }
    return { window: info.window, guessed: info.source === 'default' };
  };

  /** The request with its older turns summarised to fit `window`; undefined when nothing can be cut. */
  const compact = async (ctx: MiddlewareContext, request: ModelRequest, window: number) => {
    const counter = counterFor(ctx.model.modelName);
    const system = leadingSystem(request.messages);
    const body = request.messages.slice(system.length);
    // The summary's request is counted with the run's usage, like any other model request.
    const onReply = (reply: Message) => reportModelCall(ctx.run.callbacks, { agentName: ctx.agentName, runPath: ctx.runPath, model: ctx.model.modelName, messages: [] }, reply);
    // The other middlewares hear of it first (PreCompact hooks, `trigger: auto`, no instructions as in Claude Code).
    const beforeSummary = () => ctx.compacting?.({ trigger: 'auto' }) ?? Promise.resolve();
    // The summary's own model calls count against the run's budget, as the agent's do.
    const c = await compactMessages(body, { model: underBudget(ctx.model, { budget: ctx.run.budget, address: ctx.run.address, turn: false }), counter, window, keepTurns: options.keepTurns ?? DEFAULT_KEEP_TURNS, instructions: options.instructions, signal: ctx.signal, onReply, beforeSummary, secrets: ctx.run.secrets?.() });
    if (!c) return undefined;
    const replacement = c.summary !== undefined ? [summaryMessage({ text: c.summary, summarized: c.summarized })] : [];
    const event: CompactionEvent = { type: 'compaction', agent: ctx.agentName, summarized: c.summarized };
    if (c.error) event.error = c.error.message;
    ctx.emit(event);
    return { cut: c.cut, system, replacement, request: { ...request, messages: [...system, ...replacement, ...body.slice(c.cut)] } };
  };

  return {
    name: 'summarize',
    options,
    async beforeModel(ctx, state, request) {
      const known = await windowOf(ctx, request);
      if (!known) return;
      const { window } = known;
      const counter = counterFor(ctx.model.modelName);
      lastEstimate = 0;
      // A guessed window is said once the conversation is big enough for the guess to matter (half
      // of it): a short run has nothing to be told.
      if (known.guessed && !noticed && (await counter.exceeds(request.messages, request.tools, window / 2))) {
        noticed = true;
        ctx.emit(defaultWindowNotice(ctx.model.modelName, window));
      }
      if (!(await counter.exceeds(request.messages, request.tools, threshold * window))) return;
      lastEstimate = await counter.count(request.messages, request.tools);
      // Compacted is what is sent (an earlier middleware may have shortened results); the kept state
      // is cut the same way when it is the same list of messages, and else left for the next call.
      const done = await compact(ctx, request, window);
      if (!done) return;
      if (sameShape(state.messages, request.messages)) {
        const n = done.system.length;
        state.messages = [...state.messages.slice(0, n), ...done.replacement, ...state.messages.slice(n + done.cut)];
      }
      return done.request;
    },
    afterModel(ctx, _state, reply) {
      const reported = reply.usage && !reply.usage.estimated ? reply.usage.promptTokens : 0;
      if (reported) counterFor(ctx.model.modelName).observe(lastEstimate, reported);
    },
    wrapModel(next, ctx) {
      return async (messages, callOptions) => {
        try {
          return await next(messages, callOptions);
        } catch (e) {
          if (ctx.signal.aborted || !isContextOverflow(e)) throw e;
          const sent = await counterFor(ctx.model.modelName).count(messages, callOptions.tools);
          const known = (await windowOf(ctx, { messages, tools: callOptions.tools ?? [] }))?.window ?? sent;
          learnedWindow = statedWindow(e) ?? Math.floor(Math.min(known, sent) * 0.8);
          const done = await compact(ctx, { messages, tools: callOptions.tools ?? [] }, learnedWindow);
          if (!done) throw e;
          // Once: a request still too long after compaction ends the turn with the server's own words.
          return next(done.request.messages, callOptions);
        }
      };
    },
  };
}

/** `This model's maximum context length is 4096 tokens` (OpenAI, vLLM): the window the server has. */
function statedWindow(err: unknown): number | undefined {
  const m = /maximum context length is (\d+)/i.exec(String((err as { message?: unknown })?.message ?? ''));
  return m ? Number(m[1]) : undefined;
}

/** The same messages in the same places, some with shortened content (a reduced tool result). */
function sameShape(a: readonly Message[], b: readonly Message[]): boolean {
  return a.length === b.length && a.every((m, i) => m.role === b[i].role && m.toolCallId === b[i].toolCallId && (m.toolCalls?.length ?? 0) === (b[i].toolCalls?.length ?? 0));
}

function leadingSystem(messages: readonly Message[]): Message[] {
  const out: Message[] = [];
  for (const m of messages) {
    if (m.role !== 'system') break;
    out.push(m);
  }
  return out;
}

