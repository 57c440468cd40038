import type { Agent } from '../../agents/types.js';
import { agentTool } from '../../agents/agent-tool.js';
import type { Tool } from '../../tools/tool.js';

/** Name of the tool a deep agent hands tasks to its sub-agents with. */
export const TASK_TOOL = 'task';

/**
 * `task {subagent, description}` (Eino's deep agent task tool): runs one of the sub-agents in a fresh
 * context with the description as its only input, and returns its final answer. Calls in one turn
 * run in parallel; an interrupt inside (an approval) becomes this call's, addressed `tool:task:<call>`,
 * and a resume re-enters the same sub-agent where it stopped.
 */
export function taskTool(subAgents: Agent[]): Tool<{ subagent: string; description: string }> {
  const runners = new Map(subAgents.map((a) => [a.name, agentTool(a, { name: TASK_TOOL })]));
  const names = [...runners.keys()];
  return {
    name: TASK_TOOL,
    readOnly: true,
    description: `Hand a self-contained task to a sub-agent, which works on it in a fresh context and returns its final answer. Describe the task fully: the sub-agent sees nothing else. Several tasks in one reply run in parallel.
Sub-agents:
${subAgents.map((a) => `- ${a.name}: ${a.description}`).join('\n')}`,
    parameters: {
      type: 'object',
      properties: {
        subagent: { type: 'string', enum: names, description: 'Which sub-agent does the task' },
        description: { type: 'string', description: 'The task, with everything the sub-agent needs to know' },
      },
      required: ['subagent', 'description'],
      additionalProperties: false,
    },
    timeoutMs: 0,
    async execute({ subagent, description }, ctx) {
      const run = runners.get(subagent);
      if (!run) return { content: `Error: subagent type ${subagent} not found; use one of: ${names.join(', ')}`, isError: true };
      return run.execute({ request: description }, ctx);
    },
  };
}
