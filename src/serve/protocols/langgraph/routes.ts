import { Hono, type Context } from 'hono';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import type { z } from 'zod';
import { AsyncQueue } from '../../../core/async-queue.js';
import { InvalidAnswerError } from '../../../core/conversation/answers.js';
import { redactJsonText } from '../../../core/store/redact.js';
import { ServerStoppingError, SessionBusyError, UnknownSessionError, type ServedHub, type SessionEvent } from '../../served-session.js';
import { assistantsOf, graphOf, schemasOf } from './assistants.js';
import { LgError } from './errors.js';
import { LangGraphRecords, type RunRecord, type ThreadRecord } from './records.js';
import { AssistantSearchBody, HistoryBody, RunBody, streamModes, ThreadBody, ThreadSearchBody } from './requests.js';
import { LangGraphRuns, type StartedRun } from './runs.js';
import { EMPTY_VALUES, lgHistory, lgState, lgThread, sessionView, stateAt, type SessionView } from './state.js';
import { RunTranslator, type LgEvent, type StreamMode } from './translator.js';
import type { LangGraphFace } from './face.js';

export interface LangGraphOptions {
  /** The team tree `GET /v1/agents` serves: its root agents are the assistants. */
  agents: () => unknown;
  secrets: readonly string[];
  heartbeatMs: number;
  /** How this mount's clients read the API (DeerFlow 2's at `/api`); none for the plain API. */
  face?: LangGraphFace | undefined;
  /** Threads and runs shared with another mount of the API (one run table per server). */
  shared?: LangGraphShared | undefined;
}

/** The store of threads and the runs in flight: one per server, whichever mounts serve them. */
export interface LangGraphShared {
  records: LangGraphRecords;
  runs: LangGraphRuns;
}

export function langGraphShared(hub: ServedHub): LangGraphShared {
  const records = new LangGraphRecords(hub.stores.kv);
  return { records, runs: new LangGraphRuns(hub, records) };
}

/**
 * The Agent Protocol / LangGraph Platform API (what `@langchain/langgraph-sdk`'s Client calls):
 * assistants, threads, runs and their streams, mapped onto adk's served sessions. Mounted at `/`
 * and at `/api/langgraph` (where DeerFlow 2 and agent-chat-ui deployments expect it).
 */
export function langGraphApp(hub: ServedHub, o: LangGraphOptions): Hono {
  const app = new Hono();
  const { records, runs } = o.shared ?? langGraphShared(hub);
  const face = o.face;
  const since = new Date().toISOString();
  const secrets = o.secrets;

  // A page on another origin (`adk serve --cors`) reads the run's address from these, as the SDK does.
  app.use('*', async (c, next) => {
    c.header('Access-Control-Expose-Headers', 'Content-Location, Location');
    await next();
  });

  app.onError((err, c) => {
    const [status, message] = refusal(err);
    return c.body(redactJsonText(JSON.stringify({ detail: message }), secrets), status, { 'content-type': 'application/json; charset=utf-8' });
  });

  const json = (c: Context, body: unknown, status: 200 | 201 = 200) => c.body(redactJsonText(JSON.stringify(body), secrets), status, { 'content-type': 'application/json; charset=utf-8' });
  const assistants = () => assistantsOf(o.agents(), since);
  const assistant = (id: string) => {
    const name = face?.assistant?.(id) ?? id;
    const a = assistants().find((x) => x.assistant_id === name || x.graph_id === name);
    if (!a) throw new LgError(404, `no assistant ${id}; assistants: ${assistants().map((x) => x.assistant_id).join(', ')}`);
    return a;
  };

  // What LangGraph clients ask first to see that a server is there (agent-chat-ui's connection check).
  app.get('/info', (c) => json(c, { version: 'adk', flags: { assistants: true, crons: false, langsmith: false } }));
  app.get('/ok', (c) => json(c, { ok: true }));

  app.post('/assistants/search', async (c) => {
    const q = await body(c, AssistantSearchBody);
    const found = assistants().filter((a) => (!q.graph_id || a.graph_id === q.graph_id) && (!q.name || a.name.includes(q.name)) && matches(a.metadata, q.metadata));
    return json(c, found.slice(q.offset ?? 0, (q.offset ?? 0) + (q.limit ?? 10)));
  });
  app.post('/assistants/count', async (c) => json(c, assistants().length));
  app.get('/assistants/:id', (c) => json(c, assistant(c.req.param('id'))));
  app.get('/assistants/:id/graph', (c) => json(c, graphOf(o.agents(), assistant(c.req.param('id')).graph_id)));
  app.get('/assistants/:id/schemas', (c) => json(c, schemasOf(assistant(c.req.param('id')).graph_id)));
  app.get('/assistants/:id/subgraphs', (c) => (assistant(c.req.param('id')), json(c, {})));

  async function thread(id: string): Promise<ThreadRecord> {
    const t = await records.thread(id);
    if (!t) throw new LgError(404, `no thread ${id}`);
    return t;
  }
  async function view(t: ThreadRecord): Promise<SessionView | undefined> {
    if (!t.session) return undefined;
    try {
      const v = await sessionView(t.thread_id, await hub.get(t.session));
      return face?.values ? { ...v, values: face.values(v.values, v.interrupts) } : v;
    } catch (e) {
      // Its session was deleted through adk's own API: the thread is empty again.
      if (e instanceof UnknownSessionError) return undefined;
      throw e;
    }
  }

  app.post('/threads', async (c) => {
    const b = await body(c, ThreadBody, true);
    if (b.thread_id) {
      const old = await records.thread(b.thread_id);
      if (old && b.if_exists === 'do_nothing') return json(c, lgThread(old, await view(old)));
      if (old) throw new LgError(409, `thread ${b.thread_id} exists`);
    }
    const metadata = Object.fromEntries(Object.entries(b.metadata ?? {}).filter(([, v]) => v !== undefined && v !== null));
    const t = await records.putThread(records.newThread({ thread_id: b.thread_id ?? undefined, metadata }));
    return json(c, lgThread(t, undefined));
  });
  app.post('/threads/search', async (c) => json(c, await search(await body(c, ThreadSearchBody, true))));
  app.post('/threads/count', async (c) => json(c, (await search({ ...(await body(c, ThreadSearchBody, true)), limit: 1_000_000, offset: 0 })).length));
  app.get('/threads/:id', async (c) => {
    const t = await thread(c.req.param('id'));
    return json(c, lgThread(t, await view(t)));
  });
  app.patch('/threads/:id', async (c) => {
    const t = await thread(c.req.param('id'));
    const b = await body(c, ThreadBody, true);
    const saved = await records.putThread({ ...t, metadata: { ...t.metadata, ...(b.metadata ?? {}) }, updated_at: new Date().toISOString() });
    return json(c, lgThread(saved, await view(saved)));
  });
  app.delete('/threads/:id', async (c) => {
    const t = await thread(c.req.param('id'));
    if (t.session) await hub.delete(t.session).catch((e: unknown) => {
      if (!(e instanceof UnknownSessionError)) throw e;
    });
    await records.deleteThread(t.thread_id);
    return c.body(null, 204);
  });
  app.post('/threads/:id/copy', async (c) => {
    await thread(c.req.param('id'));
    throw new LgError(422, 'copying a thread is not supported: an adk session cannot be forked through the served API yet');
  });
  app.get('/threads/:id/state', async (c) => {
    const t = await thread(c.req.param('id'));
    return json(c, lgState(t, await view(t)));
  });
  const stateAtRoute = async (c: Context, checkpoint: string) => {
    const t = await thread(c.req.param('id')!);
    const s = stateAt(t, await view(t), checkpoint);
    if (!s) throw new LgError(404, `thread ${t.thread_id} has no checkpoint ${checkpoint}`);
    return json(c, s);
  };
  app.get('/threads/:id/state/:checkpoint', (c) => stateAtRoute(c, c.req.param('checkpoint')));
  app.post('/threads/:id/state/checkpoint', async (c) => {
    const b = (await c.req.json().catch(() => ({}))) as { checkpoint?: { checkpoint_id?: string } };
    return stateAtRoute(c, String(b.checkpoint?.checkpoint_id ?? ''));
  });
  app.post('/threads/:id/state', async (c) => {
    await thread(c.req.param('id'));
    throw new LgError(422, "updating a thread's state is not supported: adk's state is the saved conversation, changed only by runs");
  });
  const history = async (c: Context, limit: number, before?: string) => {
    const t = await thread(c.req.param('id')!);
    return json(c, lgHistory(t, await view(t), limit, before));
  };
  app.post('/threads/:id/history', async (c) => {
    const b = await body(c, HistoryBody, true);
    return history(c, b.limit ?? 10, typeof b.before === 'string' ? b.before : (b.before?.checkpoint_id ?? undefined));
  });
  app.get('/threads/:id/history', (c) => history(c, Number(c.req.query('limit') ?? 10) || 10, c.req.query('before')));

  face?.routes?.(app, {
    values: async (id) => {
      const t = await records.thread(id);
      return t ? ((await view(t))?.values ?? EMPTY_VALUES) : undefined;
    },
    json: (c, body) => json(c, body),
  });

  // Runs.
  app.post('/threads/:id/runs', (c) => create(c, c.req.param('id')));
  app.post('/runs', (c) => create(c, undefined));
  app.post('/threads/:id/runs/stream', (c) => streamRun(c, c.req.param('id')));
  app.post('/runs/stream', (c) => streamRun(c, undefined));
  app.post('/threads/:id/runs/wait', (c) => waitRun(c, c.req.param('id')));
  app.post('/runs/wait', (c) => waitRun(c, undefined));
  app.get('/threads/:id/runs', async (c) => {
    const t = await thread(c.req.param('id'));
    const status = c.req.query('status');
    const all = await Promise.all((await records.runs(t.thread_id)).map((r) => runs.current(r, t)));
    const offset = Number(c.req.query('offset') ?? 0) || 0;
    return json(c, all.filter((r) => !status || r.status === status).slice(offset, offset + (Number(c.req.query('limit') ?? 10) || 10)).map(publicRun));
  });
  app.get('/threads/:id/runs/:run', async (c) => {
    const [t, r] = await run(c);
    return json(c, publicRun(await runs.current(r, t)));
  });
  app.delete('/threads/:id/runs/:run', async (c) => {
    const [t, r] = await run(c);
    if (runs.activeRun(t.thread_id)?.runId === r.run_id) throw new LgError(409, `run ${r.run_id} is running: cancel it first`);
    await records.deleteRun(t.thread_id, r.run_id);
    return c.body(null, 204);
  });
  app.post('/threads/:id/runs/:run/cancel', async (c) => {
    const [t, r] = await run(c);
    const action = c.req.query('action') === 'rollback' ? 'rollback' : 'interrupt';
    const now = await runs.current(r, t);
    if (now.status !== 'running' && now.status !== 'pending') throw new LgError(409, `run ${r.run_id} is not running (status ${now.status})`);
    const live = await runs.session(t, r.assistant_id);
    const stopping = runs.stop(t.thread_id, live, action);
    if (c.req.query('wait') === '1' || c.req.query('wait') === 'true') await stopping;
    else void stopping.catch(() => {});
    return c.body(null, 202);
  });
  app.get('/threads/:id/runs/:run/join', async (c) => {
    const [t, r] = await run(c);
    const ended = await runs.join(r, t);
    return json(c, finalValues(await view(t), ended.status === 'error'));
  });
  app.get('/threads/:id/runs/:run/stream', async (c) => {
    const [t, queued] = await run(c);
    // An enqueued run is streamed once it has started (its first event is known then).
    const r = queued.status === 'pending' ? await runs.started(queued, t) : queued;
    // No stream_mode asked for: the run's own modes (as LangGraph's join stream).
    const modes = streamModes(c.req.queries('stream_mode') ?? r.stream_mode ?? null);
    if (typeof modes === 'string') throw new LgError(422, `stream_mode ${modes} is not supported`);
    const live = await runs.session(t, r.assistant_id);
    const v = await sessionView(t.thread_id, live);
    const base = r.base ?? v.count;
    // The run's start, rebuilt: the messages before it, and the person's message that began it.
    const before = v.values.messages.filter((m) => Number(m.id.slice(t.thread_id.length + 1)) < base);
    const values = { ...v.values, messages: r.human ? [...before, { type: 'human' as const, id: `${t.thread_id}:${base}`, content: r.human, additional_kwargs: {}, response_metadata: {} }] : before };
    const translate = new RunTranslator({ thread: t.thread_id, runId: r.run_id, assistantId: r.assistant_id, modes, values, next: base + (r.human ? 1 : 0), face });
    // Last-Event-ID of one of this run's events: go on after it; anything else (useStream sends "-1"): the run from its start.
    const from = r.from ?? 1;
    const asked = Number(c.req.header('last-event-id') ?? NaN);
    const resumed = Number.isInteger(asked) && asked >= from;
    return streamSSE(c, async (sse) => {
      const heartbeat = setInterval(() => void sse.write(': heartbeat\n\n'), o.heartbeatMs);
      try {
        const now = await runs.current(r, t);
        if (now.status !== 'running' && now.status !== 'pending') {
          for (const e of [...translate.start(), { event: 'values', data: (await view(t))?.values }]) await write(sse, e);
        } else {
          const queue = new AsyncQueue<SessionEvent>();
          sse.onAbort(() => queue.close());
          const unsubscribe = await live.subscribe((e) => queue.push(e));
          try {
            let last = from - 1;
            if (!resumed) for (const e of translate.start()) await write(sse, e);
            // Events the client has (up to Last-Event-ID) still go through the translator, unsent: its message ids and state go on from them.
            const feed = async (e: SessionEvent) => {
              if (e.id <= last) return false;
              last = e.id;
              const out = translate.next(e.event);
              if (!resumed || e.id > asked) for (const x of out) await write(sse, x, e.id);
              return e.event.type === 'done';
            };
            let ended = false;
            for (const e of await live.since(last)) if ((ended = await feed(e))) break;
            if (!ended) for await (const e of queue) if (await feed(e)) break;
          } finally {
            unsubscribe();
          }
        }
        await write(sse, { event: 'end', data: { run_id: r.run_id, status: (await runs.join(r, t)).status } });
      } finally {
        clearInterval(heartbeat);
      }
    });
  });

  async function run(c: Context) {
    const t = await thread(c.req.param('id')!);
    const r = await records.run(t.thread_id, c.req.param('run')!);
    if (!r) throw new LgError(404, `thread ${t.thread_id} has no run ${c.req.param('run')}`);
    return [t, r] as const;
  }

  async function search(q: z.infer<typeof ThreadSearchBody>) {
    const all = await records.threads();
    // Matched on the metadata shown (with graph_id and assistant_id, which UIs search their threads by).
    const shown = (await Promise.all(all.filter((t) => !q.ids || q.ids.includes(t.thread_id)).map(async (t) => lgThread(t, await view(t))))).filter((t) => matches(t.metadata, q.metadata));
    const by = q.sort_by ?? 'updated_at';
    const dir = q.sort_order === 'asc' ? 1 : -1;
    const offset = q.offset ?? 0;
    return shown
      .filter((t) => !q.status || t.status === q.status)
      .sort((a, b) => dir * String(a[by]).localeCompare(String(b[by])))
      .slice(offset, offset + (q.limit ?? 10));
  }

  /** A run request: its body, assistant, stream modes and thread (made for a stateless run, or by `if_not_exists: create`). */
  async function prepare(c: Context, threadId: string | undefined) {
    let b = await body(c, RunBody);
    const a = assistant(b.assistant_id);
    const modes = streamModes(b.stream_mode);
    if (typeof modes === 'string') throw new LgError(422, `stream_mode ${modes} is not supported; supported: values, updates, messages-tuple, messages, events, custom, debug`);
    let t = threadId ? await records.thread(threadId) : undefined;
    // The client's own way of answering what the thread waits on (DeerFlow 2's card reply) becomes command.resume.
    if (t && face?.request) {
      const v = await view(t);
      if (v?.status === 'interrupted') b = face.request(b, v.record.pendingInterrupts);
    }
    if (!t) {
      if (threadId && b.if_not_exists !== 'create') throw new LgError(404, `no thread ${threadId} (send if_not_exists: "create" to make it)`);
      t = await records.putThread(records.newThread({ thread_id: threadId, metadata: { graph_id: a.graph_id } }));
    }
    // A stateless run's thread goes when the run ends, unless on_completion says keep.
    const temporary = !threadId && b.on_completion !== 'keep';
    return { b, assistantId: a.assistant_id, modes, t, temporary };
  }

  async function begin(c: Context, threadId: string | undefined): Promise<{ started: StartedRun; modes: Set<StreamMode>; t: ThreadRecord; temporary: boolean; onDisconnect: 'cancel' | 'continue' }> {
    const { b, assistantId, modes, t, temporary } = await prepare(c, threadId);
    const started = await runs.start(t, assistantId, b);
    c.header('Content-Location', `/threads/${t.thread_id}/runs/${started.run.run_id}`);
    return { started, modes, t, temporary, onDisconnect: b.on_disconnect ?? 'continue' };
  }

  async function deleteThread(t: ThreadRecord) {
    if (t.session) await hub.delete(t.session).catch(() => {});
    await records.deleteThread(t.thread_id);
  }

  async function create(c: Context, threadId: string | undefined) {
    const p = await prepare(c, threadId);
    // enqueue on a busy thread: answered at once with a pending run (LangGraph's behaviour).
    const queued = p.b.multitask_strategy === 'enqueue' ? await runs.enqueue(p.t, p.assistantId, p.b) : undefined;
    if (queued) {
      c.header('Content-Location', `/threads/${p.t.thread_id}/runs/${queued.run_id}`);
      return json(c, publicRun(queued));
    }
    const started = await runs.start(p.t, p.assistantId, p.b);
    c.header('Content-Location', `/threads/${p.t.thread_id}/runs/${started.run.run_id}`);
    // Nobody reads this run's stream: its end is still followed (`finished`).
    started.events.close();
    if (p.temporary) void started.finished.then(() => deleteThread(p.t)).catch(() => {});
    return json(c, publicRun(started.run));
  }

  async function streamRun(c: Context, threadId: string | undefined) {
    const { started, modes, t, temporary, onDisconnect } = await begin(c, threadId);
    const { run: r, events } = started;
    if (temporary) void started.finished.then(() => deleteThread(t)).catch(() => {});
    c.header('Location', `/threads/${t.thread_id}/runs/${r.run_id}/stream`);
    const translate = new RunTranslator({ thread: t.thread_id, runId: r.run_id, assistantId: r.assistant_id, modes, values: started.values, next: started.next, face });
    return streamSSE(c, async (sse) => {
      const heartbeat = setInterval(() => void sse.write(': heartbeat\n\n'), o.heartbeatMs);
      // The client going away stops the run only when it asked so (`on_disconnect: "cancel"`; LangGraph's
      // default is "continue").
      let ended = false;
      sse.onAbort(() => {
        events.close();
        if (onDisconnect === 'cancel' && !ended) void runs.session(t, r.assistant_id).then((live) => runs.stop(t.thread_id, live, 'interrupt')).catch(() => {});
      });
      try {
        for (const e of translate.start()) await write(sse, e);
        for await (const e of events) {
          for (const out of translate.next(e.event)) await write(sse, out, e.id);
          if (e.event.type === 'done') {
            ended = true;
            break;
          }
        }
        const finished = await started.finished;
        await write(sse, { event: 'end', data: { run_id: r.run_id, status: finished.status } });
      } finally {
        clearInterval(heartbeat);
      }
    });
  }

  async function waitRun(c: Context, threadId: string | undefined) {
    const { started, t, temporary } = await begin(c, threadId);
    let error: string | undefined;
    for await (const e of started.events) if (e.event.type === 'error') error = String(e.event.message ?? 'the run failed');
    // The run's record is written while the thread is read: both follow the turn's end.
    const [ended, v] = await Promise.all([started.finished, view(t)]);
    const out = finalValues(v, false);
    // A stateless run's thread goes once its values are read.
    if (temporary) await deleteThread(t);
    return json(c, ended.status === 'error' ? { ...out, __error__: { error: 'AgentError', message: error ?? 'the run failed' } } : out);
  }

  function write(sse: SSEStreamingApi, e: LgEvent, id?: number) {
    return sse.writeSSE({ event: e.event, data: redactJsonText(JSON.stringify(e.data ?? null), secrets), ...(id !== undefined ? { id: String(id) } : {}) });
  }

  return app;
}

/** The thread's values after a run, with `__interrupt__` when it stopped at interrupts (as LangGraph's `wait`/`join` answer). */
function finalValues(v: SessionView | undefined, _failed: boolean) {
  if (!v) return { messages: [] };
  return v.interrupts.length ? { ...v.values, __interrupt__: v.interrupts } : v.values;
}

function publicRun(r: RunRecord) {
  const { from: _f, base: _b, human: _h, error: _e, ...shown } = r;
  return { ...shown, kwargs: {}, cancel_reason: r.cancel_reason ?? null };
}

function matches(have: Record<string, unknown>, want: Record<string, unknown> | null | undefined): boolean {
  return !want || Object.entries(want).every(([k, v]) => JSON.stringify(have[k]) === JSON.stringify(v));
}

async function body<S extends z.ZodType>(c: Context, schema: S, optional = false): Promise<z.infer<S>> {
  const text = await c.req.text();
  if (optional && !text.trim()) return schema.parse({});
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new LgError(422, `the body is not valid JSON: ${(e as Error).message}`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new LgError(422, `${issue.path.join('.') || 'body'}: ${issue.message}`);
  }
  return parsed.data;
}

function refusal(err: Error): [400 | 401 | 404 | 409 | 422 | 500 | 503, string] {
  if (err instanceof LgError) return [err.status, err.message];
  if (err instanceof InvalidAnswerError) return [400, err.message];
  if (err instanceof UnknownSessionError) return [404, err.message];
  if (err instanceof SessionBusyError) return [409, err.message];
  if (err instanceof ServerStoppingError) return [503, err.message];
  const status = (err as { status?: number }).status;
  if (status === 401) return [401, err.message || 'unauthorized'];
  if (/unknown agent|is not defined in/.test(err.message)) return [400, 'unknown assistant'];
  return [500, err.message];
}
