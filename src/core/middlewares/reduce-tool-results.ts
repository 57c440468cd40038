import { createHash } from 'node:crypto';
import * as z from 'zod';
import type { AgentMiddleware, MiddlewareContext } from '../agents/middleware.js';
import type { ArtifactStore } from '../agents/run-context.js';

export type { ArtifactStore } from '../agents/run-context.js';
import type { Message } from '../schema/message.js';
import type { Tool } from '../tools/tool.js';
import { TokenCounter } from '../context/token-counter.js';
import { DEFAULT_COMPACT_THRESHOLD } from './summarize.js';

/** Options of reduceToolResultsMiddleware (`reduce_tool_results` in an agent's `middlewares:`). */
export interface ReduceToolResultsOptions {
  /** Results longer than this reach the model as a head and tail excerpt (default 20,000 characters). */
  maxChars?: number | undefined;
  /** When a request would pass this share of the window, results older than `keepTurns` turns are cleared (default 0.8). */
  threshold?: number | undefined;
  /** Turns whose results are never cleared (default 2). */
  keepTurns?: number | undefined;
  contextWindow?: number | undefined;
}


/** Name of the tool the middleware adds so the model can page through a saved result by id and offset. */
export const READ_TOOL_RESULT = 'read_tool_result';
const PAGE_CHARS = 20_000;

/**
 * Tool-result reduction (Eino's reduction middleware): a long result is saved whole and the model
 * sees its head and tail with a note naming `read_tool_result {id, offset}`, which pages the rest;
 * when space runs short, results of older turns are cleared from the request (saved first).
 */
export function reduceToolResultsMiddleware(options: ReduceToolResultsOptions = {}): AgentMiddleware {
  const maxChars = options.maxChars ?? 20_000;
  const threshold = options.threshold ?? DEFAULT_COMPACT_THRESHOLD;
  const keepTurns = options.keepTurns ?? 2;
  return {
    name: 'reduce_tool_results',
    beforeAgent(ctx, setup) {
      if (setup.tools.some((t) => t.name === READ_TOOL_RESULT)) return;
      return { ...setup, tools: [...setup.tools, readToolResultTool(() => artifacts(ctx))] };
    },
    wrapToolCall: (next, ctx) => async (req) => {
      const r = await next(req);
      if (r.kind !== 'done' || r.content.length <= maxChars || req.call.function.name === READ_TOOL_RESULT) return r;
      const id = await keep(ctx, req.call.id, r.content);
      return { ...r, content: excerpt(r.content, id, maxChars) };
    },
    async beforeModel(ctx, _state, request) {
      const window = options.contextWindow ?? ctx.model.contextWindow;
      if (!window) return;
      const counter = new TokenCounter(ctx.model.modelName);
      if (!(await counter.exceeds(request.messages, request.tools, threshold * window))) return;
      const keepFrom = turnStart(request.messages, keepTurns);
      const messages: Message[] = [];
      for (const [i, m] of request.messages.entries()) {
        if (i >= keepFrom || m.role !== 'tool' || m.content.length < 200 || m.content.startsWith(CLEARED)) {
          messages.push(m);
          continue;
        }
        const id = await keep(ctx, m.toolCallId ?? '', m.content);
        messages.push({ ...m, content: `${CLEARED} ${m.content.length} characters; ${READ_TOOL_RESULT} {"id":"${id}"} shows it]` });
      }
      return { ...request, messages };
    },
  };
}

const CLEARED = '[result cleared to save context:';

/**
 * Saves a whole result once, under an id derived from the call and its text: clearing the same old
 * result on every later request neither writes it again nor changes the placeholder (prompt caches
 * keep matching).
 */
async function keep(ctx: MiddlewareContext, callId: string, content: string): Promise<string> {
  const id = `r_${createHash('sha256').update(callId).update('\0').update(content).digest('hex').slice(0, 16)}`;
  const saved = (ctx.values.reduce_tool_results_saved ??= {}) as Record<string, true>;
  if (saved[id]) return id;
  const store = artifacts(ctx);
  if ((await store.get(id)) === undefined) await store.put(id, content);
  saved[id] = true;
  return id;
}

/** Head and tail of a long result, with how to read the middle. */
function excerpt(content: string, id: string, maxChars: number): string {
  const head = Math.floor(maxChars * 0.7);
  const tail = maxChars - head;
  const omitted = content.length - head - tail;
  return `${content.slice(0, head)}\n… [${omitted} of ${content.length} characters omitted; the whole result is saved: ${READ_TOOL_RESULT} {"id":"${id}","offset":${head}} reads on from here] …\n${content.slice(content.length - tail)}`;
}

/** Index of the first message of the last `keepTurns` user turns. */
function turnStart(messages: readonly Message[], keepTurns: number): number {
  const starts = messages.flatMap((m, i) => (m.role === 'user' ? [i] : []));
  return starts.length >= keepTurns ? starts[starts.length - keepTurns] : 0;
}

function artifacts(ctx: MiddlewareContext): ArtifactStore {
  if (ctx.run.artifacts) return ctx.run.artifacts;
  // No session store: whole results live in the run's values, which a checkpoint keeps.
  const kept = (ctx.values.reduce_tool_results_results ??= {}) as Record<string, string>;
  return { put: async (id, text) => void (kept[id] = text), get: async (id) => kept[id] };
}

const parameters = z.object({
  id: z.string().describe('The id named in the excerpt or the cleared result'),
  offset: z.number().int().min(0).optional().describe('Character to start at (default 0)'),
});

function readToolResultTool(store: () => ArtifactStore): Tool<z.infer<typeof parameters>> {
  return {
    name: READ_TOOL_RESULT,
    readOnly: true,
    description: `Read a saved tool result that was shortened or cleared, ${PAGE_CHARS} characters at a time from offset.`,
    parameters,
    async execute({ id, offset = 0 }) {
      const text = await store().get(id);
      if (text === undefined) return { content: `Error: no saved result with id ${id}.`, isError: true };
      const end = Math.min(text.length, offset + PAGE_CHARS);
      const more = end < text.length ? `\n[characters ${offset}-${end} of ${text.length}; ${READ_TOOL_RESULT} {"id":"${id}","offset":${end}} reads on]` : `\n[characters ${offset}-${end} of ${text.length}: the end]`;
      return text.slice(offset, end) + more;
    },
  };
}
