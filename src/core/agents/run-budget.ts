import { BudgetExceededError } from '../errors.js';
import type { Usage } from '../schema/message.js';
import { costUsd, formatUsd, type ModelPrice } from '../models/pricing.js';
import type { ChatModel, ModelCallOptions } from '../models/chat-model.js';
import type { Message } from '../schema/message.js';

/** A run's caps, over every agent of it (sub-agents and agent tools included). */
export interface BudgetLimits {
  /** Model calls of the run's own agents (the transfer chain), not of agents run as tools: Claude Code's `--max-turns`. */
  maxTurns?: number | undefined;
  maxModelCalls?: number | undefined;
  maxToolCalls?: number | undefined;
  /** Prompt and completion tokens together, as the providers report them (adk's estimate where they do not). */
  maxTokens?: number | undefined;
  /** US dollars, from each model's price (`price:` on its `models:` entry, else the bundled list price). */
  maxCost?: number | undefined;
}

/** Caps per day over every run that shares a store (an ADK_HOME, a Redis that several workers share). */
export interface DailyLimits {
  maxModelCalls?: number | undefined;
  maxTokens?: number | undefined;
  /** US dollars. */
  maxCost?: number | undefined;
  /**
   * Whose day is counted: runs with the same scope on the same store share counters (`serve token …`
   * for one `adk serve` token, `queue` for a queue's workers). Default: every run on the store.
   */
  scope?: string | undefined;
}

/** Whether any daily cap is set (the scope alone sets none). */
export function hasDailyLimit(d: DailyLimits | undefined): d is DailyLimits {
  return !!d && (d.maxModelCalls !== undefined || d.maxTokens !== undefined || d.maxCost !== undefined);
}

/** Counters several processes share (the store's, for today), by name: each add is atomic and returns the total. */
export interface SharedCounter {
  add(name: string, amount: number): Promise<number>;
  get(name: string): Promise<number>;
  /** Where they are kept, for messages (the store's URL). */
  where: string;
}

/** A budget's name as people write it (`--raise max_cost=5`, `budget:` in agents files). */
export type BudgetName = 'max_turns' | 'max_model_calls' | 'max_tool_calls' | 'max_tokens' | 'max_cost';

/** Each name's field in BudgetLimits. */
export const BUDGET_FIELDS: Record<BudgetName, keyof BudgetLimits> = {
  max_turns: 'maxTurns',
  max_model_calls: 'maxModelCalls',
  max_tool_calls: 'maxToolCalls',
  max_tokens: 'maxTokens',
  max_cost: 'maxCost',
};

/** What a budget interrupt says: which budget, what was spent, and its limit. */
export interface BudgetReached {
  name: BudgetName;
  spent: number;
  limit: number;
}

/** What a run has spent so far. */
export interface BudgetSpent {
  turns: number;
  modelCalls: number;
  toolCalls: number;
  tokens: number;
  costUsd: number;
}

/** What one agent spent in a run against its own `budget:` (and the limits a person raised it to). */
export interface AgentSpending {
  modelCalls: number;
  tokens: number;
  costUsd: number;
  limits?: BudgetLimits | undefined;
}

/** A budget as a session saves it, so a run resumed in another process goes on counting. */
export interface BudgetState {
  limits: BudgetLimits;
  spent: BudgetSpent;
  /** Each agent's own spending (agents with a `budget:` of their own). */
  agents?: Record<string, AgentSpending> | undefined;
  /** A tool call was refused for max_tool_calls (the run stops before its next model call). */
  toolsRefused?: boolean | undefined;
}

/** The resume data that raises budgets: `{ raise: { max_model_calls: 40 } }`; `{ stop: true }` ends the run at the budget (incomplete); anything else leaves them as they are (the run stops again). */
export interface BudgetRaise {
  raise: Partial<Record<BudgetName, number>>;
}

/**
 * What a run has spent against its limits, shared by every agent of the run (the RunContext carries
 * it into sub-agents). Checked before each model or tool call starts, never during one. A ChatModelAgent
 * that finds a limit reached stops at that safe point with a `budget` interrupt; resuming it with
 * `{ raise: {...} }` goes on. A model call made elsewhere (a summary) past a limit throws
 * BudgetExceededError instead: the run ends incomplete (reason `budget`).
 */
export class RunBudget {
  turns = 0;
  modelCalls = 0;
  toolCalls = 0;
  tokens = 0;
  costUsd = 0;
  /** A tool call was refused for max_tool_calls: the next model call does not start until it is raised. */
  private toolsRefused = false;
  /**
   * Today's caps over every run on the same store. A model call is counted before it starts (so calls
   * never pass the cap); tokens and cost once it answers, so several processes together pass those by
   * at most the calls they have in flight. Reaching one ends the run (no raise: it is the operator's).
   */
  daily?: { limits: DailyLimits; counter: SharedCounter } | undefined;
  readonly limits: BudgetLimits;
  /** Agents' own spending in this run, by name: every activation of an agent counts on from the last. */
  private readonly agents = new Map<string, AgentSpending>();

  constructor(limits: BudgetLimits) {
    this.limits = { ...limits };
  }

  /** A budget saved with a session, counting on from where it stood. */
  static restore(state: BudgetState): RunBudget {
    const b = new RunBudget(state.limits);
    Object.assign(b, { turns: state.spent.turns ?? 0, modelCalls: state.spent.modelCalls, toolCalls: state.spent.toolCalls, tokens: state.spent.tokens, costUsd: state.spent.costUsd });
    for (const [name, s] of Object.entries(state.agents ?? {})) b.agents.set(name, { ...s });
    b.toolsRefused = state.toolsRefused === true;
    return b;
  }

  /** What a session saves. */
  state(): BudgetState {
    const agents = Object.fromEntries(this.agents);
    return {
      limits: { ...this.limits },
      spent: { turns: this.turns, modelCalls: this.modelCalls, toolCalls: this.toolCalls, tokens: this.tokens, costUsd: this.costUsd },
      ...(this.agents.size ? { agents } : {}),
      ...(this.toolsRefused ? { toolsRefused: true } : {}),
    };
  }

  /** An agent's own spending in this run (created at zero). */
  agent(name: string): AgentSpending {
    let s = this.agents.get(name);
    if (!s) this.agents.set(name, (s = { modelCalls: 0, tokens: 0, costUsd: 0 }));
    return s;
  }


  /**
   * The budget the next model call would pass, if one is reached (nothing is counted). `turn`: the call
   * is one of the run's own agents' (not of an agent run as a tool).
   */
  reached(turn = true): BudgetExceededError | undefined {
    const { maxTurns, maxModelCalls, maxToolCalls, maxTokens, maxCost } = this.limits;
    if (maxCost !== undefined && this.costUsd >= maxCost) return new BudgetExceededError('max_cost', this.costUsd, maxCost, `budget reached: max_cost (${formatUsd(this.costUsd)} spent of ${formatUsd(maxCost)}); the run stopped before the next call`);
    if (maxModelCalls !== undefined && this.modelCalls >= maxModelCalls) return new BudgetExceededError('max_model_calls', this.modelCalls, maxModelCalls);
    if (turn && maxTurns !== undefined && this.turns >= maxTurns) return new BudgetExceededError('max_turns', this.turns, maxTurns);
    if (maxTokens !== undefined && this.tokens >= maxTokens) return new BudgetExceededError('max_tokens', this.tokens, maxTokens);
    if (this.toolsRefused && maxToolCalls !== undefined && this.toolCalls >= maxToolCalls) return new BudgetExceededError('max_tool_calls', this.toolCalls, maxToolCalls);
    return undefined;
  }

  /** Before a model call: throws when a limit is reached, else counts the call. */
  beforeModelCall(model?: { modelName: string; price?: ModelPrice | undefined }, turn = true): void {
    const { maxCost } = this.limits;
    // A cap that cannot be counted is no cap: a model without a price does not run under one (raising it would not help).
    if (maxCost !== undefined && model && !model.price) throw new BudgetExceededError('max_cost', 0, maxCost, `the price of model '${model.modelName}' is unknown, so a cost budget cannot be kept; set price: { input, output } (USD per 1M tokens) on its models: entry`);
    const over = this.reached(turn);
    if (over) throw over;
    this.modelCalls++;
    if (turn) this.turns++;
  }

  /** Before a model call, after beforeModelCall: today's shared caps (throws BudgetExceededError), the call counted. */
  async beforeSharedCall(model?: { modelName: string; price?: ModelPrice | undefined }): Promise<void> {
    const d = this.daily;
    if (!d) return;
    const { maxModelCalls, maxTokens, maxCost } = d.limits;
    const reached = (name: string, spent: number, limit: number, shown: (n: number) => string = String) =>
      new BudgetExceededError(name, spent, limit, `daily budget reached: ${name} (${shown(spent)} spent today of ${shown(limit)} on ${d.counter.where}); it starts again at 00:00 UTC`);
    if (maxCost !== undefined) {
      if (model && !model.price) throw new BudgetExceededError('max_daily_cost', 0, maxCost, `the price of model '${model.modelName}' is unknown, so a daily cost budget cannot be kept; set price: { input, output } (USD per 1M tokens) on its models: entry`);
      const spent = await d.counter.get('cost_usd');
      if (spent >= maxCost) throw reached('max_daily_cost', spent, maxCost, formatUsd);
    }
    if (maxTokens !== undefined) {
      const spent = await d.counter.get('tokens');
      if (spent >= maxTokens) throw reached('max_daily_tokens', spent, maxTokens);
    }
    if (maxModelCalls !== undefined) {
      const total = await d.counter.add('model_calls', 1);
      if (total > maxModelCalls) {
        await d.counter.add('model_calls', -1);
        throw reached('max_daily_model_calls', total - 1, maxModelCalls);
      }
    }
  }

  /** A reply's tokens and cost, added to today's shared counters. */
  async spentShared(usage: Usage | undefined, price?: ModelPrice | undefined): Promise<void> {
    const d = this.daily;
    if (!d || !usage) return;
    const adds: Array<Promise<number>> = [];
    if (d.limits.maxTokens !== undefined) adds.push(d.counter.add('tokens', usage.promptTokens + usage.completionTokens));
    if (d.limits.maxCost !== undefined && price) adds.push(d.counter.add('cost_usd', costUsd(usage, price)));
    await Promise.all(adds);
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
   * and are saved; the run then stops before its next model call.
   */
  beforeToolCall(): string | undefined {
    const { maxToolCalls } = this.limits;
    if (maxToolCalls !== undefined && this.toolCalls >= maxToolCalls) {
      this.toolsRefused = true;
      return `Not run: this run's tool-call budget is spent (max_tool_calls ${maxToolCalls}).`;
    }
    this.toolCalls++;
    return undefined;
  }

  /** New limits from a person (`--raise max_cost=5`, the REPL's box): each must be a positive number. */
  raise(raise: Partial<Record<string, unknown>>): void {
    for (const [name, value] of Object.entries(raise)) {
      const field = Object.hasOwn(BUDGET_FIELDS, name) ? BUDGET_FIELDS[name as BudgetName] : undefined;
      if (!field) throw new Error(`cannot raise '${name}': budgets are ${Object.keys(BUDGET_FIELDS).join(', ')}`);
      if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw new Error(`cannot raise ${name} to ${JSON.stringify(value)}: give a number above 0`);
      this.limits[field] = value;
      if (name === 'max_tool_calls') this.toolsRefused = false;
    }
  }
}

/** The budgets a resume's data raises, or undefined when it raises none. */
export function raiseOf(data: unknown): Record<string, unknown> | undefined {
  const raise = (data as Partial<BudgetRaise> | undefined)?.raise;
  return raise && typeof raise === 'object' && !Array.isArray(raise) ? raise : undefined;
}

/** The name and figures of a BudgetExceededError, as its interrupt carries them. */
export function budgetReached(e: BudgetExceededError): BudgetReached {
  return { name: e.budget as BudgetName, spent: e.spent, limit: e.limit };
}

/** The limit offered when a person raises a reached budget without naming one: twice the old one (a cost to the cent). */
export function suggestedLimit(name: string, limit: number): number {
  return name === 'max_cost' ? Math.max(0.01, Math.round(limit * 200) / 100) : Math.max(1, Math.ceil(limit * 2));
}

/** A figure of a budget as people read it: dollars for `max_cost`, a count for the rest. */
export function budgetFigure(name: string, n: number): string {
  return name === 'max_cost' ? formatUsd(n) : String(n);
}

/** A model call of the run's own agents counts as a turn; one of an agent run as a tool (under a tool segment) does not. */
/** Where a model call is made: the run's budget, and whether the call is one of the run's turns (default: by its address). */
export interface BudgetedContext {
  budget?: RunBudget | undefined;
  address: ReadonlyArray<{ type: string }>;
  /** Counted as a turn (`max_turns`); compaction between turns is not. */
  turn?: boolean | undefined;
}

export const isTurn = (address: ReadonlyArray<{ type: string }>): boolean => !address.some((s) => s.type === 'tool');

/**
 * One model call under the run's budget (when it has one): checked before it starts, the run's caps
 * and today's, never in the middle; counted once it answers. Every agent's calls go through here:
 * a ChatModelAgent's, plan-execute's planner and replanner.
 */
export async function budgeted<T extends { usage?: Usage | undefined }>(
  ctx: BudgetedContext,
  model: { modelName: string; price?: ModelPrice | undefined },
  call: () => Promise<T>,
): Promise<T> {
  const budget = ctx.budget;
  if (!budget) return call();
  budget.beforeModelCall(model, ctx.turn ?? isTurn(ctx.address));
  await budget.beforeSharedCall(model);
  const reply = await call();
  budget.spent(reply.usage, model.price);
  await budget.spentShared(reply.usage, model.price);
  return reply;
}

/** The model with each of its calls checked against, and counted in, `ctx`'s budget (summaries, compaction). */
export function underBudget(model: ChatModel, ctx: BudgetedContext): ChatModel {
  if (!ctx.budget) return model;
  return Object.create(model, { generate: { value: (messages: Message[], options?: ModelCallOptions) => budgeted(ctx, model, () => model.generate(messages, options)) } }) as ChatModel;
}
