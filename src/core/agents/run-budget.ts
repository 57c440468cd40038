import { BudgetExceededError } from '../errors.js';
import type { Usage } from '../schema/message.js';
import { costUsd, formatUsd, type ModelPrice } from '../models/pricing.js';

/** A run's caps, over every agent of it (sub-agents and agent tools included). */
export interface BudgetLimits {
  maxModelCalls?: number | undefined;
  maxToolCalls?: number | undefined;
  /** Prompt and completion tokens together, as the providers report them (adk's estimate where they do not). */
  maxTokens?: number | undefined;
  /** US dollars, from each model's price (`price:` on its `models:` entry, else the bundled list price). */
  maxCost?: number | undefined;
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
  costUsd = 0;
  /** A budget found spent between model calls (a tool call refused): the next model call does not start. */
  private exhausted: BudgetExceededError | undefined;

  constructor(readonly limits: BudgetLimits) {}

  /** Before a model call: throws when a limit is reached, else counts the call. */
  beforeModelCall(model?: { modelName: string; price?: ModelPrice | undefined }): void {
    if (this.exhausted) throw this.exhausted;
    const { maxModelCalls, maxTokens, maxCost } = this.limits;
    if (maxCost !== undefined) {
      // A cap that cannot be counted is no cap: a model without a price does not run under one.
      if (model && !model.price) throw new BudgetExceededError('max_cost', 0, maxCost, `the price of model '${model.modelName}' is unknown, so a cost budget cannot be kept; set price: { input, output } (USD per 1M tokens) on its models: entry`);
      if (this.costUsd >= maxCost) throw new BudgetExceededError('max_cost', this.costUsd, maxCost, `budget reached: max_cost (${formatUsd(this.costUsd)} spent of ${formatUsd(maxCost)}); the run stopped before the next call`);
    }
    if (maxModelCalls !== undefined && this.modelCalls >= maxModelCalls) throw new BudgetExceededError('max_model_calls', this.modelCalls, maxModelCalls);
    if (maxTokens !== undefined && this.tokens >= maxTokens) throw new BudgetExceededError('max_tokens', this.tokens, maxTokens);
    this.modelCalls++;
  }

  /** A reply's tokens, and their cost at the model's price. */
  spent(usage: Usage | undefined, price?: ModelPrice | undefined): void {
    if (!usage) return;
    this.tokens += usage.promptTokens + usage.completionTokens;
    if (price) this.costUsd += costUsd(usage, price);
  }

  /**
   * Before a tool call: the reason it may not start (the limit is reached), else undefined and the
   * call is counted. A refused call is answered, not thrown, so the other calls of its batch finish
   * and are saved; the run then ends before its next model call.
   */
  beforeToolCall(): string | undefined {
    const { maxToolCalls } = this.limits;
    if (maxToolCalls !== undefined && this.toolCalls >= maxToolCalls) {
      this.exhausted ??= new BudgetExceededError('max_tool_calls', this.toolCalls, maxToolCalls);
      return `Not run: this run's tool-call budget is spent (max_tool_calls ${maxToolCalls}).`;
    }
    this.toolCalls++;
    return undefined;
  }
}
