import type { TeamConfig } from '../../core/config/index.js';

/** One team offered as an MCP tool: the tool's name and the agents.yaml agent it runs. */
export interface TeamTool {
  name: string;
  agent: string;
  description: string;
}

/** MCP tool names are 1-128 of `[A-Za-z0-9_.-]`; an agents.yaml name is already close to that. */
const toolName = (agent: string): string => agent.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 128);

/**
 * The tools `adk mcp serve` offers: the agents named with `--agent`, else every root agent of the
 * file (its teams). An unknown name is an error, said before the server starts.
 */
export function teamTools(config: TeamConfig, chosen: readonly string[] = []): TeamTool[] {
  const agents = chosen.length ? [...new Set(chosen)] : config.roots;
  const unknown = agents.filter((a) => !config.agents.has(a));
  if (unknown.length) throw new Error(`agent${unknown.length > 1 ? 's' : ''} ${unknown.map((a) => `'${a}'`).join(', ')} not defined in ${config.file}; defined: ${[...config.agents.keys()].join(', ')}`);
  const tools = agents.map((agent) => ({ name: toolName(agent), agent, description: describe(agent, config.agents.get(agent)?.description) }));
  const names = new Set<string>();
  for (const t of tools) {
    if (names.has(t.name)) throw new Error(`two agents become the MCP tool '${t.name}': rename one, or choose with --agent`);
    names.add(t.name);
  }
  return tools;
}

function describe(agent: string, description: string | undefined): string {
  return [
    description?.trim() || `The adk team '${agent}'.`,
    `Runs the adk team '${agent}' on the task and returns its answer.`,
    'Each call is a turn of an adk session: pass the sessionId of an earlier result as `session` to continue that conversation.',
    'The team may stop to ask a person (a command to approve, a question); the result then says how to answer.',
  ].join(' ');
}
