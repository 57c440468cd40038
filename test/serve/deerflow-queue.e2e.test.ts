import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { scriptResearchModel, system } from '../support/research-model.js';
import { serveEnv, startServeProcess, startWorkerProcess, useRedisAndChildren } from './serve-process.js';
import { readSse, type SseEvent } from './sse.js';

// Issue 33: with a Redis store, DeerFlow's turns are BullMQ jobs run by `adk worker`; the request's
// settings travel in the signed job (TurnStep.options) and the worker runs the team with them.
const model = useServer();
const { redis: redisServer, children } = useRedisAndChildren();

const chat = (url: string, body: Record<string, unknown>) =>
  fetch(`${url}/api/chat/stream`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => readSse(r));
const speakers = (events: SseEvent[]) => [...new Set(events.filter((e) => e.event === 'message_chunk' && e.data.content).map((e) => `${e.data.agent}:${e.data.id}`))].map((s) => s.split(':')[0]);

describe('DeerFlow requests through adk worker (queue mode)', () => {
  it('auto_accepted_plan, max_step_num, report_style, the background switch and (on an answer) max_plan_iterations are honoured by the worker that runs the turn', async () => {
    const { requestsOf } = scriptResearchModel(model());
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'adk-dfq-')));
    const env = serveEnv(home, model().url, { ADK_STORE: redisServer().url });
    const worker = await startWorkerProcess(home, env, children);
    const { url } = await startServeProcess(home, env, children);

    const events = await chat(url, {
      messages: [{ role: 'user', content: 'why is the sky blue' }],
      thread_id: 't-queue',
      auto_accepted_plan: true,
      max_step_num: 1,
      report_style: 'news',
      enable_background_investigation: false,
    });
    // Accepted for the person: no review, and the plan cut to one step (the default plan has two).
    expect(events.some((e) => e.event === 'interrupt')).toBe(false);
    expect(speakers(events)).toEqual(['planner', 'researcher', 'reporter']);
    expect(events.filter((e) => e.data.agent === 'reporter').map((e) => e.data.content ?? '').join('')).toBe('# Report\n\nThe sky is blue.');
    expect(system(requestsOf('planner')[0]!.body)).toContain('plan at most 1 steps');
    expect(system(requestsOf('reporter')[0]!.body)).toMatch(/in the\s+news style/);
    expect(requestsOf('investigator')).toHaveLength(0);
    expect(requestsOf('coder')).toHaveLength(0);

    // An answer is a queued turn too: max_plan_iterations 0 sends the first edit to the reporter (the default, 1, would re-plan).
    const asked = await chat(url, { messages: [{ role: 'user', content: 'why is the sky blue' }], thread_id: 't-queue-2', max_plan_iterations: 0, enable_background_investigation: false });
    expect(asked.at(-1)!.event).toBe('interrupt');
    const edited = await chat(url, { messages: [{ role: 'user', content: 'more detail' }], thread_id: 't-queue-2', interrupt_feedback: 'edit_plan', max_plan_iterations: 0, enable_background_investigation: false });
    expect(requestsOf('planner')).toHaveLength(2);
    expect(speakers(edited)).toEqual(['reporter']);

    // The worker ran it, not serve (it logs the start before the turn's first event).
    expect(worker.log()).toMatch(/starting turn \S+ of session \S+/);
  }, 60_000);
});
