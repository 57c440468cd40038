import { generate } from '../../async-queue.js';
import { toError } from '../../errors.js';
import { createRunContext, type RunContext } from '../../agents/run-context.js';
import { errorEvent, messageEvent, type Agent, type AgentEvent, type AgentInput } from '../../agents/types.js';
import type { ChatModel } from '../../models/chat-model.js';
import type { RetryPolicy } from '../../models/retry.js';
import { assistantMessage, systemMessage, userMessage, type Message } from '../../schema/message.js';
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
import { checkOptions, checkTypes, requireChatModel } from '../../agents/options-check.js';

/** Settings of the replanner: the model that answers or rewrites the rest of the plan. */
export interface ReplannerConfig {
  /** Called with the `plan` and `respond` tools, one of them required. */
  model: ChatModel;
  /**
   * The system prompt, in place of Eino's (the user message with the objective, plan and steps done
   * stays); `{input}`, `{plan}`, `{executed_steps}`, `{plan_tool}` and `{respond_tool}` are filled in.
   */
  instruction?: string | undefined;
  /** Replaces Eino's ReplannerPrompt (system and user message); `instruction` is then not used. */
  genInput?: ((ec: ExecutionContext) => Message[]) | undefined;
  retry?: Partial<RetryPolicy> | undefined;
}

/** Eino's ReplannerPrompt, filled from the session; `instruction` replaces its system part. */
export function defaultReplannerInput(ec: ExecutionContext, instruction?: string): Message[] {
  const vars = {
    plan: JSON.stringify(ec.plan),
    input: formatInput(ec.userInput),
    executed_steps: formatExecutedSteps(ec.executedSteps),
    plan_tool: PLAN_TOOL.name,
    respond_tool: RESPOND_TOOL.name,
  };
  return [systemMessage(formatPrompt(instruction ?? REPLANNER_SYSTEM_PROMPT, vars)), userMessage(formatPrompt(REPLANNER_USER_PROMPT, vars))];
}

/**
 * Eino's replanner: records the executed step, then either responds (which breaks the
 * execute-replan loop) or replaces the plan with the remaining steps.
 */
export class Replanner implements Agent {
  readonly name = 'replanner';
  readonly description = 'a replanner agent';
  readonly type = 'Replanner';

  constructor(readonly config: ReplannerConfig) {
    const o = checkOptions('Replanner', config, { known: Object.keys({ model: true, instruction: true, genInput: true, retry: true } satisfies Record<keyof ReplannerConfig, true>), aliases: { ChatModel: 'model', GenInputFn: 'genInput' } });
    requireChatModel('Replanner', 'model', o.model);
    checkTypes('Replanner', o, { instruction: 'string', genInput: 'function', retry: 'object' });
  }

  run(_input: AgentInput, ctx: RunContext = createRunContext()): AsyncIterable<AgentEvent> {
    return generate<AgentEvent>(
      async (emit) => {
        const values = ctx.session.values;
        const result = values[EXECUTED_STEP_SESSION_KEY];
        if (typeof result !== 'string') throw new Error('impossible: execute result not found');
        const ec = executionContext(values);
        ec.executedSteps = [...ec.executedSteps, { step: firstStep(ec.plan), result }];
        values[EXECUTED_STEPS_SESSION_KEY] = ec.executedSteps;
        const messages = this.config.genInput ? this.config.genInput(ec) : defaultReplannerInput(ec, this.config.instruction);
        const call = await callForcedTool(
          { model: this.config.model, agentName: this.name, ctx, emit, retry: this.config.retry, quiet: true },
          messages,
          [PLAN_TOOL, RESPOND_TOOL],
          'required',
        );
        const tool = call.function.name;
        const usage = call.usage ? { usage: call.usage } : {};
        if (tool === RESPOND_TOOL.name) {
          // The answer as text (Eino shows the tool's JSON arguments), and the arguments as `structured`.
          const answer = parseResponse(call.function.arguments);
          emit({ ...messageEvent({ ...assistantMessage(answer.response), ...usage }), agentName: this.name });
          emit({ agentName: this.name, runPath: [], output: { structured: answer } });
          emit({ agentName: this.name, runPath: [], action: { breakLoop: { from: this.name, done: false, currentIterations: 0 } } });
          return;
        }
        if (tool !== PLAN_TOOL.name) throw new Error(`unexpected tool call: ${tool}`);
        values[PLAN_SESSION_KEY] = parsePlan(call.function.arguments);
        emit({ ...messageEvent({ ...assistantMessage(call.function.arguments), ...usage }), agentName: this.name });
      },
      (e) => errorEvent(toError(e), this.name),
    );
  }
}

/** The `respond` tool's arguments: `{ response }`. */
function parseResponse(args: string): { response: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(args || '{}');
  } catch (e) {
    throw new Error(`the replanner's respond call has arguments that are not JSON: ${(e as Error).message}`);
  }
  const response = (parsed as { response?: unknown } | null)?.response;
  if (typeof response !== 'string') throw new Error('the replanner called respond without a `response` string');
  return { response };
}

/** @deprecated Use `new Replanner(config)` (Eino's NewReplanner). */
export function newReplanner(config: ReplannerConfig): Replanner {
  return new Replanner(config);
}
