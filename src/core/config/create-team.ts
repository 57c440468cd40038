import { ChatModelAgent } from '../agents/chat-model-agent.js';
import { agentWithOptions, setSubAgents } from '../agents/flow.js';
import type { Agent } from '../agents/types.js';
import { LoopAgent, ParallelAgent, SequentialAgent } from '../agents/workflow.js';
import { ConfigError } from '../errors.js';
import type { ChatModel } from '../models/chat-model.js';
import type { RetryPolicy } from '../models/retry.js';
import { Executor, Planner, Replanner, planExecute } from '../prebuilt/plan-execute/index.js';
import { supervisor } from '../prebuilt/supervisor.js';
import { researchTeam } from '../prebuilt/research/research-team.js';
import { agentTool } from '../agents/agent-tool.js';
import { deepAgent } from '../prebuilt/deep/deep-agent.js';
import { agentsMdMiddleware } from '../middlewares/agents-md.js';
import { skillsMiddleware } from '../middlewares/skills.js';
import type { Tool } from '../tools/tool.js';
import type { ToolRef as RegistryToolRef } from '../tools/registry.js';
import type { A2aAgentRef, AgentConfig, MiddlewareRef, ModelConfig, TeamConfig, ToolRef } from './types.js';
import { A2aAgent } from '../prebuilt/a2a/a2a-agent.js';
import type { AgentMiddleware } from '../agents/middleware.js';
import { pathToFileURL } from 'node:url';
import { summarizeMiddleware } from '../middlewares/summarize.js';
import { reduceToolResultsMiddleware } from '../middlewares/reduce-tool-results.js';
import { importModule } from '../dynamic-import.js';
import { Hooks } from '../middlewares/hooks/middleware.js';
import { hasHooks } from '../middlewares/hooks/config.js';

/** What building a team needs from outside; tests inject scripted models and fake tools. */
export interface TeamDeps {
  /** Builds (or reuses) the model for a `models:` entry. */
  model(config: ModelConfig): ChatModel;
  /** Resolves an agent's tool references (built-ins, MCP servers, modules). */
  tools(refs: RegistryToolRef[]): Promise<Tool[]>;
  /** Overrides of the model retry policy for every agent (e.g. from ADK_MAX_RETRIES). */
  retry?: Partial<RetryPolicy> | undefined;
  /** The workspace: its AGENTS.md reaches every chat and deep agent (unless `agents_md: false`). */
  workspace?: string | undefined;
  /** The person's own AGENTS.md (ADK_HOME/AGENTS.md), read with the workspace's by every chat and deep agent. */
  userAgentsMd?: string | undefined;
  /** More of the person's instruction files read for every folder (Claude Code's `~/.claude/CLAUDE.md`). */
  userMemoryFiles?: readonly string[] | undefined;
  /** Folders of skills (`<skill>/SKILL.md`), first wins a name: ADK_HOME's `skills`, then the workspace's `.adk/skills`. */
  skillDirs?: string[] | undefined;
  /** Keeps an agent's MCP tools as their servers list them now (tools/list_changed); undefined: as built. */
  liveMcpTools?(servers: string[]): AgentMiddleware | undefined;
  /** Loads a `{ module: … }` middleware (only ever called for a trusted file). Default: import it. */
  middleware?(ref: Extract<MiddlewareRef, { kind: 'module' }>): Promise<AgentMiddleware>;
  /**
   * The team's hooks (the host's settings joined with the file's `hooks:`). Default: the file's
   * own `hooks:`, run in `workspace`.
   */
  hooks?: Hooks | undefined;
  /** Private hosts remote A2A agents may be reached at (ADK_FETCH_ALLOW_HOSTS); otherwise public addresses, or one the URL names. */
  a2aAllowHosts?: readonly string[] | undefined;
}

/**
 * The seed's contract: a validated config in, a runnable agent tree out. Each call builds fresh
 * agent instances (an agent can have only one parent and is frozen after its first run).
 */
export async function createTeam(config: TeamConfig, deps: TeamDeps, rootName: string = config.default): Promise<Agent> {
  const models = new Map<string, ChatModel>();
  const modelFor = (name: string): ChatModel => {
    let m = models.get(name);
    if (!m) {
      const mc = config.models.get(name);
      if (!mc) throw new ConfigError(`model '${name}' is not defined in ${config.file}`);
      m = deps.model(mc);
      models.set(name, m);
    }
    return m;
  };
  const building = new Set<string>();
  const hooks = deps.hooks ?? (hasHooks(config.hooks) ? new Hooks({ hooks: config.hooks!, cwd: deps.workspace ?? config.dir }) : undefined);
  // The agent that takes the person's prompt: the root, or the supervisor a supervisor team starts with.
  const rootConfig = config.agents.get(rootName);
  const promptAgent = rootConfig?.type === 'supervisor' ? rootConfig.supervisor : rootName;
  /** The hooks middleware of one agent: the prompt agent fires the prompt and stop events, the rest SubagentStop. */
  const hooksFor = (name: string | undefined): AgentMiddleware[] => (hooks?.active ? [hooks.middleware(name === promptAgent ? 'root' : 'subagent')] : []);

  async function build(name: string): Promise<Agent> {
    const a = config.agents.get(name);
    if (!a) throw new ConfigError(`agent '${name}' is not defined in ${config.file}`);
    if (building.has(name)) throw new ConfigError(`agent '${name}' is part of a cycle in ${config.file}`);
    building.add(name);
    try {
      return await buildAgent(a);
    } finally {
      building.delete(name);
    }
  }

  async function children(names: string[], remote: A2aAgentRef[] = []): Promise<Agent[]> {
    const out: Agent[] = [];
    for (const n of names) {
      const child = await build(n);
      const c = config.agents.get(n);
      out.push(c?.type === 'chat' && c.disallowTransferToParent ? agentWithOptions(child, { disallowTransferToParent: true }) : child);
    }
    for (const r of remote) {
      const agent = await a2aAgent(r);
      // Names are read from cards only now: two children of one name could not be told apart.
      if (out.some((o) => o.name === agent.name)) throw new ConfigError(`the A2A agent at ${r.url} is named '${agent.name}' like another sub-agent in ${config.file}: give it another name ({ a2a: …, name: … })`);
      out.push(agent);
    }
    return out;
  }

  /** A remote A2A agent, its card read now (name and description default from it). */
  function a2aAgent(r: A2aAgentRef): Promise<Agent> {
    return A2aAgent.connect({ url: r.url, name: r.name, description: r.description, allowHosts: deps.a2aAllowHosts });
  }

  async function buildAgent(a: AgentConfig): Promise<Agent> {
    switch (a.type) {
      case 'chat': {
        const agent = new ChatModelAgent({
          name: a.name,
          description: a.description,
          instruction: a.instruction,
          model: modelFor(a.model),
          tools: await resolveTools(a.tools),
          approval: a.approval,
          returnDirectly: a.returnDirectly,
          outputKey: a.outputKey,
          maxIterations: a.maxIterations,
          ...(a.budget ? { budget: a.budget } : {}),
          exit: a.exit,
          retry: deps.retry,
          middlewares: [...hooksFor(a.name), ...liveTools(a.tools), ...contextMiddlewares(a.agentsMd), ...(await buildMiddlewares(a.middlewares, deps))],
        });
        return a.subAgents.length || a.remoteSubAgents?.length ? setSubAgents(agent, await children(a.subAgents, a.remoteSubAgents)) : agent;
      }
      case 'deep':
        return deepAgent({
          name: a.name,
          description: a.description,
          instruction: a.instruction || undefined,
          model: modelFor(a.model),
          tools: await resolveTools(a.tools),
          approval: a.approval,
          // Fresh instances: run by the task tool, never transferred to.
          subAgents: [...(await buildEach(a.subAgents)), ...(await children([], a.remoteSubAgents))],
          generalPurpose: a.generalPurpose,
          maxIterations: a.maxIterations,
          outputKey: a.outputKey,
          retry: deps.retry,
          middlewares: [...hooksFor(a.name), ...liveTools(a.tools), ...contextMiddlewares(a.agentsMd), ...(await buildMiddlewares(a.middlewares, deps))],
          subAgentMiddlewares: [...hooksFor(undefined), ...contextMiddlewares(a.agentsMd)],
        });
      case 'sequential':
        return new SequentialAgent({ name: a.name, description: a.description, subAgents: await children(a.subAgents, a.remoteSubAgents) });
      case 'parallel':
        return new ParallelAgent({ name: a.name, description: a.description, subAgents: await children(a.subAgents, a.remoteSubAgents) });
      case 'loop':
        return new LoopAgent({ name: a.name, description: a.description, subAgents: await children(a.subAgents, a.remoteSubAgents), maxIterations: a.maxIterations });
      case 'supervisor':
        return supervisor({ supervisor: await build(a.supervisor), subAgents: await children(a.subAgents, a.remoteSubAgents) });
      case 'research': {
        const role = async (r: keyof typeof a.roles) => (a.roles[r] ? await build(a.roles[r]) : undefined);
        return researchTeam({
          name: a.name,
          description: a.description,
          coordinator: (await role('coordinator'))!,
          backgroundInvestigator: await role('background_investigator'),
          planner: (await role('planner'))!,
          researcher: (await role('researcher'))!,
          coder: await role('coder'),
          reporter: (await role('reporter'))!,
        });
      }
      case 'plan_execute':
        return planExecute({
          name: a.name,
          description: a.description,
          maxIterations: a.maxIterations,
          planner: new Planner({ model: modelFor(a.planner.model), instruction: a.planner.instruction, review: a.planner.review, retry: deps.retry }),
          executor: new Executor({ model: modelFor(a.executor.model), instruction: a.executor.instruction, tools: await resolveTools(a.executor.tools), approval: a.executor.approval, retry: deps.retry }),
          replanner: new Replanner({ model: modelFor(a.replanner.model), instruction: a.replanner.instruction, retry: deps.retry }),
        });
    }
  }

  /** One after another: builds share the cycle guard, so parallel builds of one agent would look like a cycle. */
  async function buildEach(names: string[]): Promise<Agent[]> {
    const out: Agent[] = [];
    for (const n of names) out.push(await build(n));
    return out;
  }

  /** What an agent knows of its folder: AGENTS.md and the skills. */
  function contextMiddlewares(agentsMd: boolean): AgentMiddleware[] {
    const out: AgentMiddleware[] = [];
    if (agentsMd && deps.workspace) out.push(agentsMdMiddleware(deps.workspace, { userFile: deps.userAgentsMd, userFiles: deps.userMemoryFiles }));
    if (deps.skillDirs?.length) out.push(skillsMiddleware(deps.skillDirs, deps.workspace));
    return out;
  }

  /** The agent's MCP servers, kept current when their tool lists change. */
  function liveTools(refs: ToolRef[]): AgentMiddleware[] {
    const servers = refs.flatMap((r) => (r.kind === 'mcp' ? [r.server] : []));
    const m = servers.length ? deps.liveMcpTools?.(servers) : undefined;
    return m ? [m] : [];
  }

  /** Built-in, MCP and module tools from the registry; `{ agent: … }` tools are fresh instances of those agents. */
  async function resolveTools(refs: ToolRef[]): Promise<Tool[]> {
    const tools = await deps.tools(refs.flatMap((r) => (r.kind === 'agent' || r.kind === 'a2a' ? [] : [toRegistryRef(r)])));
    for (const r of refs) {
      if (r.kind === 'a2a') tools.push(agentTool(await a2aAgent(r), { name: r.name, description: r.description }));
      if (r.kind !== 'agent') continue;
      const inner = await build(r.agent);
      tools.push(agentTool(inner, { name: r.name, emitInternalEvents: r.emitInternalEvents, fullChatHistoryAsInput: r.fullHistory, description: r.description }));
    }
    return tools;
  }

  return build(rootName);
}

/** `middlewares:` as written, else summarisation alone (no session dies at the context limit). */
async function buildMiddlewares(refs: MiddlewareRef[] | undefined, deps: TeamDeps): Promise<AgentMiddleware[]> {
  const out: AgentMiddleware[] = [];
  for (const r of refs ?? [{ kind: 'summarize' }]) {
    if (r.kind === 'summarize') out.push(summarizeMiddleware(r.options));
    else if (r.kind === 'reduce_tool_results') out.push(reduceToolResultsMiddleware(r.options));
    else out.push(await (deps.middleware ?? importMiddleware)(r));
  }
  return out;
}

/** A module's export (default unless named): a middleware object, or a function that returns one. */
export async function importMiddleware(ref: Extract<MiddlewareRef, { kind: 'module' }>): Promise<AgentMiddleware> {
  const mod = await importModule(pathToFileURL(ref.resolvedPath).href);
  const name = ref.exportName ?? 'default';
  let value = mod[name];
  if (typeof value === 'function') value = await (value as () => unknown)();
  const m = value as AgentMiddleware | undefined;
  if (!m || typeof m !== 'object' || typeof m.name !== 'string') {
    throw new ConfigError(`middleware module ${ref.path} must export${ref.exportName ? ` '${name}' as` : ' by default'} a middleware (an object with a name and hooks) or a function returning one`);
  }
  return m;
}

/** A normalised tool reference in the form ToolRegistry.resolve takes; module paths stay as written (relative to the registry's baseDir). */
export function toRegistryRef(ref: Exclude<ToolRef, { kind: 'agent' | 'a2a' }>): RegistryToolRef {
  switch (ref.kind) {
    case 'builtin':
      return ref.options ? { builtin: ref.name, options: ref.options } : ref.name;
    case 'mcp':
      return { mcp: ref.server };
    case 'module':
      return ref.exportName ? { module: ref.path, export: ref.exportName } : { module: ref.path };
  }
}
