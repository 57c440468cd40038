import type { HooksConfig } from '../middlewares/hooks/config.js';
import type { AllowRule } from '../agents/allow-rules.js';
import type { BudgetLimits } from '../agents/run-budget.js';
import type { SamplingOptions } from '../models/openai-params.js';
import type { ProviderName } from '../models/providers.js';
import type { AgentMiddleware } from '../agents/middleware.js';
import type { SummarizeOptions } from '../middlewares/summarize.js';
import type { ReduceToolResultsOptions } from '../middlewares/reduce-tool-results.js';
import type { BuiltinToolConfig } from '../tools/builtin/index.js';

/**
 * The normalized team configuration produced from agents.yaml. Everything is resolved and
 * defaulted, so building agents from it needs no further lookups in the YAML.
 */

export const AGENT_TYPES = ['chat', 'sequential', 'parallel', 'loop', 'supervisor', 'plan_execute', 'deep', 'research'] as const;
/** An agent's `type:` in agents.yaml. */
export type AgentType = (typeof AGENT_TYPES)[number];

/** 1-based position in the YAML source. */
export interface SourcePos {
  line: number;
  col: number;
}

/** One `models:` entry; the request settings (temperature … extraBody) are the model's own SamplingOptions. */
export interface ModelConfig extends SamplingOptions {
  name: string;
  provider: ProviderName;
  model?: string | undefined;
  /** Omitted when empty (e.g. `"${OPENAI_BASE_URL:-}"` with the variable unset). */
  baseUrl?: string | undefined;
  /** The NAME of the environment variable holding the key; never the key itself. */
  apiKeyEnv?: string | undefined;
  /** Values may come from `${VAR}` references, expanded when the file is read; never stored. */
  headers?: Record<string, string> | undefined;
  query?: Record<string, string> | undefined;
  timeoutMs?: number | undefined;
  idleTimeoutMs?: number | undefined;
  contextWindow?: number | undefined;
  /** `vision:`: whether the model takes images and PDFs (unset: known per provider and name). */
  vision?: boolean | undefined;
  /** `fallback:`: names of other entries asked in order when this one is unavailable after its retries. */
  fallback?: string[] | undefined;
  /** `api: responses`: OpenAI's Responses API (openai, azure). */
  api?: 'chat_completions' | 'responses' | undefined;
  /** Responses API: `store`, and chaining by `previous_response_id` (needs store). */
  store?: boolean | undefined;
  previousResponseId?: boolean | undefined;
  reasoningSummary?: 'auto' | 'concise' | 'detailed' | 'none' | undefined;
  /** Gemini thinking config. */
  thinkingBudget?: number | undefined;
  thinkingLevel?: 'minimal' | 'low' | 'medium' | 'high' | undefined;
  /** Bedrock's AWS region; Vertex's project and location. */
  region?: string | undefined;
  project?: string | undefined;
  location?: string | undefined;
  /** `price: { input, output }`: US dollars per million tokens (default: the list price for the model's name). */
  price?: { input: number; output: number; source?: string } | undefined;
  /**
   * True for the implicit `default` model when agents.yaml defines none: its settings come from
   * OPENAI_API_KEY / OPENAI_BASE_URL / ADK_MODEL when the team is built.
   */
  fromEnvironment: boolean;
}

/** Assignable to the McpServerConfig of src/core/tools/mcp.ts: a program (`command`) or a remote server (`url`). */
export interface McpServerDef {
  name: string;
  /** Empty for a remote server. */
  command: string;
  args: string[];
  env: Record<string, string>;
  url?: string | undefined;
  transport?: 'http' | 'sse' | undefined;
  /** Values may come from `${VAR}` references (a secret stays out of the store and the output). */
  headers?: Record<string, string> | undefined;
  /** Absolute; relative `cwd` values are resolved against the folder of agents.yaml. */
  cwd?: string | undefined;
  /** Per-call timeout for this server's tools. */
  timeoutMs?: number | undefined;
  /** `false`: the tools keep the server's own names where nothing else has them (default: `mcp__<server>__<tool>`). */
  prefix?: boolean | undefined;
  /** Which tools are offered, by the server's own names (exclude wins). */
  tools?: { include?: string[] | undefined; exclude?: string[] | undefined } | undefined;
  /** `read_only: true`: the person says the server only reads; its tools run in plan mode. */
  readOnly?: boolean | undefined;
  /** `sandbox: off`: a local server runs on the host instead of the shell's sandbox. */
  sandbox?: 'off' | undefined;
  pos: SourcePos;
}

/** One `middlewares:` entry of a chat agent. A module's middleware is loaded (after trust) before the team is built. */
export type MiddlewareRef =
  | { kind: 'summarize'; options?: SummarizeOptions; pos?: SourcePos }
  | { kind: 'reduce_tool_results'; options?: ReduceToolResultsOptions; pos?: SourcePos }
  | { kind: 'module'; path: string; resolvedPath: string; exportName?: string; pos?: SourcePos; middleware?: AgentMiddleware };

/** `{ a2a: https://host/agent, name?, description? }`: a remote A2A agent (name and description default from its Agent Card). */
export interface A2aAgentRef {
  url: string;
  name?: string | undefined;
  description?: string | undefined;
  pos: SourcePos;
}

/** One entry of an agent's `tools:` list (or `executor.tools:`), resolved: a built-in, an MCP server, a module export or another agent. */
export type ToolRef =
  | { kind: 'builtin'; name: string; options?: BuiltinToolConfig; pos: SourcePos }
  | { kind: 'mcp'; server: string; pos: SourcePos }
  /** `path` as written; `resolvedPath` is absolute and known to stay inside the folder of agents.yaml. */
  | { kind: 'module'; path: string; resolvedPath: string; exportName?: string; pos: SourcePos }
  /** `{ agent: researcher }`: another agent of the file, run as a tool (a fresh instance, its own context). */
  | { kind: 'agent'; agent: string; name?: string; description?: string; fullHistory?: boolean; emitInternalEvents?: boolean; pos: SourcePos }
  /** `{ a2a: https://host/agent }`: a remote A2A agent run as a tool. */
  | ({ kind: 'a2a' } & A2aAgentRef);

interface AgentConfigBase {
  name: string;
  description: string;
  /** Position of the agent's name key. */
  pos: SourcePos;
  /** The agent that lists this one as a child (sub-agent or supervisor), if any. */
  parent?: string | undefined;
  /** Remote A2A agents among `sub_agents:` (after the file's own, which are in `subAgents`). */
  remoteSubAgents?: A2aAgentRef[] | undefined;
}

/** `permission_mode`, `allow`, `deny` on a chat or deep agent: what its own calls may do unasked, or never. */
export interface AgentPermissions {
  mode?: 'default' | 'accept-edits' | 'plan' | undefined;
  allow: AllowRule[];
  deny: AllowRule[];
}

/** `type: chat`: a ChatModelAgent with its model, instruction, tools and sub-agents it may transfer to. */
export interface ChatAgentConfig extends AgentConfigBase {
  type: 'chat';
  instruction: string;
  /** A key of TeamConfig.models (always present there). */
  model: string;
  tools: ToolRef[];
  /**
   * Tool names that stop the run and ask a person first: the `approval:` list as written, or, when
   * the key is absent, the agent's tools among DEFAULT_APPROVAL_TOOLS (`shell`).
   */
  approval: string[];
  /** Tool names whose result ends the agent's turn. */
  returnDirectly: string[];
  outputKey?: string | undefined;
  /** Unset means the ChatModelAgent default. */
  maxIterations?: number | undefined;
  subAgents: string[];
  disallowTransferToParent: boolean;
  /** Gives the agent the `exit` tool. */
  exit: boolean;
  /** `budget:`: this agent's own caps in a run (its model calls, turns, tokens, cost). */
  budget?: BudgetLimits | undefined;
  /** `middlewares:` as written; unset means the default (summarize). */
  middlewares?: MiddlewareRef[] | undefined;
  /** Add the workspace's AGENTS.md to the instruction (`agents_md: false` turns it off). */
  agentsMd: boolean;
  permissions?: AgentPermissions | undefined;
}

/** `type: deep`: Eino's DeepAgent, with write_todos, a task tool over its sub_agents, file and shell tools. */
export interface DeepAgentConfig extends AgentConfigBase {
  type: 'deep';
  /** Added to the default deep-agent instruction. */
  instruction: string;
  model: string;
  /** Defaults to the file and shell tools. */
  tools: ToolRef[];
  approval: string[];
  /** What `task` can run, each in a fresh context (not transfer targets). */
  subAgents: string[];
  /** A general-purpose sub-agent with the same tools (default true). */
  generalPurpose: boolean;
  maxIterations?: number | undefined;
  outputKey?: string | undefined;
  middlewares?: MiddlewareRef[] | undefined;
  agentsMd: boolean;
  permissions?: AgentPermissions | undefined;
}

/** `type: sequential | parallel | loop`: runs its `sub_agents` in order, at the same time, or in a loop. */
export interface WorkflowAgentConfig extends AgentConfigBase {
  type: 'sequential' | 'parallel' | 'loop';
  subAgents: string[];
  /** Only for `loop`; unset means the LoopAgent default. */
  maxIterations?: number | undefined;
}

/** `type: supervisor`: the `supervisor:` chat agent hands work to its `sub_agents`, which report back to it. */
export interface SupervisorAgentConfig extends AgentConfigBase {
  type: 'supervisor';
  /** The agent that supervises; it is a child of this node like the sub-agents. */
  supervisor: string;
  subAgents: string[];
}

/** The `planner:` block of a plan_execute agent: the model that writes the first plan. */
export interface PlannerConfig {
  model: string;
  instruction?: string | undefined;
  /** Stop for a person to review the plan before executing it. */
  review: boolean;
}

/** The `executor:` block of a plan_execute agent: the tool-using agent that carries out each step. */
export interface ExecutorConfig {
  model: string;
  instruction?: string | undefined;
  tools: ToolRef[];
  approval: string[];
}

/** The `replanner:` block of a plan_execute agent: the model that revises the plan or gives the final answer. */
export interface ReplannerConfig {
  model: string;
  instruction?: string | undefined;
}

/** `type: plan_execute`: plan once, then execute a step and replan, round after round, until the replanner answers or `max_iterations` rounds have run. */
export interface PlanExecuteAgentConfig extends AgentConfigBase {
  type: 'plan_execute';
  /** Default model of the three inline parts. */
  model: string;
  planner: PlannerConfig;
  executor: ExecutorConfig;
  replanner: ReplannerConfig;
  maxIterations?: number | undefined;
}

/** The roles of a research team (Deer-Go's graph), each an agent of the file. */
export const RESEARCH_ROLES = ['coordinator', 'background_investigator', 'planner', 'researcher', 'coder', 'reporter'] as const;
export type ResearchRole = (typeof RESEARCH_ROLES)[number];

/** `type: research`: Deer-Go's research graph over the agents named in `roles:` (coordinator, planner, researcher and reporter required). */
export interface ResearchAgentConfig extends AgentConfigBase {
  type: 'research';
  roles: Partial<Record<ResearchRole, string>>;
  subAgents: string[];
}

/** One `agents:` entry, told apart by `type`. */
export type AgentConfig = ChatAgentConfig | WorkflowAgentConfig | SupervisorAgentConfig | PlanExecuteAgentConfig | DeepAgentConfig | ResearchAgentConfig;

/** A whole validated agents.yaml: models, MCP servers, agents and the `allow:` rules. */
export interface TeamConfig {
  version: 1;
  /** The file the configuration came from, as given (used in messages). */
  file: string;
  /** Absolute folder of the file: module paths and MCP `cwd` are relative to it. */
  dir: string;
  /** Agent to start with: `default:` or else the first root agent in file order. */
  default: string;
  /** Always contains `default` (possibly `fromEnvironment`). */
  models: Map<string, ModelConfig>;
  mcpServers: Map<string, McpServerDef>;
  /** In file order. */
  agents: Map<string, AgentConfig>;
  /** Agents that are nobody's child, in file order. */
  roots: string[];
  /** Calls allowed without asking (`allow:`), e.g. `shell(git status*)`. */
  allow: AllowRule[];
  /** Environment variables the file reads through `${…}`. */
  envRead: string[];
  /** `hooks:`: commands run on the team's events (Claude Code's format); a power, so only in a trusted file. */
  hooks?: HooksConfig | undefined;
  /** `budget:`: each run's caps (a face's own flags win, limit by limit). */
  budget?: BudgetLimits | undefined;
}

/** What loadConfigFile returns: the configuration and the file it was read from. */
export interface LoadedConfig {
  /** Absolute path of the file that was read. */
  file: string;
  config: TeamConfig;
}

/** One thing wrong with an agents file, located by line, column and key path (see formatProblem). */
export interface ConfigProblem {
  file: string;
  /** 1-based; 0 when the problem has no position (e.g. the file cannot be read). */
  line: number;
  col: number;
  /** Dotted path of the offending key, e.g. `agents.coder.tools[2]`; '' for the whole file. */
  path: string;
  message: string;
  hint?: string | undefined;
}

/** What validateConfig returns: `config` when `ok`, else every problem found. */
export interface ValidationResult {
  ok: boolean;
  config?: TeamConfig | undefined;
  problems: ConfigProblem[];
}

/** Options for loading and validating an agents file. */
export interface ConfigOptions {
  /** Variables for `${VAR}` interpolation; defaults to process.env. */
  env?: Record<string, string | undefined>;
  /** Folder module paths are checked against; defaults to the folder of `file`. */
  baseDir?: string | undefined;
  /** Nodes that aliases may expand to (alias-bomb guard); default max(10 000, length of the text). */
  maxAliasExpansion?: number | undefined;
}
