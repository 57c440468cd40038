import * as z from 'zod';
import { PROVIDER_NAMES } from '../models/providers.js';
import { AGENT_TYPES, type AgentType } from './types.js';
import type { BudgetLimits } from '../agents/run-budget.js';

/** Schema version 1 of agents.yaml (DESIGN §4). Shapes only; references are checked elsewhere. */

export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Agent names become transfer targets and tool names, so they follow OpenAI's tool-name rules. */
export const AGENT_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

const toolNameList = z.array(z.string().min(1));

export const topLevelSchema = z.strictObject({
  version: z.unknown(),
  default: z.string().min(1).optional(),
  models: z.record(z.string(), z.unknown()).nullable().optional(),
  mcp_servers: z.record(z.string(), z.unknown()).nullable().optional(),
  agents: z.record(z.string(), z.unknown()),
  /** Calls allowed without asking: `shell(git status*)`, `read_file`. */
  allow: z.array(z.string()).nullable().optional(),
  /** Claude Code's hooks block (event → [{ matcher, hooks: [{ type: command, command, timeout }] }]); checked by parseHooks. */
  hooks: z.record(z.string(), z.unknown()).nullable().optional(),
  /** Each run's caps, on every face (a face's own `--max-…` flags win): see budgetSchema. */
  budget: z.unknown().optional(),
});

const whole = z.number().int().min(1);
/** `budget:`: the caps of each run of the file's teams; a run that reaches one waits for a person to raise it. */
export const budgetSchema = z.strictObject({
  max_turns: whole.optional(),
  max_model_calls: whole.optional(),
  max_tool_calls: whole.optional(),
  max_tokens: whole.optional(),
  /** US dollars. */
  max_cost: z.number().positive().optional(),
});

const stringMap = z.record(z.string(), z.string());

export const modelSchema = z.strictObject({
  provider: z.enum(PROVIDER_NAMES).optional(),
  model: z.string().optional(),
  base_url: z.string().optional(),
  api_key_env: z
    .string()
    .regex(ENV_NAME, { error: 'api_key_env must be the NAME of an environment variable (like OPENAI_API_KEY), not a key' })
    .optional(),
  temperature: z.number().min(0).max(2).optional(),
  top_p: z.number().min(0).max(1).optional(),
  max_tokens: z.number().int().positive().optional(),
  stop: z.union([z.string(), z.array(z.string()).max(16)]).optional(),
  seed: z.number().int().optional(),
  reasoning_effort: z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']).optional(),
  parallel_tool_calls: z.boolean().optional(),
  stream_usage: z.boolean().optional(),
  headers: stringMap.optional(),
  query: stringMap.optional(),
  extra_body: z.record(z.string(), z.unknown()).optional(),
  timeout_ms: z.number().int().positive().optional(),
  idle_timeout_ms: z.number().int().positive().optional(),
  context_window: z.number().int().positive().optional(),
  /** Whether the model takes images and PDFs; `false` refuses them before any request (default: the provider's and model's known support). */
  vision: z.boolean().optional(),
  /** Other `models:` entries asked, in order, once this one is unavailable after its retries (429, 529, 5xx, timeout). */
  fallback: z.array(z.string().min(1)).optional(),
  /** `responses`: OpenAI's Responses API instead of Chat Completions (openai, azure). */
  api: z.enum(['chat_completions', 'responses']).optional(),
  /** Responses API: keep responses on OpenAI's side (default false: reasoning goes back encrypted). */
  store: z.boolean().optional(),
  /** Responses API with `store: true`: send only what is new, chained by `previous_response_id`. */
  previous_response_id: z.boolean().optional(),
  /** Responses API: the reasoning summaries asked for (default `auto` on reasoning models). */
  reasoning_summary: z.enum(['auto', 'concise', 'detailed', 'none']).optional(),
  /** Gemini: thinking tokens (0 off, -1 dynamic). */
  thinking_budget: z.number().int().min(-1).optional(),
  /** Gemini 3: thinking level. */
  thinking_level: z.enum(['minimal', 'low', 'medium', 'high']).optional(),
  /** Bedrock: the AWS region (default: the AWS chain's, AWS_REGION or the profile's). */
  region: z.string().min(1).optional(),
  /** Vertex AI: the Google Cloud project and location (default GOOGLE_CLOUD_PROJECT / GOOGLE_CLOUD_LOCATION). */
  project: z.string().min(1).optional(),
  location: z.string().min(1).optional(),
  /** US dollars per million tokens, for `/cost` and the status line. */
  price: z.strictObject({ input: z.number().nonnegative(), output: z.number().nonnegative() }).optional(),
});
export type RawModel = z.infer<typeof modelSchema>;

/** An MCP server: a local program (`command`, stdio) or a remote one (`url`, streamable HTTP or legacy SSE). */
export const mcpServerSchema = z.strictObject({
  command: z.string().min(1).optional(),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().min(1).optional(),
  url: z.string().min(1).optional(),
  /** `http` (streamable HTTP, falling back to SSE for older servers) or `sse` (legacy HTTP+SSE only). */
  transport: z.enum(['http', 'sse']).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  timeout_ms: z.number().int().positive().optional(),
  /** Offer the tools by the server's own names (default: `mcp__<server>__<tool>`). */
  prefix: z.boolean().optional(),
  /** Which tools are offered, by the server's own names. */
  tools: z.strictObject({ include: z.array(z.string().min(1)).optional(), exclude: z.array(z.string().min(1)).optional() }).optional(),
  /** The person's word that the server only reads: its tools run in plan mode (a trust power). */
  read_only: z.boolean().optional(),
  /** `off`: the server runs on the host, outside the sandbox (a trust power). */
  sandbox: z.enum(['auto', 'off']).optional(),
});
export type RawMcpServer = z.infer<typeof mcpServerSchema>;

export const mcpToolSchema = z.strictObject({ mcp: z.string().min(1) });
export const moduleToolSchema = z.strictObject({ module: z.string().min(1), export: z.string().min(1).optional() });
/** `- { agent: researcher, name: research, description: …, full_history: true, emit_internal_events: true }` */
export const agentToolSchema = z.strictObject({
  agent: z.string().min(1),
  name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_-]{0,63}$/, 'a tool name (letters, digits, _ and -, at most 64)').optional(),
  description: z.string().min(1).optional(),
  full_history: z.boolean().optional(),
  emit_internal_events: z.boolean().optional(),
});
/** A remote A2A agent, as a sub-agent or a tool: `- { a2a: https://host/agent, name?, description? }` (name and description default from its Agent Card). */
export const a2aRefSchema = z.strictObject({
  a2a: z.string().min(1),
  name: z.string().regex(AGENT_NAME, 'an agent name (letters, digits, _ and -, at most 64)').optional(),
  description: z.string().min(1).optional(),
});
export type RawA2aRef = z.infer<typeof a2aRefSchema>;
const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name');
/** `- shell: { sandbox: off, network: true, env: [NPM_CONFIG_REGISTRY], read_paths: [~/.cargo/registry] }` */
export const shellOptionsSchema = z.strictObject({
  sandbox: z.enum(['auto', 'off']).optional(),
  network: z.boolean().optional(),
  env: z.array(envName).optional(),
  read_paths: z.array(z.string().min(1)).optional(),
});
/** `- fetch_url: { allow_hosts: [localhost:8080, 10.0.0.0/8] }` */
export const fetchUrlOptionsSchema = z.strictObject({ allow_hosts: z.array(z.string().min(1)).optional() });

export const plannerSchema = z.strictObject({
  model: z.string().min(1).optional(),
  instruction: z.string().optional(),
  review: z.boolean().optional(),
});
export const executorSchema = z.strictObject({
  model: z.string().min(1).optional(),
  instruction: z.string().optional(),
  tools: z.array(z.unknown()).optional(),
  approval: toolNameList.optional(),
});
export const replannerSchema = z.strictObject({
  model: z.string().min(1).optional(),
  instruction: z.string().optional(),
});

/** A research team's `roles:`: each role's agent (coordinator, planner, researcher and reporter are required). */
export const researchRolesSchema = z.strictObject({
  coordinator: z.string().min(1),
  background_investigator: z.string().min(1).optional(),
  planner: z.string().min(1),
  researcher: z.string().min(1),
  coder: z.string().min(1).optional(),
  reporter: z.string().min(1),
});

/** `budget: { max_model_calls: 20, … }` as the runtime's limits (unset when none is given). */
export function budgetLimitsOf(b: z.infer<typeof budgetSchema> | undefined): BudgetLimits | undefined {
  if (!b) return undefined;
  const limits = { maxTurns: b.max_turns, maxModelCalls: b.max_model_calls, maxToolCalls: b.max_tool_calls, maxTokens: b.max_tokens, maxCost: b.max_cost };
  const set = Object.fromEntries(Object.entries(limits).filter(([, v]) => v !== undefined)) as BudgetLimits;
  return Object.keys(set).length ? set : undefined;
}

/** Every agent key and its shape; which keys a type accepts is in AGENT_KEYS_BY_TYPE. */
const agentKeys = {
  type: z.enum(AGENT_TYPES),
  description: z.string(),
  instruction: z.string(),
  model: z.string().min(1),
  tools: z.array(z.unknown()),
  approval: toolNameList,
  return_directly: toolNameList,
  output_key: z.string().min(1),
  max_iterations: z.number().int().min(0),
  // Agent names, or remote A2A agents (mappings checked with a2aRefSchema in references.ts).
  sub_agents: z.array(z.union([z.string().min(1), z.record(z.string(), z.unknown())])),
  disallow_transfer_to_parent: z.boolean(),
  exit: z.boolean(),
  middlewares: z.array(z.unknown()),
  agents_md: z.boolean(),
  general_purpose: z.boolean(),
  supervisor: z.string().min(1),
  planner: plannerSchema,
  executor: executorSchema,
  replanner: replannerSchema,
  roles: researchRolesSchema,
  // An agent's own caps: its model calls, turns, tokens and cost (tool calls are the run's to cap).
  budget: budgetSchema.omit({ max_tool_calls: true }),
  // What this agent's calls may do unasked (accept-edits, allow: trust powers) or never (plan, deny).
  permission_mode: z.enum(['default', 'accept-edits', 'plan']),
  allow: z.array(z.string().min(1)),
  deny: z.array(z.string().min(1)),
};
export type AgentKey = keyof typeof agentKeys;
export const ALL_AGENT_KEYS = Object.keys(agentKeys) as AgentKey[];

export const AGENT_KEYS_BY_TYPE: Record<AgentType, readonly AgentKey[]> = {
  chat: ['type', 'description', 'instruction', 'model', 'tools', 'approval', 'return_directly', 'output_key', 'max_iterations', 'sub_agents', 'disallow_transfer_to_parent', 'exit', 'middlewares', 'agents_md', 'budget', 'permission_mode', 'allow', 'deny'],
  deep: ['type', 'description', 'instruction', 'model', 'tools', 'approval', 'output_key', 'max_iterations', 'sub_agents', 'middlewares', 'agents_md', 'general_purpose', 'permission_mode', 'allow', 'deny'],
  sequential: ['type', 'description', 'sub_agents'],
  parallel: ['type', 'description', 'sub_agents'],
  loop: ['type', 'description', 'sub_agents', 'max_iterations'],
  supervisor: ['type', 'description', 'supervisor', 'sub_agents'],
  plan_execute: ['type', 'description', 'model', 'planner', 'executor', 'replanner', 'max_iterations'],
  research: ['type', 'description', 'roles'],
};

const REQUIRED: Partial<Record<AgentType, readonly AgentKey[]>> = {
  sequential: ['sub_agents'],
  parallel: ['sub_agents'],
  loop: ['sub_agents'],
  supervisor: ['supervisor', 'sub_agents'],
  research: ['roles'],
};

/** A parsed agent; any key may be missing when its value was invalid (already reported). */
export interface RawAgent {
  type?: AgentType | undefined;
  description?: string | undefined;
  instruction?: string | undefined;
  model?: string | undefined;
  tools?: unknown[] | undefined;
  approval?: string[] | undefined;
  return_directly?: string[] | undefined;
  output_key?: string | undefined;
  max_iterations?: number | undefined;
  sub_agents?: Array<string | Record<string, unknown>> | undefined;
  disallow_transfer_to_parent?: boolean | undefined;
  exit?: boolean | undefined;
  middlewares?: unknown[] | undefined;
  agents_md?: boolean | undefined;
  general_purpose?: boolean | undefined;
  supervisor?: string | undefined;
  planner?: z.infer<typeof plannerSchema> | undefined;
  executor?: z.infer<typeof executorSchema> | undefined;
  replanner?: z.infer<typeof replannerSchema> | undefined;
  roles?: z.infer<typeof researchRolesSchema> | undefined;
  budget?: z.infer<typeof budgetSchema> | undefined;
}

function buildAgentSchema(keys: readonly AgentKey[], required: readonly AgentKey[] = []) {
  const shape: Record<string, z.ZodType> = {};
  for (const k of keys) {
    let s: z.ZodType = agentKeys[k];
    // Lists that define a workflow must not be empty.
    if (required.includes(k) && k === 'sub_agents') s = agentKeys.sub_agents.min(1);
    shape[k] = required.includes(k) ? s : s.optional();
  }
  return z.strictObject(shape);
}

export const agentSchemaByType = Object.fromEntries(
  AGENT_TYPES.map((t) => [t, buildAgentSchema(AGENT_KEYS_BY_TYPE[t], REQUIRED[t])]),
) as Record<AgentType, z.ZodObject>;

/** Used when `type` itself is invalid: accepts any agent key so only real mistakes are reported. */
export const anyAgentSchema = buildAgentSchema(ALL_AGENT_KEYS);
