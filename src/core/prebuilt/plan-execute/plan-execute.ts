import type { Agent } from '../../agents/types.js';
import { LoopAgent, SequentialAgent } from '../../agents/workflow.js';

/** The three agents of plan-execute and how many execute-replan rounds it may take. */
export interface PlanExecuteConfig {
  planner: Agent;
  executor: Agent;
  replanner: Agent;
  /** Execute-replan rounds; default 10. */
  maxIterations?: number | undefined;
  /** Default `plan_execute_replan` (Eino's name). */
  name?: string | undefined;
  description?: string | undefined;
}

/** Execute-replan rounds before the loop stops, unless `maxIterations` is set. */
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
