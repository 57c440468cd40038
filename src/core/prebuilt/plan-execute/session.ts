import type { Message } from '../../schema/message.js';

/** Session keys, as in Eino. */
export const USER_INPUT_SESSION_KEY = 'UserInput';
/** Session value that holds the current plan (Eino's `Plan`). */
export const PLAN_SESSION_KEY = 'Plan';
/** Session value that holds the executor's answer to the current step (Eino's `ExecutedStep`). */
export const EXECUTED_STEP_SESSION_KEY = 'ExecutedStep';
/** Session value that holds every executed step so far (Eino's `ExecutedSteps`). */
export const EXECUTED_STEPS_SESSION_KEY = 'ExecutedSteps';

/** Eino's default plan: `{"steps": [...]}`; the first step is the one executed next. */
export interface Plan {
  steps: string[];
}

/** A step of the plan that ran, with what the executor answered. */
export interface ExecutedStep {
  step: string;
  result: string;
}

/** What the executor and replanner prompts are built from. */
export interface ExecutionContext {
  userInput: Message[];
  plan: Plan;
  executedSteps: ExecutedStep[];
}

/** The step the executor works on next: the first of the plan. */
export const firstStep = (plan: Plan): string => plan.steps[0] ?? '';

/** Parses a plan tool call's arguments (Eino: "unmarshal plan error: …"). */
export function parsePlan(json: string): Plan {
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (e) {
    throw new Error(`unmarshal plan error: ${(e as Error).message}`);
  }
  const steps = (data as Partial<Plan> | null)?.steps;
  if (!Array.isArray(steps) || steps.some((s) => typeof s !== 'string')) {
    throw new Error('unmarshal plan error: "steps" must be an array of strings');
  }
  return { steps: [...steps] };
}

/** Eino's formatInput: each message's content and a newline. */
export const formatInput = (input: Message[]): string => input.map((m) => `${m.content}\n`).join('');

/** Eino's formatExecutedSteps. */
export const formatExecutedSteps = (steps: ExecutedStep[]): string =>
  steps.map((s) => `Step: ${s.step}\nResult: ${s.result}\n\n`).join('');

/** Reads what the earlier agents stored; missing values are a wiring error (Eino panics). */
export function executionContext(values: Record<string, unknown>): ExecutionContext {
  const plan = values[PLAN_SESSION_KEY] as Plan | undefined;
  if (!plan || !Array.isArray(plan.steps)) throw new Error('impossible: plan not found');
  const userInput = values[USER_INPUT_SESSION_KEY] as Message[] | undefined;
  if (!Array.isArray(userInput)) throw new Error('impossible: user input not found');
  const executedSteps = (values[EXECUTED_STEPS_SESSION_KEY] as ExecutedStep[] | undefined) ?? [];
  return { userInput, plan, executedSteps };
}
