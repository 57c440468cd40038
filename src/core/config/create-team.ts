import { ChatModelAgent } from '../agents/chat-model-agent.js';
import { agentWithOptions, setSubAgents } from '../agents/flow.js';
import type { Agent } from '../agents/types.js';
import { LoopAgent, ParallelAgent, SequentialAgent } from '../agents/workflow.js';
import { ConfigError } from '../errors.js';
import type { ChatModel } from '../models/chat-model.js';
import type { RetryPolicy } from '../models/retry.js';
import { Executor, Planner, Replanner, planExecute } from '../prebuilt/plan-execute/index.js';
import { supervisor } from '../prebuilt/supervisor.js';
import { agentTool } from '../agents/agent-tool.js';
import { deepAgent } from '../prebuilt/deep/deep-agent.js';
import { agentsMdMiddleware } from '../middlewares/agents-md.js';
import { skillsMiddleware } from '../middlewares/skills.js';
import type { Tool } from '../tools/tool.js';
import type { ToolRef as RegistryToolRef } from '../tools/registry.js';
import type { AgentConfig, MiddlewareRef, ModelConfig, TeamConfig, ToolRef } from './types.js';
import type { AgentMiddleware } from '../agents/middleware.js';
import { pathToFileURL } from 'node:url';
import { summarizeMiddleware } from '../middlewares/summarize.js';
import { reduceToolResultsMiddleware } from '../middlewares/reduce-tool-results.js';
import { importModule } from '../dynamic-import.js';

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
  /** Folders of skills (`<skill>/SKILL.md`), first wins a name: ADK_HOME's `skills`, then the workspace's `.adk/skills`. */
  skillDirs?: string[] | undefined;
  /** Loads a `{ module: … }` middleware (only ever called for a trusted file). Default: import it. */
  middleware?(ref: Extract<MiddlewareRef, { kind: 'module' }>): Promise<AgentMiddleware>;
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

  async function children(names: string[]): Promise<Agent[]> {
    const out: Agent[] = [];
    for (const n of names) {
      const child = await build(n);
      const c = config.agents.get(n);
      out.push(c?.type === 'chat' && c.disallowTransferToParent ? agentWithOptions(child, { disallowTransferToParent: true }) : child);
    }
    return out;
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
          exit: a.exit,
          retry: deps.retry,
          middlewares: [...contextMiddlewares(a.agentsMd), ...(await buildMiddlewares(a.middlewares, deps))],
        });
        return a.subAgents.length ? setSubAgents(agent, await children(a.subAgents)) : agent;
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
          subAgents: await buildEach(a.subAgents),
          generalPurpose: a.generalPurpose,
          maxIterations: a.maxIterations,
          outputKey: a.outputKey,
          retry: deps.retry,
          middlewares: [...contextMiddlewares(a.agentsMd), ...(await buildMiddlewares(a.middlewares, deps))],
          subAgentMiddlewares: contextMiddlewares(a.agentsMd),
        });
      case 'sequential':
        return new SequentialAgent({ name: a.name, description: a.description, subAgents: await children(a.subAgents) });
      case 'parallel':
        return new ParallelAgent({ name: a.name, description: a.description, subAgents: await children(a.subAgents) });
      case 'loop':
        return new LoopAgent({ name: a.name, description: a.description, subAgents: await children(a.subAgents), maxIterations: a.maxIterations });
      case 'supervisor':
        return supervisor({ supervisor: await build(a.supervisor), subAgents: await children(a.subAgents) });
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
    if (agentsMd && deps.workspace) out.push(agentsMdMiddleware(deps.workspace));
    if (deps.skillDirs?.length) out.push(skillsMiddleware(deps.skillDirs, deps.workspace));
    return out;
  }

  /** Built-in, MCP and module tools from the registry; `{ agent: … }` tools are fresh instances of those agents. */
  async function resolveTools(refs: ToolRef[]): Promise<Tool[]> {
    const tools = await deps.tools(refs.flatMap((r) => (r.kind === 'agent' ? [] : [toRegistryRef(r)])));
    for (const r of refs) {
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
export function toRegistryRef(ref: Exclude<ToolRef, { kind: 'agent' }>): RegistryToolRef {
  switch (ref.kind) {
    case 'builtin':
      return ref.options ? { builtin: ref.name, options: ref.options } : ref.name;
    case 'mcp':
      return { mcp: ref.server };
    case 'module':
      return ref.exportName ? { module: ref.path, export: ref.exportName } : { module: ref.path };
  }
}
