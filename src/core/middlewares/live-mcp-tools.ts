import type { AgentMiddleware } from '../agents/middleware.js';
import type { Tool } from '../tools/tool.js';

/**
 * An agent's MCP tools as their servers list them now: a server that changed its list
 * (`notifications/tools/list_changed`) is seen at the agent's next run, its removed tools gone and
 * its new ones offered. `current(server)` is the list the pool holds (undefined: not started yet).
 */
export function liveMcpToolsMiddleware(servers: readonly string[], current: (server: string) => Tool[] | undefined): AgentMiddleware {
  // What each server gave the agent last (first: what it listed when the agent was built): those tool
  // objects, and only those, are replaced; a name another tool holds (a built-in, a sub-agent's tool,
  // transfer, todos) is never taken, whatever a later listing says.
  const given = new Map<string, Set<Tool>>();
  for (const server of servers) {
    const now = current(server);
    if (now) given.set(server, new Set(now));
  }
  return {
    name: 'live_mcp_tools',
    beforeAgent: (_ctx, setup) => {
      const byName = new Map(setup.tools.map((t) => [t.name, t]));
      for (const server of servers) {
        const now = current(server);
        if (!now) continue;
        const before = given.get(server) ?? new Set(now);
        for (const [name, t] of byName) if (before.has(t)) byName.delete(name);
        const offered = new Set<Tool>();
        for (const t of now) {
          if (byName.has(t.name)) continue;
          byName.set(t.name, t);
          offered.add(t);
        }
        given.set(server, offered);
      }
      return { ...setup, tools: [...byName.values()] };
    },
  };
}
