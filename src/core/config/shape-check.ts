import type { z } from 'zod';
import { closest, didYouMean } from './did-you-mean.js';
import type { PathSeg, ProblemCollector } from './problems.js';
import {
  AGENT_KEYS_BY_TYPE,
  AGENT_NAME,
  agentSchemaByType,
  budgetLimitsOf,
  budgetSchema,
  ALL_AGENT_KEYS,
  anyAgentSchema,
  executorSchema,
  plannerSchema,
  replannerSchema,
  mcpServerSchema,
  modelSchema,
  topLevelSchema,
  type RawAgent,
  type RawMcpServer,
  type RawModel,
} from './schema.js';
import { AGENT_TYPES, type AgentType } from './types.js';
import { parseAllowRule, type AllowRule } from '../agents/allow-rules.js';
import type { BudgetLimits } from '../agents/run-budget.js';
import { parseHooks, type HooksConfig } from '../middlewares/hooks/config.js';

/** The file's data after shape checks; values that failed them are left out (already reported). */
export interface RawTeam {
  default?: string | undefined;
  models: Map<string, RawModel>;
  mcpServers: Map<string, Partial<RawMcpServer>>;
  /** `type` is resolved (chat by default); undefined when the written type is invalid. */
  agents: Map<string, RawAgent & { type?: AgentType }>;
  allow: AllowRule[];
  budget?: BudgetLimits;
  /** `hooks:`, its valid entries (the others are reported). */
  hooks?: HooksConfig | undefined;
}

/** `at` is where the key sits below the checked object ([] for its own keys). */
type UnknownKeyMessage = (key: string, at: readonly PathSeg[]) => { message: string; hint?: string };

/**
 * `__proto__` and `constructor` cannot be names (of an agent, a model, a server, a variable):
 * JavaScript objects treat them as their own machinery, so a check would see something other
 * than what the file holds (a mapping with a `constructor` key is not a plain object to zod).
 * Each one is reported where it is written and dropped, so the rest of the file is still checked.
 */
const RESERVED_KEYS = ['__proto__', 'constructor'];
/** Whether a name was refused as reserved (references to it are not reported again). */
export const isReservedName = (name: string): boolean => RESERVED_KEYS.includes(name);

function dropReservedKeys(root: unknown, c: ProblemCollector): void {
  const stack: Array<{ value: unknown; path: PathSeg[] }> = [{ value: root, path: [] }];
  while (stack.length) {
    const { value, path } = stack.pop()!;
    if (!value || typeof value !== 'object') continue;
    for (const key of Array.isArray(value) ? [] : RESERVED_KEYS) {
      if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
      c.report([...path, key], `'${key}' cannot be used as a name or key`, { at: 'key', hint: 'choose another name (JavaScript reserves it on every object)' });
      delete (value as Record<string, unknown>)[key];
    }
    for (const [k, v] of Object.entries(value)) stack.push({ value: v, path: [...path, Array.isArray(value) ? Number(k) : k] });
  }
}

export function checkShape(root: unknown, c: ProblemCollector): RawTeam {
  const team: RawTeam = { models: new Map(), mcpServers: new Map(), agents: new Map(), allow: [] };
  if (root === null || root === undefined) {
    c.report([], 'the file is empty', { hint: 'start with "version: 1" and an "agents:" mapping' });
    return team;
  }
  const hadReservedAgents = isRecord(root) && isRecord(root.agents) && RESERVED_KEYS.some((k) => Object.prototype.hasOwnProperty.call(root.agents, k));
  dropReservedKeys(root, c);
  const top = checkObject(topLevelSchema, root, [], c, (key) => ({
    message: `unknown top-level key '${key}'${didYouMean(key, Object.keys(topLevelSchema.shape))}`,
  }));
  if (!top) return team;

  if (top.version === undefined) c.report([], "missing 'version: 1'", { hint: 'add "version: 1" as the first line' });
  else if (top.version !== 1) c.report(['version'], `unsupported version ${JSON.stringify(top.version)} (expected 1)`);
  if (top.default !== undefined) team.default = top.default;
  for (const [i, text] of (top.allow ?? []).entries()) {
    const rule = parseAllowRule(text);
    if (typeof rule === 'string') c.report(['allow', i], rule, { hint: 'e.g. allow: ["shell(git status*)", "shell(npm test)", read_file]' });
    else team.allow.push({ ...rule, source: 'agents.yaml' });
  }
  if (top.budget !== undefined && top.budget !== null) {
    const b = checkObject(budgetSchema, top.budget, ['budget'], c, (key) => ({
      message: `unknown budget '${key}'${didYouMean(key, Object.keys(budgetSchema.shape))}`,
      hint: 'e.g. budget: { max_cost: 2.50, max_model_calls: 40 }',
    }));
    const limits = b && budgetLimitsOf(b);
    if (limits) team.budget = limits;
  }
  if (top.hooks) {
    const { hooks, problems } = parseHooks(top.hooks, 'agents.yaml');
    for (const p of problems) c.report(['hooks', ...p.path], p.message, { ...(p.atKey ? { at: 'key' as const } : {}), hint: 'e.g. hooks: { PreToolUse: [{ matcher: shell, hooks: [{ type: command, command: ./check.sh }] }] }' });
    team.hooks = hooks;
  }

  for (const [name, raw] of entries(top.models)) {
    const path = ['models', name];
    if (isRecord(raw) && 'api_key' in raw) {
      c.report([...path, 'api_key'], 'API keys may not be written in agents.yaml', {
        at: 'key',
        hint: 'put the key in an environment variable and name it: api_key_env: OPENAI_API_KEY',
      });
      const { api_key: _dropped, ...rest } = raw;
      const m = checkObject(modelSchema, rest, path, c, unknownIn(modelSchema, 'model'));
      team.models.set(name, m ?? {});
      continue;
    }
    const model = checkObject(modelSchema, raw ?? {}, path, c, unknownIn(modelSchema, 'model')) ?? {};
    if (model.provider === 'azure' && !model.base_url) {
      c.report([...path, 'provider'], "provider 'azure' needs base_url", {
        hint: 'base_url: https://<resource>.openai.azure.com/openai/deployments/<deployment> (api-version goes in query:)',
      });
    }
    team.models.set(name, model);
  }

  for (const [name, raw] of entries(top.mcp_servers)) {
    const s = checkObject(mcpServerSchema, raw, ['mcp_servers', name], c, unknownIn(mcpServerSchema, 'MCP server'));
    if (s) checkMcpServerKind(s, ['mcp_servers', name], c);
    team.mcpServers.set(name, s ?? {}); // kept so references to it are not reported too
  }

  const agents = entries(top.agents);
  if ('agents' in top && top.agents && agents.length === 0 && !hadReservedAgents) c.report(['agents'], 'no agents are defined');
  for (const [name, raw] of agents) {
    if (!AGENT_NAME.test(name)) {
      c.report(['agents', name], `invalid agent name '${name}'`, {
        at: 'key',
        hint: 'use letters, digits, _ and - (starting with a letter or _), at most 64 characters',
      });
    }
    // Kept even when invalid, so references to it are not reported as undefined too.
    team.agents.set(name, checkAgent(name, raw, c) ?? { type: undefined });
  }
  return team;
}

function checkAgent(name: string, raw: unknown, c: ProblemCollector): (RawAgent & { type?: AgentType }) | undefined {
  const path = ['agents', name];
  if (!isRecord(raw)) {
    c.report(path, `expected a mapping of agent settings, got ${describe(raw)}`);
    return undefined;
  }
  let type: AgentType | undefined = 'chat';
  if ('type' in raw) {
    const t = raw.type;
    if (typeof t === 'string' && (AGENT_TYPES as readonly string[]).includes(t)) type = t as AgentType;
    else {
      type = undefined;
      const suggestion = typeof t === 'string' ? didYouMean(t, AGENT_TYPES) : '';
      c.report([...path, 'type'], `unknown agent type ${typeof t === 'string' ? `'${t}'` : describe(t)}${suggestion}`, {
        hint: `one of: ${AGENT_TYPES.join(', ')}`,
      });
    }
  }
  const schema = type ? agentSchemaByType[type] : anyAgentSchema;
  const { type: _type, ...rest } = raw;
  const parsed = checkObject(schema, rest, path, c, (key, at) =>
    at.length > 0 ? unknownPartKey(key, at) : unknownAgentKey(key, type ?? 'chat', type !== undefined),
  );
  // A porter's trap: Eino reads a model agent's 0 as "the default", a reader of the file as "none".
  // Said once, here, rather than guessed. (A loop's 0 is unbounded, in Eino and here: documented.)
  if (parsed && type !== 'loop' && (parsed as RawAgent).max_iterations === 0) {
    c.report([...path, 'max_iterations'], `max_iterations: 0 is no limit for ${type ?? 'chat'} agent '${name}' (Eino reads it as the default)`, { hint: 'leave it out for the default (20), or give the number of model calls, at least 1' });
    return undefined;
  }
  if (parsed) {
    const p = parsed as RawAgent & { allow?: string[]; deny?: string[] };
    for (const key of ['allow', 'deny'] as const) {
      for (const [i, text] of (p[key] ?? []).entries()) {
        const rule = parseAllowRule(text);
        if (typeof rule === 'string') c.report([...path, key, i], rule, { hint: `e.g. ${key}: ["shell(npm test)", write_file]` });
      }
    }
  }
  return parsed ? { ...(parsed as RawAgent), type } : { type };
}

function unknownAgentKey(key: string, type: AgentType, typeKnown: boolean): { message: string; hint?: string } {
  if (typeKnown && (ALL_AGENT_KEYS as string[]).includes(key)) {
    const types = AGENT_TYPES.filter((t) => (AGENT_KEYS_BY_TYPE[t] as string[]).includes(key));
    return {
      message: `key '${key}' is not allowed on a ${type} agent`,
      hint: `'${key}' is for ${types.join(', ')} agents; a ${type} agent takes: ${AGENT_KEYS_BY_TYPE[type].join(', ')}`,
    };
  }
  const allowed = typeKnown ? AGENT_KEYS_BY_TYPE[type] : ALL_AGENT_KEYS;
  const guess = closest(key, allowed) ?? closest(key, ALL_AGENT_KEYS);
  return { message: `unknown key '${key}'${guess ? ` (did you mean '${guess}'?)` : ''}` };
}

/** Keys inside plan_execute's inline planner / executor / replanner. */
function unknownPartKey(key: string, at: readonly PathSeg[]): { message: string; hint?: string } {
  const part = String(at[0]);
  const schema = { planner: plannerSchema, executor: executorSchema, replanner: replannerSchema }[part];
  const keys = schema ? Object.keys(schema.shape) : [];
  return { message: `unknown ${part} key '${key}'${didYouMean(key, keys)}`, hint: keys.length ? `allowed: ${keys.join(', ')}` : undefined };
}

function unknownIn(schema: z.ZodObject, what: string): UnknownKeyMessage {
  const keys = Object.keys(schema.shape);
  return (key) => ({ message: `unknown ${what} key '${key}'${didYouMean(key, keys)}`, hint: `allowed: ${keys.join(', ')}` });
}

/**
 * Runs a strict zod object schema and turns its issues into positioned problems.
 * Returns the object without the keys that failed, so later checks still see the rest.
 */
export function checkObject<T extends z.ZodObject>(
  schema: T,
  raw: unknown,
  path: readonly PathSeg[],
  c: ProblemCollector,
  unknownKey: UnknownKeyMessage,
): Partial<z.infer<T>> | undefined {
  if (!isRecord(raw)) {
    c.report(path, `expected a mapping, got ${describe(raw)}`);
    return undefined;
  }
  const result = schema.safeParse(raw, { reportInput: true });
  if (result.success) return result.data as Partial<z.infer<T>>;
  const bad = new Set<PropertyKey>();
  for (const issue of result.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const { message, hint } = unknownKey(key, issue.path as PathSeg[]);
        c.report([...path, ...(issue.path as PathSeg[]), key], message, { at: 'key', hint });
        if (issue.path.length === 0) bad.add(key);
      }
      continue;
    }
    if (issue.path.length > 0) bad.add(issue.path[0]);
    reportIssue(issue, path, c);
  }
  const kept: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) if (!bad.has(k)) kept[k] = v;
  return kept as Partial<z.infer<T>>;
}

function reportIssue(issue: z.core.$ZodIssue, base: readonly PathSeg[], c: ProblemCollector): void {
  const path = [...base, ...(issue.path as PathSeg[])];
  const last = path[path.length - 1];
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) c.report(path, `missing required key '${String(last)}'`);
      else c.report(path, `expected ${expectedText(issue.expected)}, got ${describe(issue.input)}`);
      return;
    case 'too_small':
      if (issue.origin === 'array') c.report(path, `must list at least ${issue.minimum} item${issue.minimum === 1 ? '' : 's'}`);
      else if (issue.origin === 'string') c.report(path, 'must not be empty');
      else c.report(path, `must be ${issue.inclusive ? '>=' : '>'} ${issue.minimum}`);
      return;
    case 'too_big':
      c.report(path, `must be ${issue.inclusive ? '<=' : '<'} ${issue.maximum}`);
      return;
    case 'invalid_value': {
      const values = issue.values.map((v) => `'${String(v)}'`).join(', ');
      const got = typeof issue.input === 'string' ? `'${issue.input}'${didYouMean(issue.input, issue.values.map(String))}` : describe(issue.input);
      c.report(path, `expected one of ${values}, got ${got}`);
      return;
    }
    default:
      c.report(path, issue.message);
  }
}

function expectedText(expected: string): string {
  switch (expected) {
    case 'int':
      return 'an integer';
    case 'array':
      return 'a list';
    case 'object':
    case 'record':
    case 'map':
      return 'a mapping';
    case 'boolean':
      return 'true or false';
    case 'number':
      return 'a number';
    case 'string':
      return 'a string';
    default:
      return expected;
  }
}

/** The kind of a value, never the value itself (it may hold a secret from the environment). */
export function describe(v: unknown): string {
  if (v === null || v === undefined) return 'nothing';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  if (typeof v === 'boolean') return 'a boolean';
  if (typeof v === 'number') return Number.isInteger(v) ? 'an integer' : 'a number';
  return `a ${typeof v}`;
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function entries(v: unknown): [string, unknown][] {
  return isRecord(v) ? Object.entries(v) : [];
}

/** A server is a program to start or a URL to reach, never both; each kind takes its own keys. */
function checkMcpServerKind(s: Partial<RawMcpServer>, path: PathSeg[], c: ProblemCollector): void {
  if (!s.command && !s.url) return c.report(path, 'an MCP server needs `command` (a program to start) or `url` (a remote server)', { at: 'key', hint: 'command: npx, args: [-y, some-mcp-server]  or  url: https://mcp.example.com/mcp' });
  if (s.command && s.url) return c.report([...path, 'url'], 'an MCP server has `command` or `url`, not both');
  if (s.url) {
    let url: URL | undefined;
    try {
      url = new URL(s.url);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) c.report([...path, 'url'], `'${s.url}' is not an http(s) URL`);
    for (const key of ['args', 'env', 'cwd'] as const) if (s[key] !== undefined) c.report([...path, key], `\`${key}\` is for servers adk starts (command:); a remote server takes url, headers, transport`);
  } else {
    for (const key of ['headers', 'transport'] as const) if (s[key] !== undefined) c.report([...path, key], `\`${key}\` is for remote servers (url:)`);
  }
}
