import { serve, type ServerType } from '@hono/node-server';
import { McpServer, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import * as z from 'zod';

export interface McpHttpTestServer {
  url: string;
  /** Headers of every request the server received. */
  headers: Array<Record<string, string>>;
  /** Calls of `slow_count` the client cancelled (notifications/cancelled), by their n. */
  cancelled: number[];
  /** Registers another tool: connected clients get notifications/tools/list_changed. */
  addTool(name: string, text: string): void;
  close(): Promise<void>;
}

/**
 * A streamable HTTP MCP server written with `@modelcontextprotocol/server` for the tests: tools
 * `whoami` (the Authorization header it was sent, to show where a credential ends up) and
 * `slow_count` (progress notifications), and tools added while clients are connected.
 */
export async function startMcpHttpServer(): Promise<McpHttpTestServer> {
  const headers: Array<Record<string, string>> = [];
  const cancelled: number[] = [];
  const servers: McpServer[] = [];
  const late: Array<[string, string]> = [];
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  let lastAuth = '';
  const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });
  const addTool = (mcp: McpServer, name: string, t: string) => mcp.registerTool(name, { description: `Added later: ${name}.`, inputSchema: z.object({}) }, () => text(t));
  /** One MCP server per client session, as a real deployment has. */
  const session = async () => {
    const mcp = new McpServer({ name: 'adk-http-test', version: '1.0.0' });
    mcp.registerTool('whoami', { description: 'The Authorization header of the request.', inputSchema: z.object({}) }, () => text(`auth: ${lastAuth || '(none)'}`));
    mcp.registerTool('slow_count', { description: 'Counts to n, reporting progress.', inputSchema: z.object({ n: z.number() }) }, async ({ n }, ctx) => {
      const token = ctx.mcpReq._meta?.progressToken;
      for (let i = 1; i <= n; i++) {
        await new Promise((r) => setTimeout(r, 20));
        if (ctx.mcpReq.signal.aborted) {
          cancelled.push(n);
          return text('cancelled');
        }
        if (token !== undefined) await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: n, message: `step ${i}` } });
      }
      return text(`counted to ${n}`);
    });
    for (const [n, t] of late) addTool(mcp, n, t);
    servers.push(mcp);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => void sessions.set(id, transport) });
    await mcp.connect(transport);
    return transport;
  };
  let server: ServerType;
  await new Promise<void>((resolve) => {
    server = serve(
      {
        port: 0,
        hostname: '127.0.0.1',
        fetch: async (req: Request) => {
          const h: Record<string, string> = {};
          req.headers.forEach((value, name) => (h[name] = value));
          headers.push(h);
          lastAuth = h.authorization ?? '';
          const id = req.headers.get('mcp-session-id');
          const transport = id ? sessions.get(id) : await session();
          if (!transport) return new Response('unknown session', { status: 404 });
          return transport.handleRequest(req);
        },
      },
      () => resolve(),
    );
  });
  const port = (server!.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    headers,
    cancelled,
    addTool: (name, t) => {
      late.push([name, t]);
      for (const mcp of servers) addTool(mcp, name, t);
    },
    close: async () => {
      await Promise.all(servers.map((m) => m.close().catch(() => {})));
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
