import { isReservedName } from './shape-check.js';
import { checkAgentGraph, childRefs, type AgentGraph } from './agent-graph.js';
import { didYouMean } from './did-you-mean.js';
import type { PathSeg, ProblemCollector } from './problems.js';
import type { RawTeam } from './shape-check.js';
import { checkToolNames, checkTools } from './tool-refs.js';
import type { MiddlewareRef, ToolRef } from './types.js';
import { checkMiddlewares } from './middleware-refs.js';

/** The implicit model: `models.default` when defined, else the environment at build time. */
export const DEFAULT_MODEL = 'default';

/** What a `type: deep` agent works with when it lists no tools. */
export const DEEP_DEFAULT_TOOLS: readonly string[] = ['read_file', 'write_file', 'edit_file', 'list_dir', 'grep', 'shell'];

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
  const agents = new Map([...team.agents].map(([n, a]) => [n, { description: a.description || undefined }]));
  const ctx = { c, baseDir, mcpServers: new Set(team.mcpServers.keys()), agents };
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
    if (agent.type === 'chat' || agent.type === 'deep') {
      // A deep agent without `tools:` gets the file and shell tools.
      const list = agent.type === 'deep' && agent.tools === undefined ? DEEP_DEFAULT_TOOLS : agent.tools;
      const refs = checkTools(list, [...base, 'tools'], ctx);
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
  reportAgentToolCycles(team, tools, c);
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

/**
 * An agent that reaches itself through agent tools (and sub-agents) could never be built: report
 * the tool reference that closes the loop. Depth-first over the file's agents, linear in references.
 */
function reportAgentToolCycles(team: RawTeam, tools: Map<string, ToolRef[]>, c: ProblemCollector): void {
  const edges = new Map<string, Array<{ to: string; path: PathSeg[]; tool: boolean }>>();
  for (const [name, agent] of team.agents) {
    const out = childRefs(name, agent).map((r) => ({ to: r.name, path: r.path, tool: false }));
    const refs = tools.get(name) ?? [];
    const list = agent.type === 'plan_execute' ? ['agents', name, 'executor', 'tools'] : ['agents', name, 'tools'];
    const raw = (agent.type === 'plan_execute' ? agent.executor?.tools : agent.tools) ?? [];
    for (const ref of refs) {
      if (ref.kind !== 'agent') continue;
      const i = raw.findIndex((t) => !!t && typeof t === 'object' && (t as { agent?: unknown }).agent === ref.agent && (t as { name?: unknown }).name === ref.name);
      out.push({ to: ref.agent, path: [...list, Math.max(0, i)], tool: true });
    }
    edges.set(name, out);
  }
  const state = new Map<string, 1 | 2>();
  const stack: string[] = [];
  const visit = (n: string, usedTool: boolean): void => {
    state.set(n, 1);
    stack.push(n);
    for (const e of edges.get(n) ?? []) {
      if (!edges.has(e.to)) continue;
      if (state.get(e.to) === 1) {
        const loop = [...stack.slice(stack.indexOf(e.to)), e.to];
        // Cycles of sub-agents alone are the agent graph's to report.
        if (usedTool || e.tool) c.report(e.path, `agent cycle through agent tools: ${loop.join(' -> ')}`, { hint: 'an agent cannot use itself, directly or through others, as a tool' });
        continue;
      }
      if (!state.has(e.to)) visit(e.to, usedTool || e.tool);
    }
    stack.pop();
    state.set(n, 2);
  };
  for (const name of team.agents.keys()) if (!state.has(name)) visit(name, false);
}
