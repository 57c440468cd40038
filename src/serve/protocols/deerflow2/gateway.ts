import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { deerFlow2SignIn } from './sign-in.js';
import type { Context, Hono } from 'hono';
import { setCookie, deleteCookie } from 'hono/cookie';
import { ACCESS_COOKIE, CSRF_COOKIE, parseCookies } from '../../auth.js';

export interface DeerFlow2Options {
  /** The model names the front end's picker shows (adk's served model). */
  models: readonly string[];
  /** adk serve's token: DeerFlow's sign-in page takes it as the password (none: an open server). */
  token?: string | undefined;
  /** The sessions sign-in hands out (with a token). */
  signIn?: ReturnType<typeof deerFlow2SignIn> | undefined;
}

/** The sign-in's form post, which the server's JSON-only rule lets through (the password is the token, so nobody can be signed in by another site). */
export const SIGN_IN_PATH = '/api/v1/auth/login/local';

/** The person DeerFlow 2 shows as signed in: adk serve's token already decided who may come in. */
const LOCAL_USER = { id: 'local', email: 'local@adk.localhost', system_role: 'admin', needs_setup: false, oauth_provider: null };

const UNSUPPORTED = 'adk serve does not offer this DeerFlow feature';

/**
 * The routes of DeerFlow 2's gateway (backend/app/gateway/routers/*) its pages read besides the
 * LangGraph API, answered in the gateway's shapes for what adk has: sign-in (the password is
 * adk serve's token; the cookie holds a session for DeerFlow's paths, see sign-in.ts), the served model, which optional features exist
 * (none of DeerFlow's own: agents API, browser control, MCP tasks, suggestions), and empty
 * skills, custom agents, memory, MCP config and uploads. What adk does not do answers a clear
 * 501 instead of pretending: uploading files (adk takes images and PDFs in a message's parts
 * through its own API), editing agents, skills, memory or MCP servers from the browser.
 */
export function addDeerFlow2Routes(app: Hono, o: DeerFlow2Options): void {
  const unsupported = (what: string) => ({ detail: `${UNSUPPORTED}: ${what}` });

  app.get('/api/v1/auth/setup-status', (c) => c.json({ needs_setup: false }));
  // Reached only through the token check: the sign-in cookie (or a token) got it here.
  app.get('/api/v1/auth/me', (c) => c.json(LOCAL_USER));
  app.get('/api/v1/auth/providers', (c) => c.json({ providers: [] }));
  app.post(SIGN_IN_PATH, async (c) => {
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const password = typeof form.password === 'string' ? form.password : '';
    if (o.token && !sameText(password, o.token)) {
      return c.json({ detail: { code: 'invalid_credentials', message: 'Wrong password: sign in with adk serve’s token (ADK_SERVE_TOKEN, else the file ADK_HOME/serve-token)' } }, 401);
    }
    setSignInCookies(c, o.signIn?.issue() ?? 'open');
    return c.json({ expires_in: SESSION_SECONDS, needs_setup: false });
  });
  app.post('/api/v1/auth/logout', (c) => {
    const session = parseCookies(c.req.header('cookie')).get(ACCESS_COOKIE);
    if (session) o.signIn?.revoke(session);
    deleteCookie(c, ACCESS_COOKIE, { path: '/' });
    deleteCookie(c, CSRF_COOKIE, { path: '/' });
    return c.json({ message: 'signed out' });
  });

  app.get('/api/models', (c) =>
    c.json({
      models: o.models.map((name) => ({ name, model: name, display_name: name, description: 'served by adk', supports_thinking: false, supports_reasoning_effort: false })),
      token_usage: { enabled: false },
    }),
  );
  app.get('/api/models/:name', (c) => {
    const name = c.req.param('name');
    if (!o.models.includes(name)) return c.json({ detail: `no model ${name}` }, 404);
    return c.json({ name, model: name, display_name: name, description: 'served by adk', supports_thinking: false, supports_reasoning_effort: false });
  });
  app.get('/api/features', (c) => c.json({ agents_api: { enabled: false }, browser_control: { enabled: false }, mcp_tasks: { enabled: false } }));
  app.get('/api/suggestions/config', (c) => c.json({ enabled: false, max_suggestions: 3 }));
  app.get('/api/skills', (c) => c.json({ skills: [] }));
  // The front end reads "agents_api.enabled" in this detail as "custom agents are switched off".
  app.get('/api/agents', (c) => c.json({ detail: 'Custom agents are off: agents_api.enabled is false (adk teams live in agents.yaml)' }, 403));
  app.get('/api/mcp/config', (c) => c.json({ mcp_servers: {} }));
  app.get('/api/memory', (c) => c.json(emptyMemory()));
  app.get('/api/channels/providers', (c) => c.json({ providers: [] }));
  app.get('/api/channels/connections', (c) => c.json({ connections: [] }));

  app.get('/api/threads/:id/uploads/list', (c) => c.json({ files: [], count: 0 }));
  app.get('/api/threads/:id/uploads/limits', (c) => c.json({ max_files: 0, max_file_size: 0, max_total_size: 0 }));
  app.post('/api/threads/:id/uploads', (c) => c.json(unsupported("uploading files (send images and PDFs as a message's parts through adk's /v1 API)"), 501));
  app.get('/api/threads/:id/token-usage', (c) => c.json({ detail: 'token usage is in adk\'s /v1/sessions/:id' }, 404));
  for (const path of ['/api/skills/*', '/api/agents/*', '/api/memory/*', '/api/mcp/*', '/api/input-polish', '/api/scheduled-tasks/*', '/api/integrations/*']) {
    app.all(path, (c) => c.json(unsupported(c.req.path.replace(/^\/api\//, '')), 501));
  }
}

const SESSION_SECONDS = 12 * 3600;

/** DeerFlow's two cookies, for the browser session only: the sign-in (HttpOnly) and the CSRF value its pages repeat in X-CSRF-Token. */
function setSignInCookies(c: Context, session: string): void {
  const secure = new URL(c.req.url).protocol === 'https:';
  setCookie(c, ACCESS_COOKIE, session, { path: '/', httpOnly: true, sameSite: 'Strict', secure });
  setCookie(c, CSRF_COOKIE, randomBytes(24).toString('base64url'), { path: '/', httpOnly: false, sameSite: 'Strict', secure });
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function emptyMemory() {
  const empty = { summary: '', updatedAt: '' };
  return {
    version: '1.0',
    lastUpdated: '',
    user: { workContext: empty, personalContext: empty, topOfMind: empty },
    history: { recentMonths: empty, earlierContext: empty, longTermBackground: empty },
    facts: [],
  };
}
