import type { Agent } from '../../agents/types.js';
import { LoopAgent, SequentialAgent } from '../../agents/workflow.js';
import { checkOptions, checkTypes, requireAgent, who } from '../../agents/options-check.js';

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

/**
 * Eino's planexecute.Config {Planner, Executor, Replanner, MaxIterations}. The replanner is required,
 * as in Eino (the module overview's example leaves it out, but Eino's New puts it in the loop): it is
 * what records each step's result and ends the loop with an answer.
 */
function checkPlanExecuteConfig(config: unknown): void {
  const label = who('planExecute', config);
  const o = checkOptions(label, config, { known: Object.keys({ planner: true, executor: true, replanner: true, maxIterations: true, name: true, description: true } satisfies Record<keyof PlanExecuteConfig, true>) });
  requireAgent(label, 'planner', o.planner, ': the agent that writes the plan (e.g. new Planner({ model }))');
  requireAgent(label, 'executor', o.executor, ': the agent that carries out each step (e.g. new Executor({ model, tools }))');
  requireAgent(
    label,
    'replanner',
    o.replanner,
    ": Eino's plan-execute loops executor → replanner, and the replanner records each step's result and decides when the objective is met (e.g. replanner: new Replanner({ model })); without it the loop would repeat the first step",
  );
  checkTypes(label, o, { maxIterations: 'number', name: 'string', description: 'string' });
}

/** Execute-replan rounds before the loop stops, unless `maxIterations` is set. */
export const DEFAULT_PLAN_EXECUTE_ITERATIONS = 10;

/** Eino's plan-execute-replan: Sequential `plan_execute_replan` [planner, Loop `execute_replan` [executor, replanner]]. */
export function planExecute(config: PlanExecuteConfig): SequentialAgent {
  checkPlanExecuteConfig(config);
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
