import { timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { getPath } from 'hono/utils/url';

/**
 * Who may use `adk serve`: whoever shows its token. A token always exists (ADK_SERVE_TOKEN, else one
 * made for this ADK_HOME), because "loopback only" admits every local account and every container
 * sharing the network namespace. It comes as `Authorization: Bearer <token>`, or, for front ends that
 * cannot add a header (DeerFlow's, agent-chat-ui), in the base URL's path: `/t/<token>/api/...`.
 * The page reads it from the fragment of the URL adk prints (`/#token=…`, never sent to a server)
 * and keeps it in the tab's session storage.
 */

/** `/t/<token>` as a path prefix: stripped before routing; the auth check reads it from the raw URL. */
const TOKEN_PREFIX = /^\/t\/([^/]+)(?=\/|$)/;

/** Hono's path, without a leading `/t/<token>`. */
export function pathWithoutToken(request: Request): string {
  const path = getPath(request);
  return path.replace(TOKEN_PREFIX, '') || '/';
}

/** What needs no token: the page's own files (they hold no data), the API description and the A2A agent cards. */
export function isPublic(method: string, path: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  // A2A agent cards: a client reads there how to authenticate, before it has the token (A2A §8).
  if (/^(?:\/a2a\/[^/]+)?\/\.well-known\/agent-card\.json$/.test(path)) return true;
  return path === '/' || path === '/openapi.json' || /^\/(?:index\.html|assets\/[^/]+|[^/]+\.(?:svg|ico|png))$/.test(path);
}

export class Unauthorized extends Error {
  constructor(message: string) {
    super(message);
  }
}

/** Refuses every request but the public ones unless it shows the token (header or path prefix). */
export function requireToken(token: string): MiddlewareHandler {
  const want = Buffer.from(token);
  const matches = (given: string | undefined) => {
    if (given === undefined) return false;
    const g = Buffer.from(given);
    return g.length === want.length && timingSafeEqual(g, want);
  };
  return async (c, next) => {
    const inPath = TOKEN_PREFIX.exec(getPath(c.req.raw))?.[1];
    if (inPath !== undefined) {
      if (!matches(decodeURIComponentSafe(inPath))) throw new Unauthorized('the token in the URL is not this server’s');
      return next();
    }
    if (isPublic(c.req.method, c.req.path)) return next();
    const header = c.req.header('authorization');
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
    if (!matches(bearer)) throw new Unauthorized(header ? 'the bearer token is not this server’s' : 'this server needs its token: send "Authorization: Bearer <token>" (the token is in ADK_SERVE_TOKEN or ADK_HOME/serve-token)');
    return next();
  };
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
