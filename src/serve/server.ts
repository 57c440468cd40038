import { createAdaptorServer, serve, type ServerType } from '@hono/node-server';
import { chmodSync, lstatSync } from 'node:fs';
import type { AddressInfo, Server } from 'node:net';
import { createServeApp, type ServeAppOptions } from './app.js';

/** Where `adk serve` listens: a TCP address, or a Unix socket only its owner can open. */
export type ListenOptions = { host: string; port: number } | { socket: string };

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
  if ('socket' in listen) return startOnSocket(app, listen.socket);
  if (!isLoopback(listen.host) && !app.token) {
    throw new Error(`adk serve listens on ${listen.host}, beyond this machine: it needs a token (ADK_SERVE_TOKEN, or the one adk makes)`);
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
  return running(app, server, `http://${shown}:${port}`);
}

/**
 * `--socket PATH`: a Unix socket made 0600 before anyone can connect (the umask is tight while it
 * is created), so only its owner (and root) can talk to the server; no token is needed there.
 */
async function startOnSocket(app: ServeAppOptions, path: string): Promise<RunningServer> {
  const hono = createServeApp({ ...app, unauthenticated: app.token ? undefined : 'socket' });
  const server = createAdaptorServer({ fetch: hono.fetch }) as unknown as Server;
  const before = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, () => resolve());
    });
  } finally {
    process.umask(before);
  }
  chmodSync(path, 0o600);
  if ((lstatSync(path).mode & 0o077) !== 0) throw new Error(`${path}: the socket could not be made private`);
  return running(app, server as unknown as ServerType, `unix:${path}`);
}

function running(app: ServeAppOptions, server: ServerType, url: string): RunningServer {
  return {
    url,
    async close(opts = {}) {
      // New connections stop first; turns under way finish (or stop at a safe point) and are saved.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await app.hub.close(opts);
      (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      await closed;
    },
  };
}
