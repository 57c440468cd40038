export { A2aAgent, agentName as a2aAgentName, type A2aAgentOptions, type A2aInterruptState } from './a2a-agent.js';
export type { A2aStatusEvent } from './a2a-task.js';
