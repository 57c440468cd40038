import path from 'node:path';
import { BUILTIN_TOOL_NAMES, isBuiltinToolName } from '../tools/builtin/index.js';
import { checkModulePath } from '../tools/module-tool.js';
import { didYouMean } from './did-you-mean.js';
import type { PathSeg, ProblemCollector } from './problems.js';
import { checkObject, describe, isRecord } from './shape-check.js';
import { agentToolSchema, fetchUrlOptionsSchema, mcpToolSchema, moduleToolSchema, shellOptionsSchema } from './schema.js';
import { parseAllowHosts } from '../tools/net/address-policy.js';
import type { BuiltinToolConfig } from '../tools/builtin/index.js';
import type { ToolRef } from './types.js';
import { checkA2aRef } from './a2a-refs.js';

export interface ToolCheckContext {
  c: ProblemCollector;
  baseDir: string;
  mcpServers: ReadonlySet<string>;
  /** The file's agents, for `{ agent: … }` tools: name -> its description (if any). */
  agents?: ReadonlyMap<string, { description?: string }> | undefined;
}

const TOOL_FORMS =
  'a tool is a built-in name, a built-in with options ({ shell: { network: true } }, { fetch_url: { allow_hosts: [...] } }), { mcp: <server> }, { module: ./file.js, export?: <name> }, { agent: <agent>, name?, description?, full_history?, emit_internal_events? } or { a2a: https://host/agent, name?, description? }';
/** Tools adk adds itself (transfer, exit, deep agents, reduction, skills). */
const RESERVED_TOOL_NAMES = new Set(['transfer_to_agent', 'exit', 'task', 'write_todos', 'read_tool_result', 'skill']);

/** Built-ins that take options, and the schema of each. */
const OPTION_SCHEMAS = { shell: shellOptionsSchema, fetch_url: fetchUrlOptionsSchema } as const;

/** Checks a `tools:` list and returns the valid entries as references. */
export function checkTools(list: readonly unknown[] | undefined, base: readonly PathSeg[], ctx: ToolCheckContext): ToolRef[] {
  const refs: ToolRef[] = [];
  const seen = new Map<string, ToolRef['kind']>();
  (list ?? []).forEach((entry, i) => {
    const p = [...base, i];
    const ref = checkTool(entry, p, ctx);
    if (!ref) return;
    // Built-ins and agent tools are keyed by the name the model sees: two tools cannot share one.
    const id =
      ref.kind === 'builtin' ? ref.name : ref.kind === 'mcp' ? `mcp:${ref.server}` : ref.kind === 'agent' ? (ref.name ?? ref.agent) : ref.kind === 'a2a' ? (ref.name ?? `a2a:${ref.url}`) : `module:${ref.resolvedPath}#${ref.exportName ?? 'default'}`;
    if (seen.has(id)) {
      const again = seen.get(id) === ref.kind;
      ctx.c.report(
        p,
        again ? `tool ${ref.kind === 'builtin' ? `'${id}'` : ref.kind === 'agent' ? `'${id}'` : id} is listed twice` : `two tools are named '${id}'`,
        ref.kind === 'agent' ? { hint: `give the agent tool another name: { agent: ${ref.agent}, name: … }` } : {},
      );
      return;
    }
    if (ref.kind === 'agent' && RESERVED_TOOL_NAMES.has(id)) {
      ctx.c.report(p, `an agent tool cannot be named '${id}': adk adds a tool of that name itself`, { hint: `{ agent: ${ref.agent}, name: … }` });
      return;
    }
    seen.set(id, ref.kind);
    refs.push(ref);
  });
  return refs;
}

function checkTool(entry: unknown, p: PathSeg[], ctx: ToolCheckContext): ToolRef | undefined {
  const { c } = ctx;
  const pos = c.locate(p);
  if (typeof entry === 'string') {
    if (isBuiltinToolName(entry)) return { kind: 'builtin', name: entry, pos };
    const hint =
      entry === 'exit'
        ? 'the exit tool is not listed in tools: set "exit: true" on the agent'
        : entry === 'transfer_to_agent'
          ? 'transfer_to_agent is added automatically for agents with sub_agents'
          : `built-in tools: ${BUILTIN_TOOL_NAMES.join(', ')}`;
    c.report(p, `unknown tool '${entry}'${didYouMean(entry, BUILTIN_TOOL_NAMES)}`, { hint });
    return undefined;
  }
  if (!isRecord(entry)) {
    c.report(p, `expected a tool, got ${describe(entry)}`, { hint: TOOL_FORMS });
    return undefined;
  }
  if ('mcp' in entry) {
    const t = checkObject(mcpToolSchema, entry, p, c, (key) => ({ message: `unknown key '${key}' in an MCP tool`, hint: TOOL_FORMS }));
    if (!t?.mcp) return undefined;
    if (!ctx.mcpServers.has(t.mcp)) {
      c.report([...p, 'mcp'], `undefined MCP server '${t.mcp}'${didYouMean(t.mcp, ctx.mcpServers)}`, {
        hint: ctx.mcpServers.size ? `defined under mcp_servers: ${[...ctx.mcpServers].join(', ')}` : 'define it under mcp_servers:',
      });
      return undefined;
    }
    return { kind: 'mcp', server: t.mcp, pos };
  }
  if ('agent' in entry) return checkAgentTool(entry, p, ctx);
  if ('a2a' in entry) {
    const ref = checkA2aRef(entry, p, c);
    return ref && { kind: 'a2a', ...ref };
  }
  if ('module' in entry) {
    const t = checkObject(moduleToolSchema, entry, p, c, (key) => ({
      message: `unknown key '${key}' in a module tool${didYouMean(key, ['module', 'export'])}`,
      hint: TOOL_FORMS,
    }));
    if (!t?.module) return undefined;
    const refused = checkModulePath(ctx.baseDir, t.module);
    if (refused) {
      c.report([...p, 'module'], refused, { hint: 'module tools must live in the folder of agents.yaml or below it' });
      return undefined;
    }
    const ref: ToolRef = { kind: 'module', path: t.module, resolvedPath: path.resolve(ctx.baseDir, t.module), pos };
    if (t.export) ref.exportName = t.export;
    return ref;
  }
  const keys = Object.keys(entry);
  if (keys.length === 1 && isBuiltinToolName(keys[0])) return checkBuiltinWithOptions(keys[0], entry[keys[0]], p, c);
  const key = keys[0];
  c.report(p, `unknown tool form${key ? ` with key '${key}'${didYouMean(key, ['mcp', 'module'])}` : ''}`, { hint: TOOL_FORMS, at: 'value' });
  return undefined;
}

/** `{ agent: researcher, … }`: the agent must exist, and the tool needs a description (its own or the agent's). */
function checkAgentTool(entry: Record<string, unknown>, p: PathSeg[], ctx: ToolCheckContext): ToolRef | undefined {
  const { c } = ctx;
  const known = Object.keys(agentToolSchema.shape);
  const t = checkObject(agentToolSchema, entry, p, c, (key) => ({ message: `unknown key '${key}' in an agent tool${didYouMean(key, known)}`, hint: TOOL_FORMS }));
  if (!t?.agent) return undefined;
  const target = ctx.agents?.get(t.agent);
  if (ctx.agents && !target) {
    c.report([...p, 'agent'], `undefined agent '${t.agent}'${didYouMean(t.agent, ctx.agents.keys())}`);
    return undefined;
  }
  if (ctx.agents && !t.description && !target?.description) {
    c.report([...p, 'agent'], `agent '${t.agent}' has no description, and a tool needs one: the model reads it to decide when to call the tool`, {
      hint: `give '${t.agent}' a description, or the tool one: { agent: ${t.agent}, description: … }`,
    });
    return undefined;
  }
  const ref: ToolRef = { kind: 'agent', agent: t.agent, pos: c.locate(p) };
  if (t.name) ref.name = t.name;
  if (t.description) ref.description = t.description;
  if (t.full_history !== undefined) ref.fullHistory = t.full_history;
  if (t.emit_internal_events !== undefined) ref.emitInternalEvents = t.emit_internal_events;
  return ref;
}

/** `{ shell: { sandbox: off, network: true, env: [...] } }` or `{ fetch_url: { allow_hosts: [...] } }`. */
function checkBuiltinWithOptions(name: string, raw: unknown, p: PathSeg[], c: ProblemCollector): ToolRef | undefined {
  const pos = c.locate(p);
  if (!Object.prototype.hasOwnProperty.call(OPTION_SCHEMAS, name)) {
    c.report([...p, name], `the built-in tool '${name}' takes no options`, { at: 'key', hint: `list it by name: - ${name}` });
    return undefined;
  }
  const schema = OPTION_SCHEMAS[name as keyof typeof OPTION_SCHEMAS];
  const known = Object.keys(schema.shape);
  const o = checkObject(schema, raw ?? {}, [...p, name], c, (key) => ({ message: `unknown option '${key}' of ${name}${didYouMean(key, known)}`, hint: `${name} options: ${known.join(', ')}` }));
  if (!o) return undefined;
  const options: BuiltinToolConfig = {};
  if ('sandbox' in o && o.sandbox) options.sandbox = o.sandbox;
  if ('network' in o && o.network !== undefined) options.network = o.network;
  if ('env' in o && o.env) options.env = o.env;
  if ('read_paths' in o && o.read_paths) options.readPaths = o.read_paths;
  if ('allow_hosts' in o && o.allow_hosts) {
    try {
      parseAllowHosts(o.allow_hosts);
    } catch (e) {
      c.report([...p, name, 'allow_hosts'], (e as Error).message, { hint: 'entries are host, host:port, [v6]:port or a CIDR range such as 10.0.0.0/8' });
      return undefined;
    }
    options.allowHosts = o.allow_hosts;
  }
  return { kind: 'builtin', name, options, pos };
}

/**
 * Checks `approval:` / `return_directly:` against the agent's tools. Names of MCP or module tools
 * are only known once those are loaded, so with such tools a non-built-in name is accepted here.
 */
export function checkToolNames(names: readonly string[] | undefined, key: string, tools: readonly ToolRef[], base: readonly PathSeg[], c: ProblemCollector): void {
  if (!names) return;
  const have = new Set(tools.flatMap((t) => (t.kind === 'builtin' ? [t.name] : t.kind === 'agent' ? [t.name ?? t.agent] : t.kind === 'a2a' && t.name ? [t.name] : [])));
  // MCP, module and A2A tools are named by what they load (an A2A agent's card names it).
  const dynamic = tools.some((t) => (t.kind === 'mcp' || t.kind === 'module' || (t.kind === 'a2a' && !t.name)));
  const seen = new Set<string>();
  names.forEach((name, i) => {
    const p = [...base, i];
    if (seen.has(name)) return c.report(p, `'${name}' is listed twice in ${key}`);
    seen.add(name);
    if (have.has(name)) return;
    if (isBuiltinToolName(name)) {
      return c.report(p, `${key} names '${name}', which is not among this agent's tools`, { hint: `add '${name}' to tools, or remove it from ${key}` });
    }
    if (dynamic) return;
    c.report(p, `${key} names unknown tool '${name}'${didYouMean(name, have)}`, {
      hint: have.size ? `this agent's tools: ${[...have].join(', ')}` : 'this agent has no tools',
    });
  });
}
