import type { BaseEvent } from '@ag-ui/core';
import type { Context, Hono } from 'hono';
import { stream as honoStream } from 'hono/streaming';
import { AsyncQueue } from '../../../core/async-queue.js';
import { redactJsonText } from '../../../core/store/redact.js';
import { UnknownSessionError, type ServedHub, type ServedSession, type SessionEvent, type TurnStep } from '../../served-session.js';
import { lastUserText, ResumeError, resumeTargets, RunAgentInputBody } from './input.js';
import { AgUiThreads } from './threads.js';
import { AgUiTranslator } from './translator.js';

export interface AgUiOptions {
  secrets: readonly string[];
}

const bad = (c: Context, status: 400 | 404 | 409, code: string, message: string) => c.json({ error: { code, message } }, status);

/**
 * AG-UI (docs.ag-ui.com): `POST /ag-ui/:agent` takes a `RunAgentInput` and streams the run as AG-UI
 * events. The thread is an adk session; a run that stops for a person ends with RUN_FINISHED's
 * interrupt outcome, and the next run answers it in `resume` (AG-UI's human-in-the-loop flow).
 */
export function addAgUiRoutes(app: Hono, hub: ServedHub, o: AgUiOptions): void {
  const threads = new AgUiThreads(hub.stores);

  app.post('/ag-ui/:agent', async (c) => {
    // An agent the file does not have fails in hub.create (400 unknown_agent); a known thread keeps its own.
    const agent = c.req.param('agent');
    let raw: unknown;
    try {
      raw = JSON.parse(await c.req.text());
    } catch (e) {
      return bad(c, 400, 'invalid_json', `the body is not valid JSON: ${(e as Error).message}`);
    }
    const parsed = RunAgentInputBody.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return bad(c, 400, 'invalid_body', `${issue.path.join('.')}: ${issue.message}`);
    }
    const input = parsed.data;
    const known = await knownSession(input.threadId);
    const text = lastUserText(input.messages);
    let step: TurnStep;
    let live: ServedSession;
    if (input.resume?.length) {
      if (!known) return bad(c, 409, 'no_interrupts', `thread ${input.threadId} has no run waiting on interrupts`);
      const r = await known.record();
      if ((await known.busy()) || !r.pendingInterrupts.length) return bad(c, 409, 'no_interrupts', `thread ${input.threadId} has no pending interrupts (status: ${r.status})`);
      try {
        step = { targets: resumeTargets(r.pendingInterrupts, input.resume) };
      } catch (e) {
        if (e instanceof ResumeError) return bad(c, 400, 'invalid_resume', e.message);
        throw e;
      }
      live = known;
    } else {
      if (!text) return bad(c, 400, 'invalid_body', 'messages: no user message to send');
      if (known) {
        const r = await known.record();
        if (!(await known.busy()) && r.status === 'interrupted' && r.pendingInterrupts.length) {
          return bad(c, 409, 'interrupts_pending', `thread ${input.threadId} waits on ${r.pendingInterrupts.length} interrupt(s): answer them in \`resume\``);
        }
      }
      live = known ?? (await newThread(input.threadId, agent));
      step = { content: text };
    }
    const record = await live.record();
    const translate = new AgUiTranslator({ threadId: input.threadId, runId: input.runId, idPrefix: `${input.runId}`, agent: record.rootAgent, todos: record.todos ?? [] });
    return run(c, live, translate, step);
  });

  async function knownSession(thread: string): Promise<ServedSession | undefined> {
    const id = await threads.session(thread);
    if (!id) return undefined;
    return hub.get(id).catch((e: unknown) => {
      if (e instanceof UnknownSessionError) return undefined;
      throw e;
    });
  }

  async function newThread(thread: string, agent: string): Promise<ServedSession> {
    const live = await hub.create({ agent, title: `AG-UI ${thread}`.slice(0, 200) });
    await threads.bind(thread, live.id);
    return live;
  }

  async function run(c: Context, live: ServedSession, translate: AgUiTranslator, step: TurnStep) {
    const queue = new AsyncQueue<SessionEvent>();
    const unsubscribe = await live.subscribe((e) => queue.push(e));
    try {
      await live.start(step);
    } catch (e) {
      unsubscribe();
      throw e;
    }
    // AG-UI's SSE framing (what @ag-ui/encoder's encodeSSE writes; it is not bundled, as it loads zod
    // whole). Secrets (API keys, the token) never reach a client, as in adk's own event stream.
    const write = (s: { write(t: string): Promise<unknown> }, e: BaseEvent) => s.write(`data: ${redactJsonText(JSON.stringify(e), o.secrets)}\n\n`);
    c.header('content-type', 'text/event-stream');
    c.header('cache-control', 'no-cache');
    // The client going away mid-turn stops it (AG-UI's abortRun, CopilotKit's Stop: AG-UI has no other
    // cancel): saved cancelled, so the thread's next message is answered, not refused as busy.
    let ended = false;
    return honoStream(c, async (s) => {
      s.onAbort(() => {
        queue.close();
        if (!ended) void live.cancel().catch(() => {});
      });
      try {
        for (const e of translate.start()) await write(s, e);
        for await (const { event } of queue) {
          for (const e of translate.next(event)) await write(s, e);
          if (event.type === 'done' || translate.ended) {
            ended = true;
            break;
          }
        }
      } finally {
        unsubscribe();
      }
    });
  }
}
