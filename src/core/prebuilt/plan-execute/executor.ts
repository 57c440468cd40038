import { ChatModelAgent, type ChatModelAgentConfig } from '../../agents/chat-model-agent.js';
import type { RunContext } from '../../agents/run-context.js';
import type { ChatModel } from '../../models/chat-model.js';
import { systemMessage, userMessage, type Message } from '../../schema/message.js';
import type { Tool } from '../../tools/tool.js';
import { checkOptions, checkTools, checkTypes, requireChatModel } from '../../agents/options-check.js';
import { EXECUTOR_SYSTEM_PROMPT, EXECUTOR_USER_PROMPT, formatPrompt } from './prompts.js';
import { executionContext, EXECUTED_STEP_SESSION_KEY, firstStep, formatExecutedSteps, formatInput, type ExecutionContext } from './session.js';

/** Settings of the plan-execute executor (a ReAct agent that runs the first step of the plan). */
export interface ExecutorConfig {
  model: ChatModel;
  tools?: Tool[] | undefined;
  /** Tools that stop for a person's approval before they run. */
  approval?: string[] | undefined;
  /** Model calls per step; default 20. */
  maxIterations?: number | undefined;
  /**
   * The system prompt, in place of Eino's (the user message with the objective, plan, steps done and
   * step to do stays); `{input}`, `{plan}`, `{executed_steps}` and `{step}` are filled in.
   */
  instruction?: string | undefined;
  /** Replaces Eino's ExecutorPrompt (system and user message); `instruction` is then not used. */
  genInput?: ((ec: ExecutionContext) => Message[]) | undefined;
  retry?: ChatModelAgentConfig['retry'] | undefined;
}

/** Eino's ExecutorPrompt, filled from the session; `instruction` replaces its system part. */
export function defaultExecutorInput(ec: ExecutionContext, instruction?: string): Message[] {
  const vars = {
    input: formatInput(ec.userInput),
    plan: JSON.stringify(ec.plan),
    executed_steps: formatExecutedSteps(ec.executedSteps),
    step: firstStep(ec.plan),
  };
  return [systemMessage(formatPrompt(instruction ?? EXECUTOR_SYSTEM_PROMPT, vars)), userMessage(formatPrompt(EXECUTOR_USER_PROMPT, vars))];
}

/** Eino's NewExecutor config {Model, ToolsConfig, MaxIterations, GenInputFn}, in adk's spelling. */
function checkExecutorConfig(config: unknown): void {
  const o = checkOptions('Executor', config, {
    known: Object.keys({ model: true, tools: true, approval: true, maxIterations: true, instruction: true, genInput: true, retry: true } satisfies Record<keyof ExecutorConfig, true>),
    aliases: { ToolsConfig: 'tools', ChatModel: 'model', GenInputFn: 'genInput' },
  });
  requireChatModel('Executor', 'model', o.model);
  checkTools('Executor', 'tools', o.tools);
  checkTypes('Executor', o, { approval: 'strings', maxIterations: 'number', instruction: 'string', genInput: 'function', retry: 'object' });
}

/** Eino's executor: a ReAct agent that executes the plan's first step; its answer goes to `ExecutedStep`. */
export class Executor extends ChatModelAgent {
  constructor(config: ExecutorConfig) {
    checkExecutorConfig(config);
    const gen = config.genInput ?? ((ec: ExecutionContext) => defaultExecutorInput(ec, config.instruction));
    super({
      name: 'executor',
      description: 'an executor agent',
      model: config.model,
      tools: config.tools,
      approval: config.approval,
      maxIterations: config.maxIterations,
      outputKey: EXECUTED_STEP_SESSION_KEY,
      retry: config.retry,
      genModelInput: (_instruction: string, _input, ctx: RunContext) => gen(executionContext(ctx.session.values)),
    });
  }
}

/** @deprecated Use `new Executor(config)` (Eino's NewExecutor). */
export function newExecutor(config: ExecutorConfig): Executor {
  return new Executor(config);
}
