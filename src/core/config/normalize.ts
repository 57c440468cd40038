import path from 'node:path';
import { DEFAULT_APPROVAL_TOOLS } from '../tools/builtin/index.js';
import type { ProblemCollector } from './problems.js';
import { DEFAULT_MODEL, type ResolvedRefs } from './references.js';
import { budgetLimitsOf, type RawAgent } from './schema.js';
import type { RawTeam } from './shape-check.js';
import type { AgentConfig, AgentPermissions, AgentType, McpServerDef, ModelConfig, ResearchRole, TeamConfig, ToolRef } from './types.js';
import { parseAllowRule } from '../agents/allow-rules.js';

/** Builds the normalized TeamConfig. Only called once the file has no problems. */
export function normalize(team: RawTeam, refs: ResolvedRefs, file: string, dir: string, c: ProblemCollector): TeamConfig {
  const models = new Map<string, ModelConfig>();
  if (!team.models.has(DEFAULT_MODEL)) models.set(DEFAULT_MODEL, { name: DEFAULT_MODEL, provider: 'openai', fromEnvironment: true });
  for (const [name, m] of team.models) {
    const model: ModelConfig = { name, provider: m.provider ?? 'openai', fromEnvironment: false };
    if (m.model) model.model = m.model;
    if (m.base_url) model.baseUrl = m.base_url;
    if (m.api_key_env) model.apiKeyEnv = m.api_key_env;
    if (m.temperature !== undefined) model.temperature = m.temperature;
    if (m.top_p !== undefined) model.topP = m.top_p;
    if (m.max_tokens !== undefined) model.maxTokens = m.max_tokens;
    if (m.stop !== undefined) model.stop = m.stop;
    if (m.seed !== undefined) model.seed = m.seed;
    if (m.reasoning_effort !== undefined) model.reasoningEffort = m.reasoning_effort;
    if (m.parallel_tool_calls !== undefined) model.parallelToolCalls = m.parallel_tool_calls;
    if (m.stream_usage !== undefined) model.streamUsage = m.stream_usage;
    if (m.headers) model.headers = m.headers;
    if (m.query) model.query = m.query;
    if (m.extra_body) model.extraBody = m.extra_body;
    if (m.timeout_ms !== undefined) model.timeoutMs = m.timeout_ms;
    if (m.idle_timeout_ms !== undefined) model.idleTimeoutMs = m.idle_timeout_ms;
    if (m.context_window !== undefined) model.contextWindow = m.context_window;
    if (m.vision !== undefined) model.vision = m.vision;
    if (m.fallback?.length) model.fallback = m.fallback;
    if (m.api !== undefined) model.api = m.api;
    if (m.store !== undefined) model.store = m.store;
    if (m.previous_response_id !== undefined) model.previousResponseId = m.previous_response_id;
    if (m.reasoning_summary !== undefined) model.reasoningSummary = m.reasoning_summary;
    if (m.thinking_budget !== undefined) model.thinkingBudget = m.thinking_budget;
    if (m.thinking_level !== undefined) model.thinkingLevel = m.thinking_level;
    if (m.region) model.region = m.region;
    if (m.project) model.project = m.project;
    if (m.location) model.location = m.location;
    if (m.price !== undefined) model.price = { input: m.price.input, output: m.price.output, source: `price: on the models: entry '${name}'` };
    models.set(name, model);
  }

  const mcpServers = new Map<string, McpServerDef>();
  for (const [name, s] of team.mcpServers) {
    const def: McpServerDef = { name, command: s.command ?? '', args: s.args ?? [], env: { ...s.env }, pos: c.locate(['mcp_servers', name], 'key') };
    if (s.url) {
      def.url = s.url;
      if (s.transport) def.transport = s.transport;
      if (s.headers) def.headers = { ...s.headers };
    }
    if (s.cwd) def.cwd = path.resolve(dir, s.cwd);
    if (s.timeout_ms !== undefined) def.timeoutMs = s.timeout_ms;
    if (s.prefix !== undefined) def.prefix = s.prefix;
    if (s.tools) def.tools = { ...s.tools };
    if (s.read_only) def.readOnly = true;
    if (s.sandbox === 'off') def.sandbox = 'off';
    mcpServers.set(name, def);
  }

  const agents = new Map<string, AgentConfig>();
  for (const [name, raw] of team.agents) {
    agents.set(name, normalizeAgent(name, raw as RawAgent & { type: AgentType }, refs, c));
  }
  return { version: 1, file, dir, default: refs.default!, models, mcpServers, agents, roots: refs.graph.roots, allow: team.allow, envRead: [], ...(team.hooks ? { hooks: team.hooks } : {}), ...(team.budget ? { budget: team.budget } : {}) };
}

function normalizeAgent(name: string, a: RawAgent & { type: AgentType }, refs: ResolvedRefs, c: ProblemCollector): AgentConfig {
  const base = { name, description: a.description ?? '', pos: c.locate(['agents', name], 'key') } as {
    name: string;
    description: string;
    pos: AgentConfig['pos'];
    parent?: string | undefined;
  };
  const parent = refs.graph.parent.get(name);
  if (parent !== undefined) base.parent = parent;
  const remote = refs.a2aSubAgents?.get(name);
  if (remote?.length) Object.assign(base, { remoteSubAgents: remote });
  const tools = refs.tools.get(name) ?? [];
  // What chat and deep agents share: a model, an instruction, tools with approvals, sub-agents, context.
  const modelAgent = {
    instruction: a.instruction ?? '',
    model: a.model ?? DEFAULT_MODEL,
    tools,
    approval: a.approval ?? defaultApproval(tools),
    subAgents: localNames(a.sub_agents),
    agentsMd: a.agents_md ?? true,
  };
  const modelAgentOptional = { outputKey: a.output_key, maxIterations: a.max_iterations, middlewares: refs.middlewares.get(name), permissions: agentPermissions(name, a) };
  switch (a.type) {
    case 'chat':
      return withOptional(
        {
          ...base,
          ...modelAgent,
          type: 'chat',
          returnDirectly: a.return_directly ?? [],
          disallowTransferToParent: a.disallow_transfer_to_parent ?? false,
          exit: a.exit ?? false,
        },
        { ...modelAgentOptional, budget: budgetLimitsOf(a.budget) },
      );
    case 'sequential':
    case 'parallel':
      return { ...base, type: a.type, subAgents: localNames(a.sub_agents) };
    case 'loop':
      return withOptional({ ...base, type: 'loop', subAgents: localNames(a.sub_agents) }, { maxIterations: a.max_iterations });
    case 'supervisor':
      return { ...base, type: 'supervisor', supervisor: a.supervisor!, subAgents: localNames(a.sub_agents) };
    case 'plan_execute': {
      const model = a.model ?? DEFAULT_MODEL;
      return withOptional(
        {
          ...base,
          type: 'plan_execute',
          model,
          planner: withOptional({ model: a.planner?.model ?? model, review: a.planner?.review ?? false }, { instruction: a.planner?.instruction }),
          executor: withOptional(
            { model: a.executor?.model ?? model, tools, approval: a.executor?.approval ?? defaultApproval(tools) },
            { instruction: a.executor?.instruction },
          ),
          replanner: withOptional({ model: a.replanner?.model ?? model }, { instruction: a.replanner?.instruction }),
        },
        { maxIterations: a.max_iterations },
      );
    }
    case 'research': {
      const roles = Object.fromEntries(Object.entries(a.roles ?? {}).filter(([, v]) => v !== undefined)) as Partial<Record<ResearchRole, string>>;
      return { ...base, type: 'research', roles, subAgents: Object.values(roles) };
    }
    case 'deep':
      return withOptional(
        { ...base, ...modelAgent, type: 'deep', generalPurpose: a.general_purpose ?? true },
        modelAgentOptional,
      );
  }
}

/** The file's own agents among `sub_agents:` (remote A2A agents are mappings, kept apart). */
function localNames(list: RawAgent['sub_agents']): string[] {
  return (list ?? []).filter((s): s is string => typeof s === 'string');
}

/** Built-in tools that ask for approval unless the agent lists `approval:` itself. */
function defaultApproval(tools: readonly ToolRef[]): string[] {
  return tools.flatMap((t) => (t.kind === 'builtin' && DEFAULT_APPROVAL_TOOLS.includes(t.name) ? [t.name] : []));
}

/** Adds the keys whose value is defined, so absent settings stay absent (not `undefined`). */
function withOptional<T extends object, O extends object>(obj: T, optional: O): T & Partial<{ [K in keyof O]: Exclude<O[K], undefined> }> {
  const out = obj as Record<string, unknown>;
  for (const [k, v] of Object.entries(optional)) if (v !== undefined) out[k] = v;
  return out as T & Partial<{ [K in keyof O]: Exclude<O[K], undefined> }>;
}

/** An agent's `permission_mode`, `allow` and `deny` (rules checked already, in shape-check). */
function agentPermissions(name: string, a: RawAgent): AgentPermissions | undefined {
  const raw = a as RawAgent & { permission_mode?: AgentPermissions['mode']; allow?: string[]; deny?: string[] };
  if (raw.permission_mode === undefined && !raw.allow?.length && !raw.deny?.length) return undefined;
  const rules = (texts: string[] = [], key: string) =>
    texts.flatMap((text) => {
      const r = parseAllowRule(text);
      return typeof r === 'string' ? [] : [{ ...r, source: `agents.yaml (agent ${name} ${key})` }];
    });
  return { ...(raw.permission_mode ? { mode: raw.permission_mode } : {}), allow: rules(raw.allow, 'allow'), deny: rules(raw.deny, 'deny') };
}
