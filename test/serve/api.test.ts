import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ChatModelAgent, ScriptedChatModel, type ScriptedReply, type Tool } from '../../src/core/index.js';
import { openAdkStores, type AdkStores } from '../../src/core/store/index.js';
import { SessionHub } from '../../src/serve/session-hub.js';
import { Conversation } from '../../src/core/conversation/conversation.js';
import { startServer, type RunningServer } from '../../src/serve/server.js';
import { readSse, type SseEvent } from './sse.js';
import type { BudgetLimits } from '../../src/core/index.js';

// Issue 17: `adk serve`'s HTTP API, over real HTTP on a loopback port.
const open: Array<{ server: RunningServer; stores: AdkStores }> = [];
afterEach(async () => {
  for (const { server, stores } of open.splice(0)) {
    await server.close({ cancel: true });
    await stores.close();
  }
});

let ran: string[] = [];
const touch: Tool<{ name: string }> = { name: 'touch', description: 'Makes a file.', parameters: z.object({ name: z.string() }), execute: ({ name }) => (ran.push(name), `made ${name}`) };

/** A served hub on a loopback port; a token unless `unauthenticated` says otherwise (`call` sends it). */
async function serve(replies: ScriptedReply[], opts: { token?: string; unauthenticated?: 'opt-out' | 'socket'; maxBodyBytes?: number; heartbeatMs?: number; host?: string; idleMs?: number; corsOrigins?: string[]; tools?: Tool<any>[]; budget?: BudgetLimits; clientPolicy?: 'any' | 'narrow' } = {}) {
  if (!opts.unauthenticated) opts = { token: 'test-token-0123456789', ...opts };
  ran = [];
  const stores = await openAdkStores('memory://');
  const model = new ScriptedChatModel(replies);
  const team = () => ({ agent: new ChatModelAgent({ name: 'assistant', description: 'helps', model, tools: [touch, ...(opts.tools ?? [])], approval: ['touch'] }), budget: opts.budget });
  const hub = new SessionHub({
    stores,
    newTeam: async (agent) => {
      if (agent && agent !== 'assistant') throw new Error(`agent '${agent}' is not defined in agents.yaml; defined: assistant`);
      return team();
    },
    sessionTeam: async () => team(),
    idleMs: opts.idleMs,
  });
  const { host = '127.0.0.1', tools: _tools, idleMs: _idle, budget: _budget, ...appOpts } = opts;
  const server = await startServer({ hub, agents: () => ({ name: 'assistant', children: [] }), secrets: ['sk-secret-value-123'], ...appOpts }, { host, port: 0 });
  open.push({ server, stores });
  const call = (path: string, init: RequestInit & { json?: unknown } = {}) => {
    const headers = new Headers(init.headers);
    if (init.json !== undefined || (init.method === 'POST' && !headers.has('content-type'))) headers.set('content-type', 'application/json');
    if (opts.token && !headers.has('authorization')) headers.set('authorization', `Bearer ${opts.token}`);
    return fetch(`${server.url}${path}`, { ...init, headers, body: init.json !== undefined ? JSON.stringify(init.json) : init.body });
  };
  const newSession = async () => ((await (await call('/v1/sessions', { method: 'POST', json: {} })).json()) as { id: string }).id;
  return { server, model, call, newSession, stores };
}

const types = (events: SseEvent[]) => events.map((e) => e.event);

describe('adk serve: sessions and turns', () => {
  it('creates, lists, shows and deletes sessions; the team tree and the OpenAPI document', async () => {
    const { call } = await serve([]);
    expect(await (await call('/v1/agents')).json()).toEqual({ name: 'assistant', children: [] });
    const doc = (await (await call('/openapi.json')).json()) as any;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/v1/sessions/{id}/messages'].post.requestBody.content['application/json'].schema.required).toEqual(['content']);
    const created = await call('/v1/sessions', { method: 'POST', json: { title: 'first' } });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const list = (await (await call('/v1/sessions')).json()) as any;
    expect(list.sessions.map((s: any) => s.id)).toContain(id);
    const shown = (await (await call(`/v1/sessions/${id}`)).json()) as any;
    expect(shown).toMatchObject({ id, title: 'first', agent: 'assistant', status: 'idle', messages: [], pending: [] });
    expect((await call(`/v1/sessions/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await call(`/v1/sessions/${id}`)).status).toBe(404);
  });

  it('a message streams the turn as SSE with the JSON Lines events, ids in order; Accept: application/json waits for the result', async () => {
    const { call, newSession } = await serve([{ content: 'Hello there, friend.' }, { content: 'Second answer with sk-secret-value-123 in it.' }]);
    const id = await newSession();
    const res = await call(`/v1/sessions/${id}/messages`, { method: 'POST', json: { content: 'hi' } });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const events = await readSse(res);
    expect(types(events)[0]).toBe('session');
    expect(types(events)).toContain('delta');
    expect(types(events).slice(-2)).toEqual(['message', 'done']);
    expect(events.filter((e) => e.event === 'delta').map((e) => e.data.content).join('')).toBe('Hello there, friend.');
    expect(events.map((e) => Number(e.id))).toEqual(events.map((_, i) => i + 1));
    for (const e of events) expect(e.data.type).toBe(e.event);
    expect(events.at(-1)!.data).toMatchObject({ type: 'done', status: 'completed', sessionId: id, output: 'Hello there, friend.' });

    const json = await call(`/v1/sessions/${id}/messages`, { method: 'POST', json: { content: 'again' }, headers: { accept: 'application/json' } });
    expect(await json.json()).toMatchObject({ sessionId: id, status: 'completed', output: 'Second answer with [REDACTED] in it.' });
    const history = ((await (await call(`/v1/sessions/${id}`)).json()) as any).messages.map((m: any) => [m.role, m.content]);
    expect(history).toEqual([
      ['user', 'hi'],
      ['assistant', 'Hello there, friend.'],
      ['user', 'again'],
      ['assistant', 'Second answer with [REDACTED] in it.'],
    ]);
  });

  it('never streams a secret', async () => {
    const { call, newSession } = await serve([{ content: 'the key is sk-secret-value-123' }]);
    const id = await newSession();
    const events = await readSse(await call(`/v1/sessions/${id}/messages`, { method: 'POST', json: { content: 'key?' } }));
    const text = JSON.stringify(events);
    expect(text).not.toContain('sk-secret-value-123');
    expect(text).toContain('[REDACTED]');
    // Nor in the history, the list or a JSON result.
    const shown = await (await call(`/v1/sessions/${id}`)).text();
    expect(shown).not.toContain('sk-secret-value-123');
    expect(shown).toContain('[REDACTED]');
  });
});

describe('adk serve: bad requests', () => {
  it('bad bodies are 400 with the field path; not JSON is 415; too large is 413; unknown sessions 404; unknown agents 400', async () => {
    const { call, newSession } = await serve([], { maxBodyBytes: 2000 });
    const id = await newSession();
    const post = (json: unknown) => call(`/v1/sessions/${id}/messages`, { method: 'POST', json });
    const missing = await post({});
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ error: { code: 'invalid_body', path: 'content' } });
    expect(await (await post({ content: 42 })).json()).toMatchObject({ error: { path: 'content' } });
    expect(await (await post({ content: 'x', extra: true })).json()).toMatchObject({ error: { code: 'invalid_body' } });
    const notJson = await call(`/v1/sessions/${id}/messages`, { method: 'POST', body: '{"content":"x"}', headers: { 'content-type': 'text/plain' } });
    expect(notJson.status).toBe(415);
    // A cross-site page can send a text/plain POST without asking first: none is taken, even without a body.
    for (const path of [`/v1/sessions/${id}/cancel`, '/v1/sessions', '/api/chat/stream']) {
      for (const type of ['text/plain', 'text/plain; x=application/json']) {
        expect((await call(path, { method: 'POST', body: '{"messages":[{"role":"user","content":"x"}]}', headers: { 'content-type': type } })).status).toBe(415);
      }
    }
    // A browser's cross-site request (Sec-Fetch-Site) is refused outright.
    expect((await call(`/v1/sessions/${id}`, { headers: { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' } })).status).toBe(403);
    const broken = await call(`/v1/sessions/${id}/messages`, { method: 'POST', body: '{"content":', headers: { 'content-type': 'application/json' } });
    expect(await broken.json()).toMatchObject({ error: { code: 'invalid_json' } });
    expect((await post({ content: 'x'.repeat(5000) })).status).toBe(413);
    expect((await call('/v1/sessions/nope-nope/messages', { method: 'POST', json: { content: 'x' } })).status).toBe(404);
    expect((await call('/v1/sessions/nope-nope', { method: 'DELETE' })).status).toBe(404);
    expect((await call('/v1/sessions/nope-nope/events')).status).toBe(404);
    const agent = await call('/v1/sessions', { method: 'POST', json: { agent: 'ghost' } });
    expect(agent.status).toBe(400);
    expect(await agent.json()).toMatchObject({ error: { code: 'unknown_agent' } });
    expect((await call('/v1/nothing')).status).toBe(404);
  });

  it('a token is required; a foreign Host is refused when serving without one; beyond loopback needs a token to start', async () => {
    const { call } = await serve([], { token: 'tok-123456' });
    expect((await call('/v1/agents', { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    expect((await call('/v1/agents', { headers: { authorization: '' } })).status).toBe(401);
    expect((await call('/v1/agents')).status).toBe(200);
    const open = await serve([], { unauthenticated: 'opt-out' });
    // fetch() will not send another Host; node:http will, as a rebinding attacker's browser would.
    const rebinding = await new Promise<number>((resolve, reject) => {
      const req = request(`${open.server.url}/v1/agents`, { headers: { host: 'attacker.example:8321' } }, (res) => (res.resume(), resolve(res.statusCode ?? 0)));
      req.on('error', reject).end();
    });
    expect(rebinding).toBe(403);
    const stores = await openAdkStores('memory://');
    const hub = new SessionHub({ stores, newTeam: async () => ({ agent: new ChatModelAgent({ name: 'a', description: 'a', model: new ScriptedChatModel([]) }) }), sessionTeam: async () => { throw new Error('x'); } });
    await expect(startServer({ hub, agents: () => ({}), unauthenticated: 'opt-out' }, { host: '0.0.0.0', port: 0 })).rejects.toThrow(/needs a token/);
    await expect(startServer({ hub, agents: () => ({}) }, { host: '127.0.0.1', port: 0 })).rejects.toThrow(/needs a token/);
    await stores.close();
  });
});

describe('adk serve: streams, interrupts, cancel', () => {
  it('Last-Event-ID resumes after a dropped connection with no gap and no duplicate; a second client sees the same live run', async () => {
    const { call, newSession } = await serve([
      { content: 'one two three four five six', chunkDelayMs: 20 },
      { content: 'seven eight nine ten', chunkDelayMs: 30 },
    ]);
    const id = await newSession();
    const first = await readSse(await call(`/v1/sessions/${id}/messages`, { method: 'POST', json: { content: 'count' } }));
    // A client that saw up to event 3 comes back.
    const watcher = call(`/v1/sessions/${id}/events`, { headers: { 'last-event-id': '3' } }).then((r) => readSse(r, (e) => e.event === 'done' && e.data.output === 'seven eight nine ten'));
    const second = await readSse(await call(`/v1/sessions/${id}/messages`, { method: 'POST', json: { content: 'more' } }));
    const seen = await watcher;
    const ids = seen.map((e) => Number(e.id));
    expect(ids).toEqual(Array.from({ length: first.length + second.length - 3 }, (_, i) => i + 4));
    // The live part is exactly what the sending client got.
    expect(seen.slice(first.length - 3)).toEqual(second);
  });

  it('an approval interrupts; messages wait (409); answered over HTTP the call runs once and the turn completes', async () => {
    const { call, newSession } = await serve([{ toolCalls: [{ id: 'c1', name: 'touch', arguments: { name: 'a.txt' } }] }, { content: 'Made it.' }]);
    const id = await newSession();
    const events = await readSse(await call(`/v1/sessions/${id}/messages`, { method: 'POST', json: { content: 'make a.txt' } }));
    const interrupt = events.find((e) => e.event === 'interrupt')!;
    expect(interrupt.data.interrupts[0]).toMatchObject({ kind: 'approval', tool: 'touch' });
    expect(events.at(-1)!.data.status).toBe('interrupted');
    expect(ran).toEqual([]);
    const shown = (await (await call(`/v1/sessions/${id}`)).json()) as any;
    expect(shown.status).toBe('interrupted');
    expect(shown.pending).toHaveLength(1);
    const blocked = await call(`/v1/sessions/${id}/messages`, { method: 'POST', json: { content: 'hello?' } });
    expect(blocked.status).toBe(409);
    expect(await blocked.json()).toMatchObject({ error: { code: 'interrupts_pending' } });
    expect((await call(`/v1/sessions/${id}/interrupts`, { method: 'POST', json: { approve: ['nope'] } })).status).toBe(400);
    const resumed = await readSse(await call(`/v1/sessions/${id}/interrupts`, { method: 'POST', json: { approve: [] } }));
    expect(resumed.find((e) => e.event === 'tool_result')!.data).toMatchObject({ name: 'touch', content: 'made a.txt' });
    expect(resumed.at(-1)!.data).toMatchObject({ status: 'completed', output: 'Made it.' });
    expect(ran).toEqual(['a.txt']);
    expect((await call(`/v1/sessions/${id}/interrupts`, { method: 'POST', json: { approve: [] } })).status).toBe(409);
  });

  it('a budget reached is an interrupt (kind budget, with its figures); {"raise": …} over HTTP goes on, counting on', async () => {
    const tick = (i: number) => ({ toolCalls: [{ id: `t${i}`, name: 'echo_time', arguments: {} }] });
    const echoTime: Tool<Record<string, never>> = { name: 'echo_time', description: 'Says a time.', parameters: z.object({}), readOnly: true, execute: () => 'noon' };
    const { call, newSession } = await serve([tick(1), tick(2), tick(3), { content: 'Ticked.' }], { tools: [echoTime], budget: { maxModelCalls: 2 } });
    const id = await newSession();
    const events = await readSse(await call(`/v1/sessions/${id}/messages`, { method: 'POST', json: { content: 'tick' } }));
    const interrupt = events.find((e) => e.event === 'interrupt')!;
    expect(interrupt.data.interrupts[0]).toMatchObject({ kind: 'budget', budget: { name: 'max_model_calls', spent: 2, limit: 2 } });
    expect(events.at(-1)!.data.status).toBe('interrupted');
    const shown = (await (await call(`/v1/sessions/${id}`)).json()) as any;
    expect(shown.pending).toMatchObject([{ kind: 'budget', budget: { name: 'max_model_calls' } }]);
    // A raise that names no budget, or a bad figure, is refused before anything runs.
    expect((await call(`/v1/sessions/${id}/interrupts`, { method: 'POST', json: { raise: { max_money: 5 } } })).status).toBe(400);
    expect((await call(`/v1/sessions/${id}/interrupts`, { method: 'POST', json: { raise: { max_model_calls: -1 } } })).status).toBe(400);
    // Raw resume data too: a bad figure is a 400 before anything resumes, and the stopped run is still there.
    const pid = shown.pending[0].id;
    const raw = await call(`/v1/sessions/${id}/interrupts`, { method: 'POST', json: { targets: { [pid]: { raise: { max_model_calls: 'lots' } } } } });
    expect(raw.status).toBe(400);
    expect(((await raw.json()) as any).error).toMatchObject({ code: 'invalid_answer' });
    expect(((await (await call(`/v1/sessions/${id}`)).json()) as any).pending).toMatchObject([{ kind: 'budget' }]);
    const resumed = await readSse(await call(`/v1/sessions/${id}/interrupts`, { method: 'POST', json: { raise: { max_model_calls: 4 } } }));
    expect(resumed.at(-1)!.data).toMatchObject({ status: 'completed', output: 'Ticked.' });
    expect(resumed.filter((e) => e.event === 'tool_result')).toHaveLength(1);
  });

  it('a session made with a policy runs unattended: deny answers "no" and goes on, fail ends incomplete naming the call, allow and plan as in adk run', async () => {
    const touchA = { toolCalls: [{ id: 'c1', name: 'touch', arguments: { name: 'a.txt' } }] };
    const { call } = await serve([touchA, { content: 'Could not make it.' }, touchA, touchA, { content: 'Made it.' }, touchA, { content: 'Planned.' }]);
    const create = async (policy: unknown) => {
      const res = await call('/v1/sessions', { method: 'POST', json: { policy } });
      return { status: res.status, body: (await res.json()) as any };
    };
    const turn = async (id: string) => readSse(await call(`/v1/sessions/${id}/messages`, { method: 'POST', json: { content: 'make a.txt' } }));
    // deny: the call is answered "no" with the reason, the model goes on, the turn completes; nothing ran.
    const denied = (await create({ on_approval: 'deny' })).body.id;
    const d = await turn(denied);
    expect(d.find((e) => e.event === 'tool_result')!.data).toMatchObject({ name: 'touch', isError: true, content: expect.stringContaining('adk is running unattended') });
    expect(d.at(-1)!.data).toMatchObject({ status: 'completed', output: 'Could not make it.' });
    expect(ran).toEqual([]);
    // fail: the turn ends incomplete (approval_needed), naming the call; the question stays, and answering it goes on.
    const failed = (await create({ on_approval: 'fail' })).body.id;
    const f = await turn(failed);
    expect(f.at(-1)!.data).toMatchObject({ status: 'incomplete', reason: 'approval_needed' });
    expect(f.find((e) => e.event === 'error')!.data.message).toContain('touch {"name":"a.txt"}');
    expect(((await (await call(`/v1/sessions/${failed}`)).json()) as any).pending).toMatchObject([{ kind: 'approval', tool: 'touch' }]);
    expect(ran).toEqual([]);
    // allow: the rule lets the call run unasked.
    const allowed = (await create({ allow: ['touch'], on_approval: 'fail' })).body.id;
    expect((await turn(allowed)).at(-1)!.data).toMatchObject({ status: 'completed', output: 'Made it.' });
    expect(ran).toEqual(['a.txt']);
    // plan: a tool that changes things is refused without asking.
    const plan = (await create({ permission_mode: 'plan' })).body.id;
    const p = await turn(plan);
    expect(p.find((e) => e.event === 'tool_result')!.data.content).toContain('Plan mode is on');
    expect(ran).toEqual(['a.txt']);
    // A policy that cannot be kept is refused before any session exists.
    for (const [policy, message] of [
      [{ permission_mode: 'bypass' }, 'permission_mode bypass runs every call unasked; this server does not offer it'],
      [{ on_approval: 'maybe' }, "on_approval 'maybe': expected ask, deny or fail"],
      [{ allow: ['shell(unclosed'] }, 'allow "shell(unclosed"'],
    ] as const) {
      const r = await create(policy);
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'invalid_policy', message: expect.stringContaining(message) });
    }
  });

  // Issue 44: a token holder's session policy could widen what runs unasked (allow rules,
  // accept-edits) with no way for the person who runs the server to forbid it.
  it('adk serve --client-policy narrow: a client may narrow what runs (deny, plan, on_approval), never widen it', async () => {
    const { call } = await serve([{ content: 'ok' }], { clientPolicy: 'narrow' });
    const create = async (policy: unknown) => {
      const res = await call('/v1/sessions', { method: 'POST', json: { policy } });
      return { status: res.status, body: (await res.json()) as any };
    };
    for (const policy of [{ allow: ['touch'] }, { permission_mode: 'accept-edits' }]) {
      const r = await create(policy);
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'invalid_policy', message: expect.stringContaining('--client-policy narrow') });
    }
    for (const policy of [{ deny: ['touch'] }, { permission_mode: 'plan' }, { on_approval: 'fail' }]) expect((await create(policy)).status).toBe(201);
  });

  it('closing the stream does not stop the turn; POST /cancel does, and the turn is saved resumable', async () => {
    const { call, newSession } = await serve([
      { content: 'a b c d e f g h', chunkDelayMs: 40 },
      { content: 'i j k l m n o p q r s t u v w x y z', chunkDelayMs: 150 },
    ]);
    const id = await newSession();
    const res = await call(`/v1/sessions/${id}/messages`, { method: 'POST', json: { content: 'letters' } });
    await readSse(res, (e) => e.event === 'delta'); // the client leaves after the first delta
    const watch = await call(`/v1/sessions/${id}/events`, { headers: { 'last-event-id': '0' } });
    const all = await readSse(watch, (e) => e.event === 'done');
    expect(all.at(-1)!.data).toMatchObject({ status: 'completed', output: 'a b c d e f g h' });

    const second = await call(`/v1/sessions/${id}/messages`, { method: 'POST', json: { content: 'more letters' } });
    const busy = await call(`/v1/sessions/${id}/messages`, { method: 'POST', json: { content: 'and more' } });
    expect(busy.status).toBe(409);
    expect(await busy.json()).toMatchObject({ error: { code: 'session_busy' } });
    const events = await readSse(second, (e) => {
      if (e.event === 'delta') void call(`/v1/sessions/${id}/cancel`, { method: 'POST' });
      return e.event === 'done';
    });
    expect(events.at(-1)!.data.status).toBe('cancelled');
    expect(events.map((e) => e.data.content ?? '').join('')).not.toContain('x y z');
    const shown = (await (await call(`/v1/sessions/${id}`)).json()) as any;
    expect(shown.status).toBe('cancelled');
    expect(await (await call(`/v1/sessions/${id}/cancel`, { method: 'POST' })).json()).toEqual({ cancelled: false });
  });
});

describe('adk serve: edges found in review', () => {
  it('a store that cannot be reached is 503 with its code (send again later), not a 500', async () => {
    const { call, stores } = await serve([]);
    const { StoreError } = await import('../../src/core/store/errors.js');
    stores.sessions.list = async () => {
      throw new StoreError('store_unavailable', 'cannot reach redis store redis://127.0.0.1:6379: connection lost', 'redis://127.0.0.1:6379');
    };
    const res = await call('/v1/sessions');
    expect(res.status).toBe(503);
    expect(((await res.json()) as any).error.code).toBe('store_unavailable');
  });

  it('a malformed Authorization header is a 400 or 401, not a 500', async () => {
    const { call } = await serve([], { token: 'tok-123456' });
    for (const authorization of ['Bearer', 'Basic dXNlcjpwYXNz', 'Bearer tok-123456 extra', 'bearer\ttok']) {
      const res = await call('/v1/agents', { headers: { authorization } });
      expect([400, 401], authorization).toContain(res.status);
    }
  });

  it('a Last-Event-ID from before a restart (beyond the last id) replays what is kept instead of waiting for ids to catch up', async () => {
    const { call, newSession } = await serve([{ content: 'after the restart' }]);
    const id = await newSession();
    const turn = await readSse(await call(`/v1/sessions/${id}/messages`, { method: 'POST', json: { content: 'hi' } }));
    const seen = await readSse(await call(`/v1/sessions/${id}/events`, { headers: { 'last-event-id': '5000' } }), (e) => e.event === 'done');
    expect(seen).toEqual(turn);
  });

  it('bound to another loopback address, the page and API answer to that Host', async () => {
    const { server } = await serve([], { host: '127.0.0.2', unauthenticated: 'opt-out' });
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${server.url}/v1/agents`, (res) => (res.resume(), resolve(res.statusCode ?? 0)));
      req.on('error', reject).end();
    });
    expect(server.url).toContain('127.0.0.2');
    expect(status).toBe(200);
  });

  it("a turn's stream sends keep-alive comments while the model is quiet", async () => {
    const { call, newSession } = await serve([{ content: 'late', delayMs: 400 }], { heartbeatMs: 50 });
    const id = await newSession();
    const res = await call(`/v1/sessions/${id}/messages`, { method: 'POST', json: { content: 'hi' } });
    const text = await res.text();
    expect(text.match(/^: keep-alive$/gm)?.length ?? 0).toBeGreaterThanOrEqual(3);
    expect(text).toContain('event: done');
  });

  it('shutdown is bounded: a tool that ignores cancellation does not keep the server from closing', async () => {
    const stuck: Tool<Record<string, never>> = { name: 'stuck', description: 'never ends', parameters: z.object({}), execute: () => new Promise(() => {}) };
    const { server, call, newSession } = await serve([{ toolCalls: [{ name: 'stuck', arguments: {} }] }], { tools: [stuck] });
    const id = await newSession();
    const res = await call(`/v1/sessions/${id}/messages`, { method: 'POST', json: { content: 'go' } });
    await readSse(res, (e) => e.event === 'tool_call');
    open.splice(open.findIndex((o) => o.server === server), 1);
    const started = Date.now();
    await server.close({ cancel: true });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('a session left idle is let go (its lease and team) and opened again on its next use', async () => {
    const { call, newSession, stores } = await serve([{ content: 'first' }, { content: 'second' }], { idleMs: 100 });
    const id = await newSession();
    const json = { 'content-type': 'application/json', accept: 'application/json' };
    expect(await (await call(`/v1/sessions/${id}/messages`, { method: 'POST', headers: json, body: JSON.stringify({ content: 'one' }) })).json()).toMatchObject({ output: 'first' });
    // Held while used: another process is refused.
    const agent = new ChatModelAgent({ name: 'assistant', description: 'helps', model: new ScriptedChatModel([]) });
    await expect(Conversation.load({ agent, stores }, id)).rejects.toThrow(/in use/);
    await new Promise((r) => setTimeout(r, 400));
    const other = await Conversation.load({ agent, stores }, id);
    await other.close();
    expect(await (await call(`/v1/sessions/${id}/messages`, { method: 'POST', headers: json, body: JSON.stringify({ content: 'two' }) })).json()).toMatchObject({ output: 'second' });
    const shown = (await (await call(`/v1/sessions/${id}`)).json()) as { messages: Array<{ content: string }> };
    expect(shown.messages.map((m) => m.content)).toEqual(['one', 'first', 'two', 'second']);
  });

  it('"always" approves the call and lets the tool run without asking for the rest of the session', async () => {
    const { call, newSession } = await serve([
      { toolCalls: [{ name: 'touch', arguments: { name: 'a' } }] },
      { content: 'made a' },
      { toolCalls: [{ name: 'touch', arguments: { name: 'b' } }] },
      { content: 'made b' },
    ]);
    const id = await newSession();
    const json = { 'content-type': 'application/json', accept: 'application/json' };
    const first = (await (await call(`/v1/sessions/${id}/messages`, { method: 'POST', headers: json, body: JSON.stringify({ content: 'a' }) })).json()) as any;
    expect(first.status).toBe('interrupted');
    const bad = await call(`/v1/sessions/${id}/interrupts`, { method: 'POST', headers: json, body: JSON.stringify({ always: ['nope'] }) });
    expect(bad.status).toBe(400);
    const answered = (await (await call(`/v1/sessions/${id}/interrupts`, { method: 'POST', headers: json, body: JSON.stringify({ always: [first.interrupts[0].id] }) })).json()) as any;
    expect(answered).toMatchObject({ status: 'completed', output: 'made a' });
    const second = (await (await call(`/v1/sessions/${id}/messages`, { method: 'POST', headers: json, body: JSON.stringify({ content: 'b' }) })).json()) as any;
    expect(second).toMatchObject({ status: 'completed', output: 'made b' });
    expect(ran).toEqual(['a', 'b']);
  });

  it("--cors answers the preflight of each named origin (repeatable), with the headers DeerFlow's front end sends; other origins get no grant", async () => {
    const { server } = await serve([], { corsOrigins: ['http://localhost:3000', 'http://localhost:5173'] });
    const preflight = (origin: string) =>
      fetch(`${server.url}/api/chat/stream`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,cache-control' },
      });
    const ok = await preflight('http://localhost:3000');
    expect(ok.status).toBeLessThan(300);
    expect(ok.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    const allowed = (ok.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/\s*,\s*/);
    expect(allowed).toEqual(expect.arrayContaining(['content-type', 'cache-control', 'authorization', 'last-event-id']));
    // Issue 43, item 10: a second --cors replaced the first; both now count.
    expect((await preflight('http://localhost:5173')).headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    const other = await preflight('http://evil.example');
    expect(other.headers.get('access-control-allow-origin')).not.toBe('http://evil.example');
  });
});
