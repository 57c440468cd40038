import type { Agent } from '../../agents/types.js';
import { LoopAgent, SequentialAgent } from '../../agents/workflow.js';

export interface PlanExecuteConfig {
  planner: Agent;
  executor: Agent;
  replanner: Agent;
  /** Execute-replan rounds; default 10. */
  maxIterations?: number;
  /** Default `plan_execute_replan` (Eino's name). */
  name?: string;
  description?: string;
}

export const DEFAULT_PLAN_EXECUTE_ITERATIONS = 10;

/** Eino's plan-execute-replan: Sequential `plan_execute_replan` [planner, Loop `execute_replan` [executor, replanner]]. */
export function planExecute(config: PlanExecuteConfig): SequentialAgent {
  const n = config.maxIterations ?? DEFAULT_PLAN_EXECUTE_ITERATIONS;
  const loop = new LoopAgent({
    name: 'execute_replan',
    subAgents: [config.executor, config.replanner],
    maxIterations: n > 0 ? n : DEFAULT_PLAN_EXECUTE_ITERATIONS,
  });
  return new SequentialAgent({
    name: config.name ?? 'plan_execute_replan',
    description: config.description,
    subAgents: [config.planner, loop],
  });
}
