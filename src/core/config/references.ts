import { isReservedName } from './shape-check.js';
import { checkAgentGraph, type AgentGraph } from './agent-graph.js';
import { didYouMean } from './did-you-mean.js';
import type { PathSeg, ProblemCollector } from './problems.js';
import type { RawTeam } from './shape-check.js';
import { checkToolNames, checkTools } from './tool-refs.js';
import type { MiddlewareRef, ToolRef } from './types.js';
import { checkMiddlewares } from './middleware-refs.js';

/** The implicit model: `models.default` when defined, else the environment at build time. */
export const DEFAULT_MODEL = 'default';

export interface ResolvedRefs {
  graph: AgentGraph;
  /** Valid tool references per agent (`tools`), and per plan_execute agent (`executor.tools`). */
  tools: Map<string, ToolRef[]>;
  /** Valid `middlewares:` per chat agent that lists them. */
  middlewares: Map<string, MiddlewareRef[]>;
  default?: string;
}

/** Cross-reference checks: default agent, models, MCP servers, tools, approval lists, agent graph. */
export function checkReferences(team: RawTeam, baseDir: string, c: ProblemCollector): ResolvedRefs {
  const tools = new Map<string, ToolRef[]>();
  const middlewares = new Map<string, MiddlewareRef[]>();
  const ctx = { c, baseDir, mcpServers: new Set(team.mcpServers.keys()) };
  const modelNames = new Set([DEFAULT_MODEL, ...team.models.keys()]);
  const checkModel = (name: string | undefined, path: PathSeg[]) => {
    if (name === undefined || modelNames.has(name)) return;
    c.report(path, `undefined model '${name}'${didYouMean(name, modelNames)}`, {
      hint: `define it under models:, or leave 'model' out to use the default model`,
    });
  };

  for (const [name, agent] of team.agents) {
    const base = ['agents', name];
    checkModel(agent.model, [...base, 'model']);
    if (agent.type === 'chat') {
      const refs = checkTools(agent.tools, [...base, 'tools'], ctx);
      tools.set(name, refs);
      checkToolNames(agent.approval, 'approval', refs, [...base, 'approval'], c);
      checkToolNames(agent.return_directly, 'return_directly', refs, [...base, 'return_directly'], c);
      if (agent.middlewares) middlewares.set(name, checkMiddlewares(agent.middlewares, [...base, 'middlewares'], c, baseDir));
    } else if (agent.type === 'plan_execute') {
      checkModel(agent.planner?.model, [...base, 'planner', 'model']);
      checkModel(agent.executor?.model, [...base, 'executor', 'model']);
      checkModel(agent.replanner?.model, [...base, 'replanner', 'model']);
      const refs = checkTools(agent.executor?.tools, [...base, 'executor', 'tools'], ctx);
      tools.set(name, refs);
      checkToolNames(agent.executor?.approval, 'approval', refs, [...base, 'executor', 'approval'], c);
    }
  }

  const graph = checkAgentGraph(team, c);
  for (const [name, agent] of team.agents) {
    const sup = agent.type === 'supervisor' && agent.supervisor !== undefined ? team.agents.get(agent.supervisor) : undefined;
    // The supervisor hands work out by transferring, which only chat agents can do.
    if (sup?.type && sup.type !== 'chat') {
      c.report(['agents', name, 'supervisor'], `supervisor '${agent.supervisor}' must be a chat agent, not ${sup.type}`);
    }
  }
  let def = team.default;
  if (def !== undefined && !team.agents.has(def) && !isReservedName(def)) {
    c.report(['default'], `undefined agent '${def}'${didYouMean(def, team.agents.keys())}`, {
      hint: team.agents.size ? `agents: ${[...team.agents.keys()].slice(0, 10).join(', ')}` : undefined,
    });
    def = undefined;
  }
  return { graph, tools, middlewares, default: def ?? graph.roots[0] ?? team.agents.keys().next().value };
}
