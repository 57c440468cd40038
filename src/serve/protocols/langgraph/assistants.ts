import type { TreeNode } from '../../../core/config/agent-tree.js';

/** One assistant per root agent (team) of agents.yaml: `assistant_id` and `graph_id` are its name. */
export interface LgAssistant {
  assistant_id: string;
  graph_id: string;
  name: string;
  description: string;
  config: Record<string, unknown>;
  context: Record<string, unknown>;
  metadata: Record<string, unknown>;
  version: number;
  created_at: string;
  updated_at: string;
}

/** What `GET /v1/agents` serves (`{default, teams}`), as assistants. */
export function assistantsOf(agents: unknown, since: string): LgAssistant[] {
  const a = agents as { default?: unknown; teams?: unknown };
  const teams = Array.isArray(a?.teams) ? (a.teams as TreeNode[]) : [];
  return teams.map((t) => ({
    assistant_id: t.name,
    graph_id: t.name,
    name: t.name,
    description: describe(t),
    config: {},
    context: {},
    metadata: { created_by: 'system', type: t.type, ...(t.name === a.default ? { default: true } : {}) },
    version: 1,
    created_at: since,
    updated_at: since,
  }));
}

function describe(t: TreeNode): string {
  const members = t.children.map((c) => c.name);
  return `${t.type} agent${t.tools.length ? `; tools: ${t.tools.join(', ')}` : ''}${members.length ? `; agents: ${members.join(', ')}` : ''}`;
}

/** The team as LangGraph's graph: the root and its agents as nodes, a hand-over as an edge. */
export function graphOf(agents: unknown, name: string) {
  const teams = ((agents as { teams?: TreeNode[] })?.teams ?? []) as TreeNode[];
  const root = teams.find((t) => t.name === name);
  if (!root) return undefined;
  const nodes: Array<{ id: string; type: string; data: Record<string, unknown> }> = [{ id: '__start__', type: 'schema', data: {} }];
  const edges: Array<{ source: string; target: string; conditional?: boolean }> = [{ source: '__start__', target: root.name }];
  const walk = (n: TreeNode) => {
    nodes.push({ id: n.name, type: 'runnable', data: { kind: n.type, tools: n.tools, approval: n.approval } });
    for (const c of n.children) {
      edges.push({ source: n.name, target: c.name, conditional: true });
      walk(c);
    }
  };
  walk(root);
  nodes.push({ id: '__end__', type: 'schema', data: {} });
  edges.push({ source: root.name, target: '__end__' });
  return { nodes, edges };
}

const MESSAGES = { type: 'array', items: { type: 'object', properties: { type: { type: 'string' }, content: {}, id: { type: 'string' } }, required: ['type', 'content'] } };

/** The state every adk team has: its messages (in), and title and todos (out). */
export function schemasOf(name: string) {
  const state = { type: 'object', properties: { messages: MESSAGES, title: { type: 'string' }, todos: { type: 'array', items: { type: 'object' } } } };
  return { graph_id: name, input_schema: { type: 'object', properties: { messages: MESSAGES }, required: ['messages'] }, output_schema: state, state_schema: state, config_schema: { type: 'object', properties: {} }, context_schema: null };
}
