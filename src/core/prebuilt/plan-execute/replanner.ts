import { generate } from '../../async-queue.js';
import { toError } from '../../errors.js';
import { createRunContext, type RunContext } from '../../agents/run-context.js';
import { errorEvent, type Agent, type AgentEvent, type AgentInput } from '../../agents/types.js';
import type { ChatModel } from '../../models/chat-model.js';
import type { RetryPolicy } from '../../models/retry.js';
import { systemMessage, userMessage, type Message } from '../../schema/message.js';
import { formatPrompt, PLAN_TOOL, REPLANNER_SYSTEM_PROMPT, REPLANNER_USER_PROMPT, RESPOND_TOOL } from './prompts.js';
import {
  EXECUTED_STEP_SESSION_KEY,
  EXECUTED_STEPS_SESSION_KEY,
  executionContext,
  firstStep,
  formatExecutedSteps,
  formatInput,
  parsePlan,
  PLAN_SESSION_KEY,
  type ExecutionContext,
} from './session.js';
import { callForcedTool } from './tool-call-step.js';

export interface ReplannerConfig {
  /** Called with the `plan` and `respond` tools, one of them required. */
  model: ChatModel;
  /** Replaces Eino's ReplannerPrompt. */
  genInput?: (ec: ExecutionContext) => Message[];
  retry?: Partial<RetryPolicy>;
}

/** Eino's ReplannerPrompt, filled from the session. */
export function defaultReplannerInput(ec: ExecutionContext): Message[] {
  const vars = {
    plan: JSON.stringify(ec.plan),
    input: formatInput(ec.userInput),
    executed_steps: formatExecutedSteps(ec.executedSteps),
    plan_tool: PLAN_TOOL.name,
    respond_tool: RESPOND_TOOL.name,
  };
  return [systemMessage(formatPrompt(REPLANNER_SYSTEM_PROMPT, vars)), userMessage(formatPrompt(REPLANNER_USER_PROMPT, vars))];
}

/**
 * Eino's replanner: records the executed step, then either responds (which breaks the
 * execute-replan loop) or replaces the plan with the remaining steps.
 */
export class Replanner implements Agent {
  readonly name = 'replanner';
  readonly description = 'a replanner agent';
  readonly type = 'Replanner';

  constructor(readonly config: ReplannerConfig) {}

  run(_input: AgentInput, ctx: RunContext = createRunContext()): AsyncIterable<AgentEvent> {
    return generate<AgentEvent>(
      async (emit) => {
        const values = ctx.session.values;
        const result = values[EXECUTED_STEP_SESSION_KEY];
        if (typeof result !== 'string') throw new Error('impossible: execute result not found');
        const ec = executionContext(values);
        ec.executedSteps = [...ec.executedSteps, { step: firstStep(ec.plan), result }];
        values[EXECUTED_STEPS_SESSION_KEY] = ec.executedSteps;
        const messages = (this.config.genInput ?? defaultReplannerInput)(ec);
        const call = await callForcedTool(
          { model: this.config.model, agentName: this.name, ctx, emit, retry: this.config.retry },
          messages,
          [PLAN_TOOL, RESPOND_TOOL],
          'required',
        );
        const tool = call.function.name;
        if (tool === RESPOND_TOOL.name) {
          emit({ agentName: this.name, runPath: [], action: { breakLoop: { from: this.name, done: false, currentIterations: 0 } } });
          return;
        }
        if (tool !== PLAN_TOOL.name) throw new Error(`unexpected tool call: ${tool}`);
        values[PLAN_SESSION_KEY] = parsePlan(call.function.arguments);
      },
      (e) => errorEvent(toError(e), this.name),
    );
  }
}

export function newReplanner(config: ReplannerConfig): Replanner {
  return new Replanner(config);
}
