import * as z from 'zod';
import { PROVIDER_NAMES } from '../models/providers.js';
import { AGENT_TYPES, type AgentType } from './types.js';

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
  /** US dollars per million tokens, for `/cost` and the status line. */
  price: z.strictObject({ input: z.number().nonnegative(), output: z.number().nonnegative() }).optional(),
});
export type RawModel = z.infer<typeof modelSchema>;

export const mcpServerSchema = z.strictObject({
  command: z.string().min(1),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().min(1).optional(),
  timeout_ms: z.number().int().positive().optional(),
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
  sub_agents: z.array(z.string().min(1)),
  disallow_transfer_to_parent: z.boolean(),
  exit: z.boolean(),
  middlewares: z.array(z.unknown()),
  agents_md: z.boolean(),
  general_purpose: z.boolean(),
  supervisor: z.string().min(1),
  planner: plannerSchema,
  executor: executorSchema,
  replanner: replannerSchema,
};
export type AgentKey = keyof typeof agentKeys;
export const ALL_AGENT_KEYS = Object.keys(agentKeys) as AgentKey[];

export const AGENT_KEYS_BY_TYPE: Record<AgentType, readonly AgentKey[]> = {
  chat: ['type', 'description', 'instruction', 'model', 'tools', 'approval', 'return_directly', 'output_key', 'max_iterations', 'sub_agents', 'disallow_transfer_to_parent', 'exit', 'middlewares', 'agents_md'],
  deep: ['type', 'description', 'instruction', 'model', 'tools', 'approval', 'output_key', 'max_iterations', 'sub_agents', 'middlewares', 'agents_md', 'general_purpose'],
  sequential: ['type', 'description', 'sub_agents'],
  parallel: ['type', 'description', 'sub_agents'],
  loop: ['type', 'description', 'sub_agents', 'max_iterations'],
  supervisor: ['type', 'description', 'supervisor', 'sub_agents'],
  plan_execute: ['type', 'description', 'model', 'planner', 'executor', 'replanner', 'max_iterations'],
};

const REQUIRED: Partial<Record<AgentType, readonly AgentKey[]>> = {
  sequential: ['sub_agents'],
  parallel: ['sub_agents'],
  loop: ['sub_agents'],
  supervisor: ['supervisor', 'sub_agents'],
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
  sub_agents?: string[] | undefined;
  disallow_transfer_to_parent?: boolean | undefined;
  exit?: boolean | undefined;
  middlewares?: unknown[] | undefined;
  agents_md?: boolean | undefined;
  general_purpose?: boolean | undefined;
  supervisor?: string | undefined;
  planner?: z.infer<typeof plannerSchema> | undefined;
  executor?: z.infer<typeof executorSchema> | undefined;
  replanner?: z.infer<typeof replannerSchema> | undefined;
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
