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
  // DeerFlow 2's sign-in: its page asks whether setup is needed, then posts the password (the token).
  if (method === 'POST' && (path === '/api/v1/auth/login/local' || path === '/api/v1/auth/logout')) return true;
  if (method !== 'GET' && method !== 'HEAD') return false;
  if (path === '/api/v1/auth/setup-status' || path === '/api/v1/auth/providers') return true;
  // A2A agent cards: a client reads there how to authenticate, before it has the token (A2A §8).
  if (/^(?:\/a2a\/[^/]+)?\/\.well-known\/agent-card\.json$/.test(path)) return true;
  return path === '/' || path === '/openapi.json' || /^\/(?:index\.html|assets\/[^/]+|[^/]+\.(?:svg|ico|png))$/.test(path);
}

export class Unauthorized extends Error {
  constructor(message: string) {
    super(message);
  }
}

/**
 * A sign-in cookie some front end's paths accept instead of the token (DeerFlow 2's): which paths,
 * and whether a cookie's value is a live sign-in.
 */
export interface CookieSignIn {
  applies(path: string): boolean;
  valid(value: string): boolean;
}

/** Refuses every request but the public ones unless it shows the token (header or path prefix), or a sign-in cookie where one counts. */
export function requireToken(token: string, signIn?: CookieSignIn): MiddlewareHandler {
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
    if (!header && signIn?.applies(c.req.path)) {
      const cookie = cookieToken(c.req.header('cookie'), c.req.method, c.req.header('sec-fetch-site'), c.req.header('x-csrf-token'));
      if (cookie !== undefined) {
        if (typeof cookie !== 'string' || !signIn.valid(cookie)) throw new Unauthorized(typeof cookie === 'object' ? cookie.refused : 'the sign-in has expired or is not this server’s: sign in again');
        return next();
      }
    }
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
    if (!matches(bearer)) throw new Unauthorized(header ? 'the bearer token is not this server’s' : 'this server needs its token: send "Authorization: Bearer <token>" (the token is in ADK_SERVE_TOKEN or ADK_HOME/serve-token)');
    return next();
  };
}

/** The cookies DeerFlow 2's front end signs in with (its gateway's names): the token, and the double-submit CSRF value. */
export const ACCESS_COOKIE = 'access_token';
export const CSRF_COOKIE = 'csrf_token';

/**
 * The sign-in cookie's value (DeerFlow 2's login, whose password is this server's token).
 * A cookie goes with every request the browser makes to this host, whatever page asked, so it
 * counts only for this origin's own pages (Sec-Fetch-Site same-origin, or none from a
 * non-browser client such as a front end's server) and, for a request that changes something,
 * only with the CSRF cookie's value repeated in `X-CSRF-Token` (which another site cannot read).
 * Undefined: no sign-in cookie.
 */
function cookieToken(cookieHeader: string | undefined, method: string, site: string | undefined, csrfHeader: string | undefined): string | { refused: string } | undefined {
  const cookies = parseCookies(cookieHeader);
  const token = cookies.get(ACCESS_COOKIE);
  if (token === undefined) return undefined;
  if (site && site !== 'same-origin' && site !== 'none') return { refused: `a sign-in cookie counts only on this server's own pages (this request is ${site})` };
  if (!['GET', 'HEAD', 'OPTIONS'].includes(method)) {
    const csrf = cookies.get(CSRF_COOKIE);
    if (!csrf || !csrfHeader || !sameText(csrf, csrfHeader)) return { refused: 'a request signed in by cookie must repeat the csrf_token cookie in X-CSRF-Token' };
  }
  return token;
}

export function parseCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    out.set(part.slice(0, eq).trim(), decodeURIComponentSafe(part.slice(eq + 1).trim()));
  }
  return out;
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
