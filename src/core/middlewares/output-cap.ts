import type { AgentMiddleware } from '../agents/middleware.js';

/** Default cap of outputCapMiddleware, in characters of one tool result. */
export const DEFAULT_MAX_TOOL_OUTPUT_CHARS = 100_000;

/** Keeps a huge result from flooding the context; the note tells the model what it is missing. */
export function cap(content: string, max: number): string {
  if (content.length <= max) return content;
  return `${content.slice(0, max)}\n[output truncated: showing the first ${max} of ${content.length} characters]`;
}

/** The last word on every tool result (outside every middleware but approval): at most `maxChars` characters. */
export function outputCapMiddleware(maxChars = DEFAULT_MAX_TOOL_OUTPUT_CHARS): AgentMiddleware {
  return {
    name: 'output_cap',
    wrapToolCall: (next) => async (req) => {
      const r = await next(req);
      return r.kind === 'done' ? { ...r, content: cap(r.content, maxChars) } : r;
    },
  };
}
