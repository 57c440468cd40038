import { toFlowAgent } from './flow.js';
import type { Agent } from './types.js';

/**
 * Each agent's parent in the team under `root` (sub-agents, workflow children, a supervisor's
 * agents), by name. Agents reached only as tools are not in it.
 */
export function agentParents(root: Agent): Map<string, string> {
  const parents = new Map<string, string>();
  const visit = (agent: Agent) => {
    const flow = toFlowAgent(agent);
    for (const sub of flow.subAgents) {
      if (parents.has(sub.name) || sub.name === root.name) continue;
      parents.set(sub.name, flow.name);
      visit(sub);
    }
  };
  visit(root);
  return parents;
}

/**
 * Where a run is, from its run path. Eino's RunPath keeps the siblings a sequence or loop has
 * finished (`[seq, a1, a2]`) and every hop of a supervisor (`[sup, sub1, sup]`); the live path keeps
 * the chain down to the agent speaking: `[seq, a2]`, `[sup]`. A name with a known parent returns to
 * that parent; a name seen before returns to it; anything else (an agent tool's agents) extends it.
 */
export function livePath(runPath: readonly string[], parents: ReadonlyMap<string, string>): string[] {
  const path: string[] = [];
  for (const name of runPath) {
    const parent = parents.get(name);
    const at = parent === undefined ? -1 : path.lastIndexOf(parent);
    if (at >= 0) path.length = at + 1;
    else {
      const seen = path.lastIndexOf(name);
      if (seen >= 0) path.length = seen;
    }
    path.push(name);
  }
  return path;
}
