import type { Context, Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { AsyncQueue } from '../../../core/async-queue.js';
import type { JsonEvent } from '../../../core/conversation/json-events.js';
import { jsonEventText } from '../../../core/conversation/json-events.js';
import type { PendingInterrupt } from '../../../core/store/session-record.js';
import { UnknownSessionError, type ServedHub, type ServedSession, type SessionEvent, type TurnStep } from '../../served-session.js';
import { ChatStreamBody, lastUserText, runOptions, type ChatStreamRequest } from './request.js';
import type { DeerFlowRole } from './roles.js';
import { DeerFlowThreads } from './threads.js';
import { DeerFlowTranslator, type DeerFlowEvent } from './translator.js';
import { budgetAnswer } from '../../../core/conversation/answers.js';

/**
 * DeerFlow 1.x's chat protocol (bytedance/deer-flow, branch main-1.x: `POST /api/chat/stream`,
 * `GET /api/config`), so its unmodified web front end drives an adk team: the research team by
 * default, its agents shown under DeerFlow's roles.
 */
export interface DeerFlowOptions {
  /** The root agent a new thread runs (default `research`). */
  agent?: string | undefined;
  /** The model names shown in the front end's settings. */
  models?: string[] | undefined;
  /** adk agent name → DeerFlow role; unlisted names are matched by what they contain. */
  roles?: Record<string, DeerFlowRole> | undefined;
  /**
   * `mcp_settings` in a request may add MCP servers (DeerFlow's ENABLE_MCP_SERVER_CONFIGURATION):
   * off, the request is refused with 403 as DeerFlow refuses it.
   */
  allowRequestMcp?: boolean | undefined;
}

const bad = (c: Context, message: string, path?: string) => c.json({ error: { code: 'invalid_body', message, ...(path ? { path } : {}) } }, 400);

/** Adds DeerFlow's endpoints to the app. */
export function addDeerFlowRoutes(app: Hono, hub: ServedHub, o: DeerFlowOptions & { secrets: readonly string[] }): void {
  const rootAgent = o.agent ?? 'research';
  const threads = new DeerFlowThreads(hub.stores);

  app.get('/api/config', (c) => c.json({ rag: { provider: null }, models: { basic: o.models ?? [], reasoning: [] } }));

  app.post('/api/chat/stream', async (c) => {
    let raw: unknown;
    try {
      raw = JSON.parse(await c.req.text());
    } catch (e) {
      return c.json({ error: { code: 'invalid_json', message: `the body is not valid JSON: ${(e as Error).message}` } }, 400);
    }
    const parsed = ChatStreamBody.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return bad(c, `${issue.path.join('.')}: ${issue.message}`, issue.path.join('.'));
    }
    const body = parsed.data;
    if (body.mcp_settings && Object.keys(body.mcp_settings).length && !o.allowRequestMcp) {
      return c.json({ detail: 'MCP server configuration is disabled: MCP servers come from agents.yaml in a trusted folder (adk trust), not from requests.' }, 403);
    }
    const text = lastUserText(body.messages);
    // Nothing is created for a request that could not start anything.
    const known = await knownSession(body.thread_id);
    if (!known && !text) return bad(c, 'messages: no user message to send', 'messages');
    const thread = known ? body.thread_id : DeerFlowThreads.mint(body.thread_id);
    const live = known ?? (await newThread(thread));
    const record = await live.record();
    const pending = (await live.busy()) ? [] : record.pendingInterrupts;
    const translate = new DeerFlowTranslator({
      thread,
      idPrefix: `${thread}-${await threads.nextRequest(thread)}`,
      roles: { [rootAgent]: 'coordinator', ...o.roles },
      title: () => record.title || record.messages.find((m) => m.role === 'user')?.content || text,
      reasoning: body.enable_deep_thinking,
      maxSteps: body.max_step_num,
    });
    const options = runOptions(body);
    if (pending.length) {
      const feedback = body.interrupt_feedback ?? undefined;
      // Deer-Go's human node: a message that is neither `accepted` nor `edit_plan` is asked again.
      if (!feedback) return reask(c, translate, pending);
      return stream(c, live, translate, { targets: answers(pending, feedback, text.replace(/^\[[a-z_]+\]\s*/i, '')), options });
    }
    if (!text) return bad(c, 'messages: no user message to send', 'messages');
    return stream(c, live, translate, { content: text, options });
  });

  /** The session a thread is mapped to, if it still exists (a thread whose session was deleted starts afresh). */
  async function knownSession(thread: string): Promise<ServedSession | undefined> {
    const id = thread === '__default__' ? undefined : await threads.session(thread);
    if (!id) return undefined;
    return hub.get(id).catch((e: unknown) => {
      if (e instanceof UnknownSessionError) return undefined;
      throw e;
    });
  }

  async function newThread(thread: string): Promise<ServedSession> {
    const live = await hub.create({ agent: rootAgent });
    await threads.bind(thread, live.id);
    return live;
  }

  function write(sse: { writeSSE(m: { event: string; data: string }): Promise<void> }, out: DeerFlowEvent) {
    return sse.writeSSE({ event: out.event, data: jsonEventText(out.data as JsonEvent, o.secrets) });
  }

  /** The waiting questions again, nothing run (the thread stays where it was). */
  function reask(c: Context, translate: DeerFlowTranslator, pending: readonly PendingInterrupt[]) {
    return streamSSE(c, async (sse) => {
      for (const p of pending) for (const out of translate.interrupt(p, true)) await write(sse, out);
    });
  }

  async function stream(c: Context, live: ServedSession, translate: DeerFlowTranslator, first: TurnStep) {
    const queue = new AsyncQueue<SessionEvent>();
    const unsubscribe = await live.subscribe((e) => queue.push(e));
    try {
      await live.start(first);
    } catch (e) {
      unsubscribe();
      throw e;
    }
    // DeerFlow's Stop aborts the page's fetch: the turn stops with it (saved cancelled), so the next
    // message is answered rather than refused as busy (which the page would swallow).
    let ended = false;
    return streamSSE(c, async (sse) => {
      sse.onAbort(() => {
        queue.close();
        if (!ended) void live.cancel().catch(() => {});
      });
      try {
        for await (const { event } of queue) {
          for (const out of translate.next(event)) await write(sse, out);
          if (event.type === 'done') {
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

function answers(pending: readonly PendingInterrupt[], feedback: string, text: string): Record<string, unknown> {
  const accepted = feedback === 'accepted';
  const targets: Record<string, unknown> = {};
  for (const p of pending) {
    if (p.kind === 'plan_review') targets[p.id] = accepted ? { accept: true } : { accept: false, feedback: text || 'Please revise the plan.' };
    else if (p.kind === 'approval') targets[p.id] = accepted ? { approved: true } : { approved: false, reason: text || undefined };
    // A reached budget: accepted raises it (twice the limit), a number sets it, anything else stops the run there.
    else if (p.kind === 'budget') targets[p.id] = deerflowBudget(p, accepted ? 'yes' : text);
    else targets[p.id] = text;
  }
  return targets;
}

function deerflowBudget(p: PendingInterrupt, reply: string): unknown {
  try {
    return budgetAnswer(p, reply);
  } catch {
    return { stop: true };
  }
}
