import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createServeApp, type ServeAppOptions } from './app.js';

/** Where `adk serve` listens. */
export interface ListenOptions {
  host: string;
  port: number;
}

/** A running server: its URL, and `close()`, which lets running turns reach a saved end first. */
export interface RunningServer {
  url: string;
  close(opts?: { cancel?: boolean }): Promise<void>;
}

/** Loopback names: anything else is reachable from other machines and needs a token. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

/** Starts the HTTP server; refuses a non-loopback address without a token. */
export async function startServer(app: ServeAppOptions, listen: ListenOptions): Promise<RunningServer> {
  if (!isLoopback(listen.host) && !app.token) {
    throw new Error(`adk serve listens on ${listen.host}, beyond this machine: set ADK_SERVE_TOKEN (clients send it as "Authorization: Bearer …")`);
  }
  // Bound to another loopback address (127.0.0.2): that is the name clients use for it.
  const hosts = isLoopback(listen.host) ? [listen.host.includes(':') ? `[${listen.host}]` : listen.host] : [];
  const hono = createServeApp({ ...app, hosts: [...(app.hosts ?? []), ...hosts] });
  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serve({ fetch: hono.fetch, hostname: listen.host, port: listen.port }, () => resolve(s));
    s.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const shown = listen.host.includes(':') ? `[${listen.host}]` : listen.host;
  return {
    url: `http://${shown}:${port}`,
    async close(opts = {}) {
      // New connections stop first; turns under way finish (or stop at a safe point) and are saved.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await app.hub.close(opts);
      (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      await closed;
    },
  };
}
