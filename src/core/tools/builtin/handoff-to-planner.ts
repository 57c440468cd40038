import * as z from 'zod';
import type { Tool } from '../tool.js';

const parameters = z.object({
  research_topic: z.string().min(1).describe("The topic of the user's research request"),
  locale: z.string().min(2).describe("The user's language locale, e.g. en-US or zh-CN"),
});

/**
 * The `handoff_to_planner` tool (DeerFlow's coordinator tool): says the request needs research.
 * A research team's coordinator calls it; the team reads the call's topic and locale and moves on
 * to planning (list it in the coordinator's `return_directly` so its turn ends there).
 */
export const handoffToPlannerTool: Tool<z.infer<typeof parameters>> = {
  name: 'handoff_to_planner',
  readOnly: true,
  description: 'Hand the research request to the planner, with the research topic and the locale of the user\'s language.',
  parameters,
  execute({ research_topic, locale }) {
    return `Handed off to the planner: ${research_topic} (${locale})`;
  },
};
