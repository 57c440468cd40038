import { isReservedName } from './shape-check.js';
import { checkAgentGraph, childRefs, type AgentGraph } from './agent-graph.js';
import { didYouMean } from './did-you-mean.js';
import type { PathSeg, ProblemCollector } from './problems.js';
import type { RawTeam } from './shape-check.js';
import { checkToolNames, checkTools } from './tool-refs.js';
import type { A2aAgentRef, MiddlewareRef, ToolRef } from './types.js';
import { checkMiddlewares } from './middleware-refs.js';
import { checkA2aSubAgents } from './a2a-refs.js';
import { checkPermissionNames } from './permission-refs.js';

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
  /** Remote A2A agents among an agent's `sub_agents:`, per agent that lists some. */
  a2aSubAgents?: Map<string, A2aAgentRef[]> | undefined;
  default?: string | undefined;
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

  for (const [name, m] of team.models) {
    for (const [i, other] of (m.fallback ?? []).entries()) {
      if (other === name) c.report(['models', name, 'fallback', i], `model '${name}' names itself as its fallback`, { hint: 'list other models under fallback:' });
      else checkModel(other, ['models', name, 'fallback', i]);
    }
  }

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
      if (agent.type === 'deep') checkDeepSubAgents(name, agent, team, refs, c);
    } else if (agent.type === 'plan_execute') {
      checkModel(agent.planner?.model, [...base, 'planner', 'model']);
      checkModel(agent.executor?.model, [...base, 'executor', 'model']);
      checkModel(agent.replanner?.model, [...base, 'replanner', 'model']);
      const refs = checkTools(agent.executor?.tools, [...base, 'executor', 'tools'], ctx);
      tools.set(name, refs);
      checkToolNames(agent.executor?.approval, 'approval', refs, [...base, 'executor', 'approval'], c);
    }
  }

  const a2aSubAgents = new Map<string, A2aAgentRef[]>();
  for (const [name, agent] of team.agents) {
    const remote = checkA2aSubAgents(name, agent.sub_agents, c);
    if (remote.length) a2aSubAgents.set(name, remote);
  }
  checkPermissionNames(team, c);
  const graph = checkAgentGraph(team, c);
  reportAgentToolCycles(team, tools, c);
  // On an otherwise sound file only: a cycle, an unknown agent or a missing key is the mistake to fix first.
  if (c.count === 0) checkRouteDescriptions(team, c);
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
  return { graph, tools, middlewares, a2aSubAgents, default: def ?? graph.roots[0] ?? team.agents.keys().next().value };
}

/** Reserved tool names of a deep agent, and what its `task` tool needs of each sub-agent. */
function checkDeepSubAgents(name: string, agent: RawTeam['agents'] extends Map<string, infer A> ? A : never, team: RawTeam, refs: ToolRef[], c: ProblemCollector): void {
  (agent.sub_agents ?? []).forEach((sub, i) => {
    const path = ['agents', name, 'sub_agents', i];
    if (typeof sub !== 'string') return; // a remote A2A agent: its card has the description
    const target = team.agents.get(sub);
    if (!target) return; // the agent graph reports it
    if (!target.description) c.report(path, `sub-agent '${sub}' has no description, and the task tool needs one: the model reads it to pick a sub-agent`, { hint: `give '${sub}' a description` });
    if (sub === GENERAL_PURPOSE && agent.general_purpose !== false) {
      c.report(path, `'${GENERAL_PURPOSE}' is the name of the deep agent's built-in sub-agent`, { hint: `rename the agent, or set general_purpose: false on '${name}'` });
    }
  });
  for (const ref of refs) {
    const tool = ref.kind === 'builtin' ? ref.name : ref.kind === 'agent' ? (ref.name ?? ref.agent) : undefined;
    if (tool === 'task' || tool === 'write_todos') c.report(['agents', name, 'tools'], `a deep agent has its own '${tool}' tool; another tool cannot take that name`);
  }
}

const GENERAL_PURPOSE = 'general-purpose';

/** Agents that take part in transfers once built (ChatModelAgents, and a supervisor team, led by one). */
const TRANSFERS = new Set(['chat', 'deep', 'supervisor']);

/**
 * Where an agent routes by description, the description must be there (the build would refuse it):
 * a chat agent's sub-agents and a supervisor's are listed by name and description for the model to
 * pick from, and a chat sub-agent that may transfer back reads its parent's.
 */
function checkRouteDescriptions(team: RawTeam, c: ProblemCollector): void {
  for (const [name, agent] of team.agents) {
    if (agent.type !== 'chat' && agent.type !== 'supervisor') continue;
    let parentReported = false;
    (agent.sub_agents ?? []).forEach((sub, i) => {
      if (typeof sub !== 'string') return; // a remote A2A agent: its card has the description
      const target = team.agents.get(sub);
      if (!target) return; // the agent graph reports it
      if (!target.description?.trim()) {
        c.report(['agents', name, 'sub_agents', i], `sub-agent '${sub}' has no description, and '${agent.type === 'supervisor' ? agent.supervisor ?? name : name}' reads it to decide when to hand work to it`, {
          hint: `give '${sub}' a description`,
        });
      }
      const back = agent.type === 'chat' && TRANSFERS.has(target.type ?? '') && !(target.type === 'chat' && target.disallow_transfer_to_parent);
      if (back && !parentReported && !agent.description?.trim()) {
        parentReported = true;
        c.report(['agents', name], `'${name}' has no description, and its sub-agent '${sub}' reads it to decide when to transfer back`, {
          hint: `give '${name}' a description, or set disallow_transfer_to_parent: true on '${sub}'`,
        });
      }
    });
  }
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
  // An explicit stack, not recursion: a chain thousands of agents deep must reach the depth check
  // (agent-graph.ts), not overflow the call stack. viaTool[i]: whether the edge into stack[i] is
  // an agent tool; next[i]: the index of stack[i]'s next edge to follow.
  const stack: string[] = [];
  const viaTool: boolean[] = [];
  const next: number[] = [];
  const enter = (n: string, tool: boolean): void => {
    state.set(n, 1);
    stack.push(n);
    viaTool.push(tool);
    next.push(0);
  };
  for (const name of team.agents.keys()) {
    if (state.has(name)) continue;
    enter(name, false);
    while (stack.length > 0) {
      const top = stack.length - 1;
      const out = edges.get(stack[top])!;
      if (next[top] === out.length) {
        state.set(stack.pop()!, 2);
        viaTool.pop();
        next.pop();
        continue;
      }
      const e = out[next[top]++];
      if (!edges.has(e.to)) continue;
      if (state.get(e.to) === 1) {
        const from = stack.indexOf(e.to);
        const loop = [...stack.slice(from), e.to];
        // Only loops with a tool edge in them: cycles of sub-agents alone are the agent graph's to report.
        if (e.tool || viaTool.slice(from + 1).some(Boolean)) c.report(e.path, `agent cycle through agent tools: ${loop.join(' -> ')}`, { hint: 'an agent cannot use itself, directly or through others, as a tool' });
        continue;
      }
      if (!state.has(e.to)) enter(e.to, e.tool);
    }
  }
}
