import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the authorization server sent back to the loopback redirect. */
export interface AuthorizationCallback {
  code: string;
  /** RFC 9207 issuer identifier, when the server sends one (the SDK checks it). */
  iss?: string;
}

const PAGE_OK = '<!doctype html><title>adk</title><p>adk is logged in. You can close this tab.</p>';
const PAGE_FAILED = '<!doctype html><title>adk</title><p>adk could not log in. Return to the terminal.</p>';

/**
 * A one-shot HTTP server on 127.0.0.1 that receives the authorization redirect
 * (`http://127.0.0.1:<port>/callback`, RFC 8252 loopback) and hands back the code once its `state`
 * matches. A request with another state is answered 400 and ignored: it is not our login.
 */
export class LoopbackReceiver {
  private expected: string | undefined;
  private settle: ((r: { ok: AuthorizationCallback } | { error: Error }) => void) | undefined;
  private early: { ok: AuthorizationCallback } | { error: Error } | undefined;

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {
    server.on('request', (req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (req.method !== 'GET' || url.pathname !== '/callback') {
        res.writeHead(404).end();
        return;
      }
      const state = url.searchParams.get('state');
      if (!this.expected || state !== this.expected) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end('state mismatch');
        return;
      }
      const code = url.searchParams.get('code');
      const error = url.searchParams.get('error');
      res.writeHead(code ? 200 : 400, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(code ? PAGE_OK : PAGE_FAILED);
      const iss = url.searchParams.get('iss') ?? undefined;
      // The error code comes from the network: keep only its token characters for the message.
      const outcome = code ? { ok: { code, ...(iss ? { iss } : {}) } } : { error: new Error(`the authorization server refused the login (${(error ?? 'no code').replace(/[^A-Za-z0-9_.-]/g, '').slice(0, 64)})`) };
      this.expected = undefined;
      if (this.settle) this.settle(outcome);
      else this.early = outcome;
    });
  }

  /** Listens on `preferredPort` when given and free, else on a port the system picks. */
  static async start(preferredPort?: number, { strict = false } = {}): Promise<LoopbackReceiver> {
    const listen = (port: number) =>
      new Promise<Server>((resolve, reject) => {
        const server = createServer();
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => {
          server.off('error', reject);
          resolve(server);
        });
      });
    let server: Server;
    try {
      server = await listen(preferredPort ?? 0);
    } catch (e) {
      if (strict || !preferredPort) throw e;
      server = await listen(0);
    }
    return new LoopbackReceiver(server, (server.address() as AddressInfo).port);
  }

  get redirectUrl(): string {
    return `http://127.0.0.1:${this.port}/callback`;
  }

  /** Arms the receiver for one login: only a callback carrying this state is accepted. */
  expect(state: string): void {
    this.expected = state;
    this.early = undefined;
  }

  /** The callback for the armed state; rejects on timeout, abort or a refused login. */
  wait({ timeoutMs = 5 * 60_000, signal }: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<AuthorizationCallback> {
    return new Promise<AuthorizationCallback>((resolve, reject) => {
      const done = (r: { ok: AuthorizationCallback } | { error: Error }) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.settle = undefined;
        if ('ok' in r) resolve(r.ok);
        else reject(r.error);
      };
      const onAbort = () => done({ error: new Error('login cancelled') });
      const timer = setTimeout(() => done({ error: new Error(`no answer from the browser within ${Math.round(timeoutMs / 1000)} s`) }), timeoutMs);
      timer.unref?.();
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      if (this.early) return done(this.early);
      this.settle = done;
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.closeAllConnections?.();
      this.server.close(() => resolve());
    });
  }
}
