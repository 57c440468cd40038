export * from './prompts.js';
export * from './session.js';
export * from './planner.js';
export * from './executor.js';
export * from './replanner.js';
export * from './plan-execute.js';
export { callForcedTool } from './tool-call-step.js';
