import { describe, expect, it } from 'vitest';
import { AGENTS_FILE, TOKEN, useServedApp } from './served-app.js';
import { SessionEventSchema, SessionListSchema, SessionViewSchema, TurnResultSchema } from '../../src/serve/schemas.js';
import { readSse } from './sse.js';

// Issue 34: the rough edges of the served API, each reproduced here before it was fixed.
const serve = useServedApp();

type Doc = { servers?: unknown[]; paths: Record<string, Record<string, any>>; components: { schemas?: Record<string, unknown> } };
const operations = (doc: Doc) =>
  Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).filter(([method]) => ['get', 'post', 'delete'].includes(method)).map(([method, op]) => ({ path, method, op })));

describe('the served API, finished (issue 34)', () => {
  it('/openapi.json: every success response has a schema, events are typed, every operation has an operationId, and servers are named', async () => {
    const { call } = await serve([]);
    const doc = (await (await call('/openapi.json')).json()) as Doc;
    expect(doc.servers?.length).toBeGreaterThan(0);
    const ids = new Set<string>();
    for (const { path, method, op } of operations(doc)) {
      expect(op.operationId, `${method} ${path}`).toMatch(/^[a-z][A-Za-z]+$/);
      ids.add(op.operationId);
      for (const [status, res] of Object.entries<any>(op.responses)) {
        if (!status.startsWith('2') || status === '204') continue;
        const content = Object.entries<any>(res.content ?? {});
        expect(content.length, `${method} ${path} ${status}`).toBeGreaterThan(0);
        for (const [type, media] of content) {
          const schema = JSON.stringify(media.schema ?? {});
          // A schema that names nothing (`{type: object}`, a bare string) types nothing.
          expect(schema, `${method} ${path} ${status} ${type}`).toMatch(/"\$ref"|"properties"/);
        }
      }
    }
    expect(ids.size).toBe(operations(doc).length);
    // The new session's id is typed; SSE data are the event union.
    expect(JSON.stringify(doc.paths['/v1/sessions']!.post.responses['201'])).toContain('#/components/schemas/SessionCreated');
    expect(doc.components.schemas!.SessionCreated).toMatchObject({ required: ['id'], properties: { id: { type: 'string' } } });
    const event = doc.components.schemas!.SessionEvent as { oneOf: Array<{ $ref: string }> };
    expect(event.oneOf.length).toBeGreaterThanOrEqual(12);
  });

  it('POST /cancel with no body and no content type is taken (202), as the spec declares no body; a text/plain body is still refused', async () => {
    const { server, call, newSession } = await serve([]);
    const id = await newSession();
    const bare = await call(`/v1/sessions/${id}/cancel`, { method: 'POST' });
    expect(bare.status).toBe(202);
    expect(await bare.json()).toEqual({ cancelled: false });
    // The same with the token in the path, as front ends that cannot send a header do.
    expect((await fetch(`${server.url}/t/${TOKEN}/v1/sessions/${id}/cancel`, { method: 'POST' })).status).toBe(202);
    // Only /cancel goes without a body: the other POSTs still want JSON.
    expect((await call(`/v1/sessions/${id}/interrupts`, { method: 'POST' })).status).toBe(415);
    expect((await call(`/v1/sessions/${id}/cancel`, { method: 'POST', body: 'x', headers: { 'content-type': 'text/plain' } })).status).toBe(415);
  });

  it('one status vocabulary: the list and the session say the same word, idle → running → cancelled; a cancelled turn said to be resumable resumes through /interrupts', async () => {
    const { call, newSession } = await serve([{ content: 'a b c d e f g h i j k l m n o p', chunkDelayMs: 80 }, { content: 'resumed to the end' }]);
    const id = await newSession();
    const both = async () => {
      const list = SessionListSchema.parse(await (await call('/v1/sessions')).json());
      const one = SessionViewSchema.parse(await (await call(`/v1/sessions/${id}`)).json());
      return { listed: list.sessions.find((s) => s.id === id)!, one };
    };
    let s = await both();
    expect([s.listed.status, s.one.status]).toEqual(['idle', 'idle']);
    const res = await call(`/v1/sessions/${id}/messages`, { method: 'POST', json: { content: 'letters' } });
    let seen = false;
    const events = await readSse(res, (e) => {
      if (e.event === 'delta' && !seen) {
        seen = true;
        void both().then((now) => {
          s = now;
          return call(`/v1/sessions/${id}/cancel`, { method: 'POST' });
        });
      }
      return e.event === 'done';
    });
    expect([s.listed.status, s.one.status]).toEqual(['running', 'running']);
    expect(events.at(-1)!.data.status).toBe('cancelled');
    s = await both();
    expect([s.listed.status, s.one.status]).toEqual(['cancelled', 'cancelled']);
    expect([s.listed.resumable, s.one.resumable]).toEqual([true, true]);
    const resumed = await call(`/v1/sessions/${id}/interrupts`, { method: 'POST', json: {}, headers: { accept: 'application/json' } });
    expect(resumed.status).toBe(200);
    expect(TurnResultSchema.parse(await resumed.json())).toMatchObject({ status: 'completed' });
    s = await both();
    expect([s.listed.status, s.one.status, s.one.resumable]).toEqual(['completed', 'completed', false]);
  });

  it('an unknown agent names the agents file, never its absolute path on the server', async () => {
    const { call } = await serve([]);
    const res = await call('/v1/sessions', { method: 'POST', json: { agent: 'ghost' } });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('unknown_agent');
    expect(body.error.message).toContain("agent 'ghost'");
    expect(body.error.message).toContain('agents.yaml');
    expect(body.error.message).not.toContain(AGENTS_FILE);
    expect(body.error.message).not.toContain(process.cwd());
  });

  it('every event of a turn with a tool call, an approval and its answer fits the SessionEvent schema', async () => {
    const { call, newSession } = await serve([{ content: 'I will.', toolCalls: [{ id: 'c1', name: 'touch', arguments: { name: 'a.txt' } }] }, { content: 'Made it.' }]);
    const id = await newSession();
    const first = await readSse(await call(`/v1/sessions/${id}/messages`, { method: 'POST', json: { content: 'make a.txt' } }));
    const second = await readSse(await call(`/v1/sessions/${id}/interrupts`, { method: 'POST', json: { approve: [] } }));
    const all = [...first, ...second];
    expect(all.map((e) => e.event)).toEqual(expect.arrayContaining(['session', 'delta', 'message', 'tool_call', 'interrupt', 'tool_result', 'done']));
    for (const e of all) expect(SessionEventSchema.safeParse(e.data).error, JSON.stringify(e.data)).toBeUndefined();
  });
});
