import { randomUUID } from 'node:crypto';
import { chmodSync, lstatSync } from 'node:fs';
import type { AddressInfo, Server } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { Hono } from 'hono';
import { WebStandardStreamableHTTPServerTransport, type McpServer } from '@modelcontextprotocol/server';
import { pathWithoutToken, requireToken, Unauthorized } from '../auth.js';
import { isLoopback } from '../server.js';

/** Where the HTTP face listens: a TCP address, or a Unix socket only its owner can open. */
export type McpListen = { host: string; port: number } | { socket: string };

export interface McpHttpOptions {
  /** A fresh McpServer for each client session. */
  newServer: () => McpServer;
  /** Every request needs it (`Authorization: Bearer <token>`, or `/t/<token>/mcp`); unset only on a socket or with --no-token. */
  token?: string | undefined;
  log: (line: string) => void;
}

export interface RunningMcpHttp {
  /** The MCP endpoint's URL. */
  url: string;
  close(): Promise<void>;
}

/** The MCP endpoint's path (clients are given the whole URL). */
export const MCP_PATH = '/mcp';

/**
 * MCP's streamable HTTP transport at `/mcp`, one McpServer per client session (its
 * `Mcp-Session-Id`): elicitation and progress reach the client on the call's own event stream.
 * Guarded as `adk serve` is: the bearer token, else (a socket or --no-token) loopback Host names only.
 */
export async function startMcpHttp(o: McpHttpOptions, listen: McpListen): Promise<RunningMcpHttp> {
  if ('host' in listen && !isLoopback(listen.host) && !o.token) throw new Error(`adk mcp serve listens on ${listen.host}, beyond this machine: it needs a token (ADK_SERVE_TOKEN, or the one adk makes)`);
  const sessions = new Map<string, { transport: WebStandardStreamableHTTPServerTransport; server: McpServer }>();
  const app = new Hono({ getPath: pathWithoutToken });
  app.onError((err, c) => {
    if (err instanceof Unauthorized) return c.json({ jsonrpc: '2.0', error: { code: -32001, message: err.message }, id: null }, 401);
    o.log(`http: ${err.message}`);
    return c.json({ jsonrpc: '2.0', error: { code: -32603, message: 'internal error' }, id: null }, 500);
  });
  if (o.token) app.use('*', requireToken(o.token));
  else {
    // No token: only loopback names, so a web page that rebinds its DNS name to 127.0.0.1 is refused.
    const hosts = new Set(['localhost', '127.0.0.1', '[::1]', ...('host' in listen ? [listen.host.includes(':') ? `[${listen.host}]` : listen.host] : [])]);
    app.use('*', async (c, next) => {
      const host = (c.req.header('host') ?? '').replace(/:\d+$/, '');
      if (!hosts.has(host)) return c.json({ jsonrpc: '2.0', error: { code: -32001, message: `Host '${host}' is not this loopback server` }, id: null }, 403);
      return next();
    });
  }
  app.all(MCP_PATH, async (c) => {
    const id = c.req.header('mcp-session-id');
    const known = id ? sessions.get(id) : undefined;
    if (known) return known.transport.handleRequest(c.req.raw);
    if (id) return c.json({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }, 404);
    const server = o.newServer();
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => void sessions.set(sid, { transport, server }),
      onsessionclosed: (sid) => void sessions.delete(sid),
    });
    transport.onclose = () => transport.sessionId && sessions.delete(transport.sessionId);
    await server.connect(transport);
    const res = await transport.handleRequest(c.req.raw);
    // Not an initialize request: the transport refused it, and this server serves nobody.
    if (!transport.sessionId) await server.close().catch(() => {});
    return res;
  });
  app.notFound((c) => c.json({ error: `no route for ${c.req.method} ${c.req.path}; the MCP endpoint is ${MCP_PATH}` }, 404));

  const server = createAdaptorServer({ fetch: app.fetch }) as unknown as Server;
  let url: string;
  if ('socket' in listen) {
    // Made 0600 before anyone can connect (tight umask while it is created): its owner alone talks to it.
    const before = process.umask(0o177);
    try {
      await listenOn(server, listen.socket);
    } finally {
      process.umask(before);
    }
    chmodSync(listen.socket, 0o600);
    if ((lstatSync(listen.socket).mode & 0o077) !== 0) throw new Error(`${listen.socket}: the socket could not be made private`);
    url = `unix:${listen.socket}:${MCP_PATH}`;
  } else {
    await listenOn(server, listen.port, listen.host);
    const { port } = server.address() as AddressInfo;
    url = `http://${listen.host.includes(':') ? `[${listen.host}]` : listen.host}:${port}${MCP_PATH}`;
  }
  return {
    url,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.allSettled([...sessions.values()].map((s) => s.server.close()));
      sessions.clear();
      (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      await closed;
    },
  };
}

function listenOn(server: Server, where: number | string, host?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    if (typeof where === 'string') server.listen(where, () => resolve());
    else server.listen(where, host, () => resolve());
  });
}
