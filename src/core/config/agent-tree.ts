import type { AgentConfig, AgentType, TeamConfig, ToolRef } from './types.js';

/** A node of the agent tree shown by `adk agents` and `/agents`. */
export interface TreeNode {
  name: string;
  /** The inline parts of a plan_execute agent are nodes of their own kind. */
  type: AgentType | 'planner' | 'executor' | 'replanner' | 'a2a';
  model?: string | undefined;
  /** Tool labels: a built-in name, `mcp:<server>`, or `<module path>#<export>`. */
  tools: string[];
  /** Tool names that need approval (may name MCP/module tools not visible in `tools`). */
  approval: string[];
  /** Short notes: `default` (the start agent), `supervisor` (the supervising child), `review`, … */
  markers: string[];
  children: TreeNode[];
}

/** The tree under `root` (the default agent unless given). */
export function agentTree(config: TeamConfig, root: string = config.default): TreeNode {
  const agent = config.agents.get(root);
  if (!agent) throw new Error(`unknown agent '${root}'`);
  return buildNode(config, agent, new Set());
}

/** One tree per root agent, in file order. */
export function agentForest(config: TeamConfig): TreeNode[] {
  return config.roots.map((r) => agentTree(config, r));
}

function buildNode(config: TeamConfig, a: AgentConfig, seen: Set<string>): TreeNode {
  seen.add(a.name);
  const node: TreeNode = { name: a.name, type: a.type, tools: [], approval: [], markers: [], children: [] };
  if (a.name === config.default) node.markers.push('default');
  const child = (name: string): TreeNode | undefined => {
    const c = config.agents.get(name);
    return c && !seen.has(name) ? buildNode(config, c, seen) : undefined;
  };
  switch (a.type) {
    case 'chat':
      node.model = a.model;
      node.tools = a.tools.map(toolLabel);
      node.approval = a.approval;
      if (a.exit) node.markers.push('exit');
      break;
    case 'deep':
      node.model = a.model;
      node.tools = [...a.tools.map(toolLabel), 'write_todos', ...(a.subAgents.length || a.generalPurpose ? ['task'] : [])];
      node.approval = a.approval;
      if (a.generalPurpose) node.markers.push('task: + general-purpose');
      break;
    case 'loop':
      if (a.maxIterations !== undefined) node.markers.push(`max_iterations: ${a.maxIterations}`);
      break;
    case 'supervisor': {
      const sup = child(a.supervisor);
      if (sup) {
        sup.markers.push('supervisor');
        node.children.push(sup);
      }
      break;
    }
    case 'research':
      // Children in the graph's order, each marked with its role (below, from subAgents).
      break;
    case 'plan_execute':
      node.model = a.model;
      node.children.push(
        part('planner', a.planner.model, [], [], a.planner.review ? ['review'] : []),
        part('executor', a.executor.model, a.executor.tools.map(toolLabel), a.executor.approval, []),
        part('replanner', a.replanner.model, [], [], []),
      );
      break;
  }
  if (a.type !== 'plan_execute') {
    for (const s of a.subAgents) {
      const n = child(s);
      if (!n) continue;
      if (a.type === 'research') n.markers.push(...Object.entries(a.roles).flatMap(([role, agent]) => (agent === s ? [role] : [])));
      node.children.push(n);
    }
  }
  // Remote A2A agents are leaves, named as written or by their URL (their cards are not read here).
  for (const r of a.remoteSubAgents ?? []) node.children.push({ name: r.name ?? r.url, type: 'a2a', tools: [], approval: [], markers: r.name ? [r.url] : [], children: [] });
  return node;
}

function part(type: 'planner' | 'executor' | 'replanner', model: string, tools: string[], approval: string[], markers: string[]): TreeNode {
  return { name: type, type, model, tools, approval, markers, children: [] };
}

/** Short label of a tool reference in the tree: `read_file`, `mcp:github`, `agent:researcher`, `./tools.js#default`. */
export function toolLabel(t: ToolRef): string {
  if (t.kind === 'builtin') return t.name;
  if (t.kind === 'mcp') return `mcp:${t.server}`;
  if (t.kind === 'agent') return t.name && t.name !== t.agent ? `${t.name}(agent:${t.agent})` : `agent:${t.agent}`;
  if (t.kind === 'a2a') return t.name ? `${t.name}(a2a:${t.url})` : `a2a:${t.url}`;
  return `${t.path}#${t.exportName ?? 'default'}`;
}

/**
 * Plain text with box-drawing indentation:
 * `assistant [default] (chat, model: default) tools: read_file, shell[approval]`
 */
export function renderAgentTree(tree: TreeNode | readonly TreeNode[]): string {
  const roots = Array.isArray(tree) ? tree : [tree as TreeNode];
  const lines: string[] = [];
  for (const r of roots) render(r, '', '', lines);
  return lines.join('\n');
}

function render(n: TreeNode, first: string, rest: string, lines: string[]): void {
  lines.push(first + describeNode(n));
  n.children.forEach((c, i) => {
    const last = i === n.children.length - 1;
    render(c, rest + (last ? '└── ' : '├── '), rest + (last ? '    ' : '│   '), lines);
  });
}

function describeNode(n: TreeNode): string {
  const markers = n.markers.length ? ` [${n.markers.join(', ')}]` : '';
  const facts = [...(n.type === n.name ? [] : [n.type]), ...(n.model ? [`model: ${n.model}`] : [])];
  const head = `${n.name}${markers}${facts.length ? ` (${facts.join(', ')})` : ''}`;
  const needs = new Set(n.approval);
  const tools = n.tools.map((t) => (needs.delete(t) ? `${t}[approval]` : t));
  const other = needs.size ? ` approval: ${[...needs].join(', ')}` : '';
  return `${head}${tools.length ? ` tools: ${tools.join(', ')}` : ''}${other}`;
}
