import * as z from 'zod';
import type { CallOptions } from '../../../core/agents/run-context.js';

/**
 * DeerFlow 1.x's chat request (src/server/chat_request.py on branch main-1.x), with its defaults.
 * Unknown fields are kept and ignored (enable_clarification, enable_web_search, …).
 */
export const ChatStreamBody = z.looseObject({
  messages: z.array(z.looseObject({ role: z.string().optional(), content: z.union([z.string(), z.array(z.unknown())]) })).default([]),
  thread_id: z.string().min(1).default('__default__'),
  resources: z.array(z.looseObject({ uri: z.string(), title: z.string().optional(), description: z.string().optional() })).default([]),
  max_plan_iterations: z.number().int().min(0).default(1),
  max_step_num: z.number().int().min(1).default(3),
  max_search_results: z.number().int().min(1).default(3),
  auto_accepted_plan: z.boolean().default(false),
  interrupt_feedback: z.string().nullish(),
  mcp_settings: z.record(z.string(), z.unknown()).nullish(),
  enable_background_investigation: z.boolean().default(true),
  report_style: z.enum(['academic', 'popular_science', 'news', 'social_media', 'strategic_investment']).default('academic'),
  enable_deep_thinking: z.boolean().default(false),
  locale: z.string().default('en-US'),
});
export type ChatStreamRequest = z.infer<typeof ChatStreamBody>;

/** The request's settings as the research team reads them (its tool options; see ResearchOptions). */
export function runOptions(b: ChatStreamRequest): Pick<CallOptions, 'toolOptions'> {
  return {
    toolOptions: {
      research: {
        maxPlanIterations: b.max_plan_iterations,
        maxStepNum: b.max_step_num,
        autoAcceptedPlan: b.auto_accepted_plan,
        backgroundInvestigation: b.enable_background_investigation,
        locale: b.locale,
        reportStyle: b.report_style,
        resources: b.resources.map((r) => ({ uri: r.uri, title: r.title ?? r.uri, ...(r.description ? { description: r.description } : {}) })),
      },
      web_search: { maxResults: b.max_search_results },
    },
  };
}

/** The text of the last user message (DeerFlow sends one per request). */
export function lastUserText(messages: ChatStreamRequest['messages']): string {
  const m = [...messages].reverse().find((x) => (x.role ?? 'user') === 'user');
  if (!m) return '';
  if (typeof m.content === 'string') return m.content;
  return (m.content as Array<{ text?: unknown } | null>).map((p) => (p && typeof p.text === 'string' ? p.text : '')).join('');
}
