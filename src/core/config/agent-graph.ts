import { isReservedName } from './shape-check.js';
import { didYouMean } from './did-you-mean.js';
import { formatPath, type PathSeg, type ProblemCollector } from './problems.js';
import type { RawTeam } from './shape-check.js';
import type { SourcePos } from './types.js';

export interface AgentGraph {
  /** child -> the one agent that lists it (sub-agent or supervisor). */
  parent: Map<string, string>;
  /** Agents that are nobody's child, in file order. */
  roots: string[];
}

interface ChildRef {
  name: string;
  path: PathSeg[];
}

/** References an agent makes to other agents: a supervisor's `supervisor` first, then `sub_agents`. */
export function childRefs(name: string, agent: { supervisor?: string; sub_agents?: Array<string | object>; roles?: Record<string, string | undefined> }): ChildRef[] {
  const refs: ChildRef[] = [];
  if (agent.supervisor !== undefined) refs.push({ name: agent.supervisor, path: ['agents', name, 'supervisor'] });
  // A research team's roles are its children, in the order its graph runs them.
  for (const [role, agentName] of Object.entries(agent.roles ?? {})) if (agentName !== undefined) refs.push({ name: agentName, path: ['agents', name, 'roles', role] });
  // A remote A2A agent (a mapping) is a leaf of its own: no agent of the file to link.
  agent.sub_agents?.forEach((s, i) => typeof s === 'string' && refs.push({ name: s, path: ['agents', name, 'sub_agents', i] }));
  return refs;
}

/**
 * Checks that every referenced agent exists, that no agent has two parents and that there are no
 * cycles. Linear in the number of agents and references.
 */
export function checkAgentGraph(team: RawTeam, c: ProblemCollector): AgentGraph {
  const parent = new Map<string, string>();
  const edgePath = new Map<string, PathSeg[]>();
  const names = team.agents;

  for (const [name, agent] of names) {
    const mine = new Set<string>();
    for (const ref of childRefs(name, agent)) {
      if (!names.has(ref.name)) {
        if (isReservedName(ref.name)) continue;
        c.report(ref.path, `undefined agent '${ref.name}'${didYouMean(ref.name, names.keys())}`);
      } else if (ref.name === name) {
        c.report(ref.path, `sub-agent cycle: ${name} -> ${name} (an agent cannot be its own sub-agent)`);
      } else if (mine.has(ref.name)) {
        c.report(ref.path, `agent '${ref.name}' is listed twice under '${name}'`);
      } else if (parent.has(ref.name)) {
        const first = c.locate(edgePath.get(ref.name)!);
        c.report(ref.path, `agent '${ref.name}' already has a parent: '${parent.get(ref.name)}' (${formatPath(edgePath.get(ref.name)!)}, line ${first.line})`, {
          hint: 'an agent can belong to only one parent; define a copy of it under another name',
        });
      } else {
        parent.set(ref.name, name);
        edgePath.set(ref.name, ref.path);
      }
      mine.add(ref.name);
    }
  }

  reportCycles(names.keys(), parent, edgePath, c);
  reportDepth(names.keys(), parent, edgePath, c);
  const roots = [...names.keys()].filter((n) => !parent.has(n));
  return { parent, roots };
}

/** With at most one parent per agent, cycles are found by following parent links once. */
function reportCycles(names: Iterable<string>, parent: Map<string, string>, edgePath: Map<string, PathSeg[]>, c: ProblemCollector): void {
  const state = new Map<string, 1 | 2>();
  for (const start of names) {
    const chain: string[] = [];
    let x: string | undefined = start;
    while (x !== undefined && !state.has(x)) {
      state.set(x, 1);
      chain.push(x);
      x = parent.get(x);
    }
    if (x !== undefined && state.get(x) === 1) {
      // chain runs child -> parent; the cycle printed runs parent -> child (the way sub_agents read).
      const cycle = chain.slice(chain.indexOf(x)).reverse();
      const at = latestEdge(cycle, edgePath, c);
      const from = cycle.indexOf(at.child);
      const ordered = [...cycle.slice(from), ...cycle.slice(0, from), at.child];
      c.report(edgePath.get(at.child)!, `sub-agent cycle: ${ordered.join(' -> ')}`, {
        hint: 'sub_agents and supervisor must form a tree',
      });
    }
    for (const n of chain) state.set(n, 2);
  }
}

/** Deeper teams are refused: nobody writes them by hand, and building or printing one would exhaust the stack. */
export const MAX_AGENT_DEPTH = 64;

/** Reports the first agent (in file order) deeper than MAX_AGENT_DEPTH. Linear; agents in a cycle are skipped (reported already). */
function reportDepth(names: Iterable<string>, parent: Map<string, string>, edgePath: Map<string, PathSeg[]>, c: ProblemCollector): void {
  const depth = new Map<string, number>();
  for (const start of names) {
    const chain: string[] = [];
    const seen = new Set<string>();
    let x: string | undefined = start;
    while (x !== undefined && !depth.has(x) && !seen.has(x)) {
      seen.add(x);
      chain.push(x);
      x = parent.get(x);
    }
    if (x !== undefined && !depth.has(x)) continue; // a cycle
    let d = x === undefined ? 0 : depth.get(x)!;
    for (let i = chain.length - 1; i >= 0; i--) depth.set(chain[i], ++d);
  }
  for (const [name, d] of depth) {
    if (d <= MAX_AGENT_DEPTH || !edgePath.has(name)) continue;
    c.report(edgePath.get(name)!, `the agent tree is more than ${MAX_AGENT_DEPTH} levels deep at '${name}'`, {
      hint: 'flatten the team: a supervisor or a workflow can hold many sub-agents side by side',
    });
    return;
  }
}

/** Reports a cycle once, at the reference that appears last in the file (the one that closes it). */
function latestEdge(cycle: string[], edgePath: Map<string, PathSeg[]>, c: ProblemCollector): { child: string } {
  let best = cycle[0];
  let bestPos: SourcePos = c.locate(edgePath.get(best)!);
  for (const n of cycle.slice(1)) {
    const p = c.locate(edgePath.get(n)!);
    if (p.line > bestPos.line || (p.line === bestPos.line && p.col > bestPos.col)) {
      best = n;
      bestPos = p;
    }
  }
  return { child: best };
}
