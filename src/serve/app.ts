import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { streamSSE } from 'hono/streaming';
import type { z } from 'zod';
import type { DoneEvent } from './event-schemas.js';
import { AsyncQueue } from '../core/async-queue.js';
import { grantsFromFlags, InvalidAnswerError, targetsFromFlags } from '../core/conversation/answers.js';
import { InvalidPolicyError, parseSessionPolicy } from '../core/conversation/session-policy.js';
import { jsonEventText } from '../core/conversation/json-events.js';
import { redactJsonText } from '../core/store/redact.js';
import { SessionInUseError } from '../core/store/session-lock.js';
import { StoreError } from '../core/store/errors.js';
import type { SessionSummary } from '../core/store/session-store.js';
import { ServerStoppingError, SessionBusyError, UnknownSessionError, type ServedHub, type ServedSession, type SessionEvent, type TurnStep } from './served-session.js';
import { addDeerFlowRoutes, type DeerFlowOptions } from './protocols/deerflow/index.js';
import { langGraphApp, langGraphShared } from './protocols/langgraph/index.js';
import { addDeerFlow2Routes, deerFlow2Face, deerFlow2SignIn, SIGN_IN_PATH, type DeerFlow2Options } from './protocols/deerflow2/index.js';
import { addAgUiRoutes } from './protocols/ag-ui/index.js';
import { addA2aRoutes, type A2aOptions } from './protocols/a2a/index.js';
import { openApiDocument } from './openapi.js';
import { addWebRoutes } from './web.js';
import { pathWithoutToken, requireToken, Unauthorized } from './auth.js';
import { answersAnything, CreateSessionBody, InterruptsBody, MessageBody, type CancelResultSchema, type SessionCreatedSchema, type SessionListSchema, type SessionViewSchema, type TurnResultSchema } from './schemas.js';
import { withoutServerPaths } from './client-errors.js';
import { ContentPartError } from '../core/errors.js';
import { contentPartFromBase64, type ContentPart } from '../core/schema/content-part.js';
import { storedForm } from '../core/store/part-store.js';

/** The largest body of a message with parts: about 64 MB of base64, a few images and PDFs. */
const PARTS_BODY_BYTES = 64 * 1024 * 1024;
import { isResumable, servedStatus } from './session-state.js';

/** What `createServeApp` serves and how it guards it. */
export interface ServeAppOptions {
  hub: ServedHub;
  /** The team tree for `GET /v1/agents`. */
  agents: () => unknown;
  /** Every request but the page's files needs it (`Authorization: Bearer <token>`, or `/t/<token>/` before the path). */
  token?: string | undefined;
  /**
   * Serve without a token, on purpose: `socket` (a 0600 Unix socket: its permissions are the
   * credential) or `opt-out` (`--no-token`: every local account can drive the server). Without a
   * token one of these must be said.
   */
  unauthenticated?: 'socket' | 'opt-out' | undefined;
  /** Browser origins allowed to call the API (`--cors`, repeatable). */
  corsOrigins?: readonly string[] | undefined;
  /** Largest request body (default 1 MiB): larger ones get 413. */
  maxBodyBytes?: number | undefined;
  /** Values never sent to a client (API keys): replaced by [REDACTED] in events. */
  secrets?: readonly string[] | undefined;
  version?: string | undefined;
  /** The built web UI (dist/web), served at `/` (none: no page). */
  webRoot?: string | undefined;
  /** DeerFlow 1.x's `/api/chat/stream` and `/api/config` (off without it). */
  deerflow?: DeerFlowOptions | undefined;
  /** DeerFlow 2's gateway routes and its view of the LangGraph API at `/api` (off without it). */
  deerflow2?: DeerFlow2Options | undefined;
  /** Host names besides localhost/127.0.0.1/[::1] that name this loopback server (the address it listens on). */
  hosts?: readonly string[] | undefined;
  /** Keep-alive comment interval on event streams (default 15 s). */
  heartbeatMs?: number | undefined;
  /** A2A (`adk serve --a2a`): agent cards and JSON-RPC per served agent (off without it). */
  a2a?: Omit<A2aOptions, 'bearer'> | undefined;
  /** `narrow`: a session's policy may only narrow what runs (no allow rules, no accept-edits); default `any`. */
  clientPolicy?: 'any' | 'narrow' | undefined;
}

/** Keep-alive comment on idle event streams, so proxies keep them open. */
const HEARTBEAT_MS = 15_000;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

class HttpError extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 409 | 413 | 415,
    readonly code: string,
    message: string,
    readonly path?: string,
  ) {
    super(message);
  }
}

/** The HTTP API of `adk serve` (DESIGN §12): sessions, turns as server-sent events, interrupts. */
export function createServeApp(o: ServeAppOptions): Hono {
  if (!o.token && !o.unauthenticated) throw new Error('adk serve needs a token (or a Unix socket, or an explicit opt-out)');
  const app = new Hono({ getPath: pathWithoutToken });
  const hub = o.hub;
  const secrets = o.secrets ?? [];
  const loopbackHosts = new Set([...LOOPBACK_HOSTS, ...(o.hosts ?? [])]);
  const heartbeatMs = o.heartbeatMs ?? HEARTBEAT_MS;

  app.onError((err, c) => {
    const e = toHttpError(err);
    // A client is never shown where the server keeps its files (agents file, store, workspace).
    const body = JSON.stringify({ error: { code: e.code, message: withoutServerPaths(e.message), ...(e.path ? { path: e.path } : {}) } });
    return c.body(redactJsonText(body, secrets), e.status, { 'content-type': 'application/json; charset=utf-8' });
  });
  app.notFound((c) => c.json({ error: { code: 'not_found', message: `no route for ${c.req.method} ${c.req.path}` } }, 404));

  const corsOrigins = [...(o.corsOrigins ?? [])];
  if (corsOrigins.length) app.use('*', cors({ origin: corsOrigins, allowHeaders: ['Authorization', 'Content-Type', 'Last-Event-ID', 'Cache-Control'] }));
  // Without a token the server is loopback-only (or a Unix socket); a page on another site that
  // points its own DNS name at 127.0.0.1 (rebinding) is refused by its Host header.
  // DeerFlow 2's sign-in sessions (its pages cannot send the token): signed with the token.
  const signIn = o.deerflow2 && o.token ? deerFlow2SignIn(o.token) : undefined;
  if (!o.token) {
    app.use('*', async (c, next) => {
      const host = (c.req.header('host') ?? '').replace(/:\d+$/, '');
      if (!loopbackHosts.has(host)) throw new HttpError(403, 'forbidden_host', `Host '${host}' is not this loopback server; serve with a token to serve other names`);
      await next();
    });
  } else app.use('*', requireToken(o.token, signIn));
  // Every POST says it is JSON: a browser must then ask first (CORS preflight), so a page on another
  // site cannot start, answer or cancel a turn with a plain form or text post.
  app.use('*', async (c, next) => {
    if (c.req.method === 'POST' && !isJsonType(c.req.header('content-type')) && !isBodylessCancel(c) && !(o.deerflow2 && c.req.path === SIGN_IN_PATH)) {
      throw new HttpError(415, 'unsupported_media_type', 'send requests with Content-Type: application/json');
    }
    // A browser says where a request comes from: another site is refused unless --cors named it.
    const origin = c.req.header('origin');
    if (c.req.header('sec-fetch-site') === 'cross-site' && (!origin || !corsOrigins.includes(origin))) {
      throw new HttpError(403, 'cross_site', 'requests from other sites are refused (adk serve --cors <origin> allows one)');
    }
    await next();
  });
  const limit = (maxSize: number) =>
    bodyLimit({
      maxSize,
      onError: () => {
        throw new HttpError(413, 'body_too_large', `the request body is larger than ${maxSize} bytes`);
      },
    });
  const small = limit(o.maxBodyBytes ?? 1024 * 1024);
  // A message may carry images and PDFs as base64 (a 32 MB PDF is about 43 MB of it): by default its
  // route takes more; an operator's `maxBodyBytes` holds for every route.
  const large = limit(o.maxBodyBytes ?? PARTS_BODY_BYTES);
  app.use('*', (c, next) => (c.req.method === 'POST' && /^\/v1\/sessions\/[^/]+\/messages$/.test(c.req.path) ? large : small)(c, next));

  app.get('/openapi.json', (c) => c.json(openApiDocument(o.version ?? '0.0.0', new URL(c.req.url).origin)));
  app.get('/v1/agents', (c) => c.json(o.agents()));

  // Only sessions made through serve (or shared): the store may hold every CLI session of this account.
  app.get('/v1/sessions', async (c) => {
    const served = (await hub.stores.sessions.list()).filter((s): s is SessionSummary => !s.corrupt && !!s.served);
    const sessions = await Promise.all(
      served.map(async (s) => {
        // Only a session the store calls active may have a turn running: the others need no look.
        const busy = s.status === 'active' && (await hub.busy(s.id));
        const { id, title, rootAgent: agent, messageCount, pendingInterrupts, usage, createdAt, updatedAt } = s;
        return { id, title, agent, status: servedStatus(s.status, busy), resumable: isResumable(s, busy), messageCount, pendingInterrupts, usage, createdAt, updatedAt };
      }),
    );
    return redactedJson<typeof SessionListSchema>(c, { sessions });
  });
  app.post('/v1/sessions', async (c) => {
    const { policy: raw, ...body } = await parseBody(c, CreateSessionBody, true);
    const live = await hub.create({ ...body, ...(raw ? { policy: parseSessionPolicy(raw, { narrowOnly: o.clientPolicy === 'narrow' }) } : {}) });
    return c.json({ id: live.id } satisfies z.input<typeof SessionCreatedSchema>, 201);
  });
  app.get('/v1/sessions/:id', async (c) => {
    const live = await hub.get(c.req.param('id'));
    const [r, busy, lastEventId, turnFrom] = await Promise.all([live.record(), live.busy(), live.lastId(), live.turnFrom()]);
    return redactedJson<typeof SessionViewSchema>(c, {
      id: r.id,
      title: r.title,
      agent: r.rootAgent,
      status: servedStatus(r.status, busy),
      resumable: isResumable(r, busy),
      todos: r.todos ?? [],
      // Parts are listed by name, type and hash: their bytes stay in the session (see storedForm).
      messages: r.messages.map(storedForm),
      // What a stopped turn (waiting on a person, or cancelled) has done so far, until it ends.
      pendingTurn: r.pendingTurn ?? [],
      pending: r.pendingInterrupts,
      usage: r.usage,
      lastEventId,
      turnFrom,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
    });
  });
  app.delete('/v1/sessions/:id', async (c) => {
    await hub.delete(c.req.param('id'));
    return c.body(null, 204);
  });

  app.post('/v1/sessions/:id/messages', async (c) => {
    const { content, parts: raw } = await parseBody(c, MessageBody);
    const parts = messageParts(raw);
    const live = await hub.get(c.req.param('id'));
    const r = await live.record();
    if (!(await live.busy()) && r.status === 'interrupted' && r.pendingInterrupts.length) {
      throw new HttpError(409, 'interrupts_pending', `session ${r.id} is waiting on ${r.pendingInterrupts.length} interrupt(s); answer them with POST /v1/sessions/${r.id}/interrupts`);
    }
    return turn(c, live, parts.length ? { content, parts } : { content });
  });
  app.post('/v1/sessions/:id/interrupts', async (c) => {
    const body = await parseBody(c, InterruptsBody);
    const live = await hub.get(c.req.param('id'));
    const r = await live.record();
    const busy = await live.busy();
    if (!busy && !isResumable(r, busy)) throw new HttpError(409, 'no_interrupts', `session ${r.id} has no stopped turn to continue (status: ${servedStatus(r.status, busy)})`);
    if (r.pendingInterrupts.length && !answersAnything(body)) throw new HttpError(400, 'invalid_body', 'give targets, approve, reject, always, input or raise');
    return turn(c, live, { targets: targetsFromFlags(r.pendingInterrupts, body), grants: grantsFromFlags(r.pendingInterrupts, body) });
  });
  app.post('/v1/sessions/:id/cancel', async (c) => {
    const live = await hub.get(c.req.param('id'));
    return c.json({ cancelled: await live.cancel() } satisfies z.input<typeof CancelResultSchema>, 202);
  });
  app.get('/v1/sessions/:id/events', async (c) => {
    const live = await hub.get(c.req.param('id'));
    const asked = c.req.header('last-event-id') ?? c.req.query('after');
    const after = asked === undefined ? NaN : Number(asked);
    return streamSSE(c, async (stream) => {
      const queue = new AsyncQueue<SessionEvent>();
      // Told before anything is awaited: a client gone while we subscribe still ends this stream.
      stream.onAbort(() => queue.close());
      // Subscribed before the replay is read: nothing falls between the two, and ids drop duplicates.
      const unsubscribe = await live.subscribe((e) => queue.push(e));
      const heartbeat = setInterval(() => void stream.write(': keep-alive\n\n'), heartbeatMs);
      const newest = await live.lastId();
      // An id beyond the newest was handed out before this server restarted: send all that is kept.
      let last = Number.isFinite(after) ? (after > newest ? 0 : after) : newest;
      try {
        for (const e of await live.since(last)) {
          await send(stream, e);
          last = e.id;
        }
        for await (const e of queue) {
          if (e.id <= last) continue;
          await send(stream, e);
          last = e.id;
        }
      } finally {
        clearInterval(heartbeat);
        unsubscribe();
      }
    });
  });

  if (o.deerflow) addDeerFlowRoutes(app, hub, { ...o.deerflow, secrets });
  // The Agent Protocol / LangGraph API, at the root (the SDK's apiUrl) and where DeerFlow 2 mounts it.
  const shared = langGraphShared(hub);
  const langgraph = langGraphApp(hub, { agents: o.agents, secrets, heartbeatMs, shared });
  app.route('/', langgraph);
  app.route('/api/langgraph', langgraph);
  if (o.deerflow2) {
    // DeerFlow 2's front end proxies /api/langgraph/* to its gateway's /api/*, beside the gateway's own routes.
    addDeerFlow2Routes(app, { ...o.deerflow2, token: o.token, signIn });
    const defaultTeam = () => String((o.agents() as { default?: unknown })?.default ?? '');
    app.route('/api', langGraphApp(hub, { agents: o.agents, secrets, heartbeatMs, shared, face: deerFlow2Face(defaultTeam) }));
  }
  addAgUiRoutes(app, hub, { secrets });
  if (o.a2a) addA2aRoutes(app, hub, { ...o.a2a, bearer: !!o.token, secrets });
  if (o.webRoot) addWebRoutes(app, o.webRoot);

  /** A turn as SSE until its `done` event, or (Accept: application/json) its result once saved. */
  async function turn(c: Context, live: ServedSession, step: TurnStep) {
    const queue = new AsyncQueue<SessionEvent>();
    const unsubscribe = await live.subscribe((e) => {
      queue.push(e);
      if (e.event.type === 'done') queue.close();
    });
    try {
      await live.start(step);
    } catch (e) {
      unsubscribe();
      throw e;
    }
    if (wantsJson(c)) {
      // The result is what the turn's events told: its interrupts, its error, then `done`.
      let error: string | undefined;
      let interrupt: SessionEvent['event'] | undefined;
      let done: SessionEvent['event'] | undefined;
      try {
        for await (const { event } of queue) {
          if (event.type === 'error') error = String(event.message);
          if (event.type === 'interrupt') interrupt = event;
          if (event.type === 'done') done = event;
        }
      } finally {
        unsubscribe();
      }
      const result = done as z.infer<typeof DoneEvent> | undefined;
      return redactedJson<typeof TurnResultSchema>(c, {
        sessionId: live.id,
        // No `done`: the stream ended without one (the store lost the turn), an error to the client.
        status: result?.status ?? 'error',
        ...(result?.reason ? { reason: result.reason } : {}),
        output: result?.output ?? '',
        usage: result?.usage ?? { promptTokens: 0, completionTokens: 0 },
        interrupts: done?.status === 'interrupted' || done?.status === 'incomplete' ? ((interrupt?.interrupts ?? []) as z.input<typeof TurnResultSchema>['interrupts']) : [],
        ...(error ? { error } : {}),
        // The record may be gone (a store that lost its data mid-turn): the outcome above still stands.
        checkpointId: (interrupt?.checkpointId as string | undefined) ?? (await live.record().catch(() => undefined))?.checkpointId,
      });
    }
    // The client going away does not stop the turn (POST /cancel does).
    return streamSSE(c, async (stream) => {
      const heartbeat = setInterval(() => void stream.write(': keep-alive\n\n'), heartbeatMs);
      stream.onAbort(() => queue.close());
      try {
        for await (const e of queue) await send(stream, e);
      } finally {
        clearInterval(heartbeat);
        unsubscribe();
      }
    });
  }

  /** JSON with every secret (API keys, the token) replaced, like the events: history can quote them. Typed by the schema `/openapi.json` names. */
  function redactedJson<S extends z.ZodType>(c: Context, body: z.input<S>) {
    return c.body(redactJsonText(JSON.stringify(body), secrets), 200, { 'content-type': 'application/json; charset=utf-8' });
  }

  function send(stream: { writeSSE(m: { event: string; id: string; data: string }): Promise<void> }, e: SessionEvent): Promise<void> {
    return stream.writeSSE({ event: e.event.type, id: String(e.id), data: jsonEventText(e.event, secrets) });
  }

  return app;
}

/**
 * `POST /cancel` takes no body, so a client may send none and no type. A browser could send such a
 * request cross-site without asking first: the Sec-Fetch-Site check below, the token, and the Host
 * check of a token-less server refuse it, and at worst a turn stops at a safe point, resumable.
 */
function isBodylessCancel(c: Context): boolean {
  const empty = !c.req.header('content-type') && !c.req.header('transfer-encoding') && (c.req.header('content-length') ?? '0') === '0';
  // adk's own cancel, and the LangGraph SDK's (runs.cancel sends no body either).
  return empty && /^(?:\/v1\/sessions\/[^/]+|(?:\/api(?:\/langgraph)?)?\/threads\/[^/]+\/runs\/[^/]+)\/cancel$/.test(c.req.path);
}

/** `application/json` itself (parameters allowed), not a type that merely mentions it. */
function isJsonType(header: string | undefined): boolean {
  return (header ?? '').split(';')[0]!.trim().toLowerCase() === 'application/json';
}

function wantsJson(c: Context): boolean {
  const accept = c.req.header('accept') ?? '';
  return accept.includes('application/json') && !accept.includes('text/event-stream');
}

/** The body's parts as message parts: the bytes decide the type; a bad or too large one is a 400 naming it. */
function messageParts(raw: z.infer<typeof MessageBody>['parts']): ContentPart[] {
  return (raw ?? []).map((p, i) => {
    try {
      const part = contentPartFromBase64(p.data, { name: p.name, mimeType: p.mimeType });
      if (part.type !== p.type) throw new ContentPartError('unsupported_part', `${p.name ? `${p.name}: ` : ''}declared ${p.type}, but the bytes are ${part.mimeType}`);
      return part;
    } catch (e) {
      if (e instanceof ContentPartError) throw new HttpError(e.code === 'part_too_large' ? 413 : 400, e.code, e.message, `parts.${i}`);
      throw e;
    }
  });
}

/** The body as the schema wants it; a browser form post (no JSON content type) is refused. */
async function parseBody<S extends z.ZodType>(c: Context, schema: S, optional = false): Promise<z.infer<S>> {
  const type = c.req.header('content-type') ?? '';
  const text = await c.req.text();
  if (optional && !text.trim()) return schema.parse({});
  if (!isJsonType(type)) throw new HttpError(415, 'unsupported_media_type', 'send the body as JSON (Content-Type: application/json)');
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new HttpError(400, 'invalid_json', `the body is not valid JSON: ${(e as Error).message}`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.join('.');
    throw new HttpError(400, 'invalid_body', `${path ? `${path}: ` : ''}${issue.message}`, path || undefined);
  }
  return parsed.data;
}

function toHttpError(err: Error): { status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 500 | 503; code: string; message: string; path?: string | undefined } {
  if (err instanceof HttpError) return err;
  if (err instanceof Unauthorized) return { status: 401, code: 'unauthorized', message: err.message };
  if (err instanceof UnknownSessionError) return { status: 404, code: 'unknown_session', message: err.message };
  if (err instanceof SessionBusyError) return { status: 409, code: 'session_busy', message: err.message };
  if (err instanceof SessionInUseError) return { status: 409, code: 'session_in_use', message: err.message };
  if (err instanceof ServerStoppingError) return { status: 503, code: 'server_stopping', message: err.message };
  if (err instanceof InvalidAnswerError) return { status: 400, code: 'invalid_answer', message: err.message };
  if (err instanceof InvalidPolicyError) return { status: 400, code: 'invalid_policy', message: err.message };
  // The store is down or busy: the client may send the request again later (not a server bug).
  if (err instanceof StoreError && err.code !== 'store_failed') return { status: 503, code: err.code, message: err.message };
  if ('getResponse' in err && typeof err.getResponse === 'function') {
    // Hono's own refusals: a missing or wrong token (401), a malformed Authorization header (400).
    const status = (err as { status?: number }).status ?? 500;
    if (status === 401 || status === 400) return { status, code: status === 401 ? 'unauthorized' : 'bad_request', message: err.message || (status === 401 ? 'unauthorized' : 'bad request') };
    return { status: 500, code: 'http_error', message: err.message };
  }
  if (/unknown agent|is not defined in/.test(err.message)) return { status: 400, code: 'unknown_agent', message: err.message };
  return { status: 500, code: 'internal', message: err.message };
}
