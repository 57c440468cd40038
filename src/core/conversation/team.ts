import { ChatModelAgent } from '../agents/chat-model-agent.js';
import type { AllowRule } from '../agents/allow-rules.js';
import type { Agent } from '../agents/types.js';
import type { ChatModel } from '../models/chat-model.js';
import { isSummarizeMiddleware, type SummarizeOptions } from '../middlewares/summarize.js';
import { parametersJsonSchema } from '../tools/parameters.js';
import type { ToolInfo } from '../tools/tool.js';
import type { Hooks } from '../middlewares/hooks/middleware.js';
import type { BudgetLimits, DailyLimits } from '../agents/run-budget.js';

/** One agent's `permission_mode`, `allow` and `deny` (agents file): they add to the session's for that agent's calls. */
export interface AgentPermissionRules {
  mode?: 'default' | 'accept-edits' | 'plan' | undefined;
  allow: readonly AllowRule[];
  deny: readonly AllowRule[];
}

/** What a Conversation talks to: the root agent, and what its session records about it. */
export interface ConversationTeam {
  agent: Agent;
  /** The name saved with the session (default: the agent's). */
  rootName?: string | undefined;
  /** The model name saved with the session, for listings. */
  modelName?: string | undefined;
  /** The agents file the team came from and its hash (the CLI rebuilds the same team on resume). */
  agentsFile?: string | undefined;
  agentsHash?: string | undefined;
  /** The folder the tools work in. */
  workspace?: string | undefined;
  /** Calls that run without asking (besides the session's own "always allow" grants). */
  allowRules?: AllowRule[] | undefined;
  /** Calls never run (the model is told so), whatever else allows them: a person's `deny` rules. */
  denyRules?: AllowRule[] | undefined;
  /** Per agent (by name): its own mode and rules from the agents file, for its calls only. */
  agentPermissions?: ReadonlyMap<string, AgentPermissionRules> | undefined;
  /**
   * Tools that ask every time, whatever the session's grants and allow rules say: shell when its
   * sandbox was wanted but cannot be made here (those were given believing commands are contained).
   */
  alwaysAsk?: readonly string[] | undefined;
  /**
   * Settles once `alwaysAsk` is known (the sandbox probe runs alongside the start): a gated tool call
   * waits for it, so a grant is not ignored just because the probe has not answered yet (a loaded
   * machine); the model's first request does not.
   */
  alwaysAskKnown?: Promise<unknown> | undefined;
  /** Why the `alwaysAsk` tools ask although a grant or allow rule covers them: said with such an approval. */
  alwaysAskReason?: string | undefined;
  /** Each turn's caps (a face's `--max-cost`…, agents file `budget:`): every new turn starts a budget with them. */
  budget?: BudgetLimits | undefined;
  /** Caps per day over every run on the same store (`--max-daily-cost`…): kept in the store, so several workers share them. */
  dailyBudget?: DailyLimits | undefined;
  /** How the conversation compacts between turns; default: from the root agent's summarize middleware. */
  compaction?: TeamCompaction | undefined;
  /** The team's hooks: told before the conversation compacts (PreCompact, `auto` between turns, `manual` on `compact({ force })`). */
  hooks?: Pick<Hooks, 'preCompact'> | undefined;
  /** OpenTelemetry spans for each turn (the Runner's `tracing`); default true. */
  tracing?: boolean | undefined;
}

/** Compaction between turns and on demand: the root agent's summarize middleware and model. */
export interface TeamCompaction {
  model: ChatModel;
  /** Unknown: no automatic compaction between turns (the middleware has none either); `compact({ force })` still works. */
  window?: number | undefined;
  options: SummarizeOptions;
  /** The root agent's instruction and tools: sent with every request besides the history. */
  overhead: { instruction: string; tools: ToolInfo[] };
}

/** A root chat agent with the summarize middleware compacts its conversation between turns too. */
export function compactionOf(agent: Agent): TeamCompaction | undefined {
  if (!(agent instanceof ChatModelAgent)) return undefined;
  const mw = agent.config.middlewares?.find(isSummarizeMiddleware);
  if (!mw) return undefined;
  const window = mw.options.contextWindow ?? agent.config.model.contextWindow;
  const tools = (agent.config.tools ?? []).map((t) => ({ name: t.name, description: t.description, parameters: parametersJsonSchema(t) }));
  return { model: agent.config.model, window, options: mw.options, overhead: { instruction: agent.config.instruction ?? '', tools } };
}
