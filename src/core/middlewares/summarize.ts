import type { AgentMiddleware } from '../agents/middleware.js';
import { compactMessages } from '../context/compact.js';
import { summaryMessage } from '../context/summary.js';
import { TokenCounter } from '../context/token-counter.js';
import type { Message } from '../schema/message.js';

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

/** Makes the summarisation middleware described at SummarizeMiddleware. It does nothing while the context window is unknown. */
export function summarizeMiddleware(options: SummarizeOptions = {}): SummarizeMiddleware {
  const threshold = options.threshold ?? DEFAULT_COMPACT_THRESHOLD;
  const counters = new Map<string, TokenCounter>();
  const counterFor = (model: string) => counters.get(model) ?? counters.set(model, new TokenCounter(model)).get(model)!;
  let lastEstimate = 0;
  return {
    name: 'summarize',
    options,
    async beforeModel(ctx, state, request) {
      const window = options.contextWindow ?? ctx.model.contextWindow;
      if (!window) return;
      const counter = counterFor(ctx.model.modelName);
      lastEstimate = 0;
      if (!(await counter.exceeds(request.messages, request.tools, threshold * window))) return;
      lastEstimate = await counter.count(request.messages, request.tools);
      // Compacted is what is sent (an earlier middleware may have shortened results); the kept state
      // is cut the same way when it is the same list of messages, and else left for the next call.
      const system = leadingSystem(request.messages);
      const body = request.messages.slice(system.length);
      const c = await compactMessages(body, {
        model: ctx.model,
        counter,
        window,
        keepTurns: options.keepTurns ?? DEFAULT_KEEP_TURNS,
        instructions: options.instructions,
        signal: ctx.signal,
      });
      if (!c) return;
      const replacement = c.summary !== undefined ? [summaryMessage({ text: c.summary, summarized: c.summarized })] : [];
      if (sameShape(state.messages, request.messages)) {
        state.messages = [...state.messages.slice(0, system.length), ...replacement, ...state.messages.slice(system.length + c.cut)];
      }
      const event: CompactionEvent = { type: 'compaction', agent: ctx.agentName, summarized: c.summarized };
      if (c.error) event.error = c.error.message;
      ctx.emit(event);
      return { ...request, messages: [...system, ...replacement, ...body.slice(c.cut)] };
    },
    afterModel(ctx, _state, reply) {
      const reported = reply.usage && !reply.usage.estimated ? reply.usage.promptTokens : 0;
      if (reported) counterFor(ctx.model.modelName).observe(lastEstimate, reported);
    },
  };
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
