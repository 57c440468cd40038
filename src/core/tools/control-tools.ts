import type { Tool } from './tool.js';

/** Name of the tool an agent calls to hand the conversation to another agent (Eino's `transfer_to_agent`). */
export const TRANSFER_TOOL_NAME = 'transfer_to_agent';

/** `transfer_to_agent`, exactly as Eino defines it. It is always return-directly. */
export const transferTool: Tool<{ agent_name: string }> = {
  name: TRANSFER_TOOL_NAME,
  readOnly: true,
  description: 'Transfer the question to another agent.',
  parameters: {
    type: 'object',
    properties: { agent_name: { type: 'string', description: 'the name of the agent to transfer to' } },
    required: ['agent_name'],
  },
  execute({ agent_name }, ctx) {
    ctx.sendAction({ transferToAgent: { destAgentName: agent_name } });
    return `successfully transferred to agent [${agent_name}]`;
  },
};

/** Eino's `exit` tool: ends the agent (and any enclosing sequence or loop) with a final result. */
export const exitTool: Tool<{ final_result: string }> = {
  name: 'exit',
  readOnly: true,
  description: 'Exit the agent process and return the final result.',
  parameters: {
    type: 'object',
    properties: { final_result: { type: 'string', description: 'the final result to return' } },
    required: ['final_result'],
  },
  execute({ final_result }, ctx) {
    ctx.sendAction({ exit: true });
    return final_result;
  },
};
