import { BudgetExceededError } from '../errors.js';
import type { Usage } from '../schema/message.js';

/** A run's caps, over every agent of it (sub-agents and agent tools included). */
export interface BudgetLimits {
  maxModelCalls?: number | undefined;
  maxToolCalls?: number | undefined;
  /** Prompt and completion tokens together, as the providers report them (adk's estimate where they do not). */
  maxTokens?: number | undefined;
}

/**
 * What a run has spent against its limits, shared by every agent of the run (the RunContext carries
 * it into sub-agents). Checked before each model or tool call starts, never during one: reaching a
 * limit ends the run with BudgetExceededError (status `incomplete`, reason `budget`).
 */
export class RunBudget {
  modelCalls = 0;
  toolCalls = 0;
  tokens = 0;

  constructor(readonly limits: BudgetLimits) {}

  /** Before a model call: throws when a limit is reached, else counts the call. */
  beforeModelCall(): void {
    const { maxModelCalls, maxTokens } = this.limits;
    if (maxModelCalls !== undefined && this.modelCalls >= maxModelCalls) throw new BudgetExceededError('max_model_calls', this.modelCalls, maxModelCalls);
    if (maxTokens !== undefined && this.tokens >= maxTokens) throw new BudgetExceededError('max_tokens', this.tokens, maxTokens);
    this.modelCalls++;
  }

  /** A reply's tokens. */
  spent(usage: Usage | undefined): void {
    if (usage) this.tokens += usage.promptTokens + usage.completionTokens;
  }

  /** Before a tool call: throws when the limit is reached, else counts the call. */
  beforeToolCall(): void {
    const { maxToolCalls } = this.limits;
    if (maxToolCalls !== undefined && this.toolCalls >= maxToolCalls) throw new BudgetExceededError('max_tool_calls', this.toolCalls, maxToolCalls);
    this.toolCalls++;
  }
}
