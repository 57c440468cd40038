import * as z from 'zod';
import type { InterruptDetails } from '../../interrupt.js';
import type { Tool } from '../tool.js';

const parameters = z.object({
  steps: z.array(z.string().min(1)).min(1).describe('The plan, one step per item'),
  message: z.string().optional().describe('A short note shown above the plan'),
});

/**
 * The `review_plan` tool: shows a plan for the person to accept or change (the REPL's plan-review
 * screen; `adk resume --approve` / `--reject --reason`). Returns the accepted plan or their changes.
 */
export const reviewPlanTool: Tool<z.infer<typeof parameters>> = {
  name: 'review_plan',
  readOnly: true,
  description: 'Show a plan (a list of steps) to the user to accept or change. Returns whether they accepted it, or the changes they want.',
  parameters,
  execute({ steps, message }, ctx) {
    const r = ctx.resume;
    if (r.isResumeTarget && r.hasData) {
      const d = r.data as { accept?: unknown; feedback?: unknown } | null;
      if (d?.accept === true) return `The user accepted the plan:\n${steps.map((s, i) => `${i + 1}. ${s}`).join('\n')}`;
      if (d?.accept === false && typeof d.feedback === 'string') return `The user wants changes to the plan: ${d.feedback}`;
    }
    const info: InterruptDetails = { kind: 'plan_review', message: message ?? 'Review the plan', plan: steps };
    return ctx.interrupt(info);
  },
};
