import type { Context, Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import * as z from 'zod';
import { AsyncQueue } from '../core/async-queue.js';
import type { JsonEvent } from '../core/conversation/json-events.js';
import { jsonEventText } from '../core/conversation/json-events.js';
import { UnknownSessionError, type ServedHub, type ServedSession, type SessionEvent, type TurnStep } from './served-session.js';

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
}

export type DeerFlowRole = 'coordinator' | 'planner' | 'researcher' | 'coder' | 'reporter';

const ChatStreamBody = z.looseObject({
  messages: z.array(z.looseObject({ role: z.string().optional(), content: z.union([z.string(), z.array(z.unknown())]) })).default([]),
  thread_id: z.string().min(1).default('__default__'),
  auto_accepted_plan: z.boolean().optional(),
  interrupt_feedback: z.string().optional(),
});

const THREAD_KEY = (thread: string) => `deerflow-thread:${thread}`;
const PLAN_OPTIONS = [
  { text: 'Edit plan', value: 'edit_plan' },
  { text: 'Start research', value: 'accepted' },
];

/** Maps adk agent names to DeerFlow's roles (coordinator, planner, researcher, coder, reporter). */
export function deerflowRole(agent: string, roles: Record<string, DeerFlowRole> = {}): DeerFlowRole {
  if (roles[agent]) return roles[agent];
  if (/plan/.test(agent)) return 'planner';
  if (/report|writ/.test(agent)) return 'reporter';
  if (/research|search|web|file/.test(agent)) return 'researcher';
  if (/cod|exec|engineer/.test(agent)) return 'coder';
  return 'coordinator';
}

/** DeerFlow's plan card: `{title, thought, steps: [{title, description}]}` from a plan_review interrupt. */
export function deerflowPlan(steps: readonly string[], title: string, thought: string) {
  return {
    locale: 'en-US',
    has_enough_context: false,
    title,
    thought,
    steps: steps.map((s) => {
      const cut = s.search(/[:.]\s/);
      return { need_search: true, step_type: 'research', title: cut > 0 ? s.slice(0, cut) : s, description: s };
    }),
  };
}

/** Adds DeerFlow's endpoints to the app. */
export function addDeerFlowRoutes(app: Hono, hub: ServedHub, o: DeerFlowOptions & { secrets: readonly string[] }): void {
  const rootAgent = o.agent ?? 'research';

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
      return c.json({ error: { code: 'invalid_body', message: `${issue.path.join('.')}: ${issue.message}`, path: issue.path.join('.') } }, 400);
    }
    const body = parsed.data;
    const text = lastUserText(body.messages);
    // Nothing is created for a request that could not start anything.
    const known = await knownSession(body.thread_id);
    if (!known && !text) return c.json({ error: { code: 'invalid_body', message: 'messages: no user message to send', path: 'messages' } }, 400);
    const live = known ?? (await newThread(body.thread_id));
    const thread = body.thread_id === '__default__' ? live.id : body.thread_id;
    const pending = (await live.record()).pendingInterrupts;
    let step: TurnStep;
    if (pending.length && !(await live.busy())) {
      // The person answers the plan: `accepted`, or `edit_plan` with what to change.
      const feedback = body.interrupt_feedback ?? (/^\[?accepted\]?$/i.test(text.trim()) ? 'accepted' : 'edit_plan');
      step = { targets: answers(pending, feedback, text.replace(/^\[[a-z_]+\]\s*/i, '')) };
    } else {
      if (!text) return c.json({ error: { code: 'invalid_body', message: 'messages: no user message to send', path: 'messages' } }, 400);
      step = { content: text };
    }
    return stream(c, live, thread, step, body.auto_accepted_plan ?? false);
  });

  /** The session a thread is mapped to, if it still exists (a thread whose session was deleted starts afresh). */
  async function knownSession(thread: string): Promise<ServedSession | undefined> {
    const id = thread === '__default__' ? undefined : await hub.stores.kv.get(THREAD_KEY(thread));
    if (!id) return undefined;
    return hub.get(id).catch((e: unknown) => {
      if (e instanceof UnknownSessionError) return undefined;
      throw e;
    });
  }

  async function newThread(thread: string): Promise<ServedSession> {
    const live = await hub.create({ agent: rootAgent });
    if (thread !== '__default__') await hub.stores.kv.set(THREAD_KEY(thread), live.id);
    return live;
  }

  async function stream(c: Context, live: ServedSession, thread: string, first: TurnStep, autoAccept: boolean) {
    const queue = new AsyncQueue<SessionEvent>();
    const unsubscribe = await live.subscribe((e) => queue.push(e));
    const r = await live.record();
    const title = r.title || r.messages.find((m) => m.role === 'user')?.content || ('content' in first ? first.content : '');
    // The team's root is DeerFlow's coordinator, whatever its name ('research' is not a researcher).
    const translate = new DeerFlowTranslator(thread, { [rootAgent]: 'coordinator', ...o.roles }, () => title);
    try {
      await live.start(first);
    } catch (e) {
      unsubscribe();
      throw e;
    }
    return streamSSE(c, async (sse) => {
      sse.onAbort(() => queue.close());
      try {
        for await (const { event } of queue) {
          for (const out of translate.next(event)) await sse.writeSSE({ event: out.event, data: jsonEventText(out.data as JsonEvent, o.secrets) });
          if (event.type !== 'done') continue;
          const pending = (await live.record()).pendingInterrupts;
          // `auto_accepted_plan`: the plan is accepted on the person's behalf and the run goes on.
          if (autoAccept && event.status === 'interrupted' && pending.length && pending.every((p) => p.kind === 'plan_review')) {
            await live.start({ targets: answers(pending, 'accepted', '') });
            continue;
          }
          break;
        }
      } finally {
        unsubscribe();
      }
    });
  }
}

function answers(pending: ReadonlyArray<{ id: string; kind: string }>, feedback: string, text: string): Record<string, unknown> {
  const accepted = feedback === 'accepted';
  const targets: Record<string, unknown> = {};
  for (const p of pending) {
    if (p.kind === 'plan_review') targets[p.id] = accepted ? { accept: true } : { accept: false, feedback: text || 'Please revise the plan.' };
    else if (p.kind === 'approval') targets[p.id] = accepted ? { approved: true } : { approved: false, reason: text || undefined };
    else targets[p.id] = text;
  }
  return targets;
}

function lastUserText(messages: ReadonlyArray<{ role?: string | undefined; content: unknown }>): string {
  const m = [...messages].reverse().find((x) => (x.role ?? 'user') === 'user');
  if (!m) return '';
  if (typeof m.content === 'string') return m.content;
  return (m.content as Array<{ text?: unknown } | null>).map((p) => (p && typeof p.text === 'string' ? p.text : '')).join('');
}

/** adk's run events (as `adk run --json` has them) → DeerFlow's SSE events. */
/** Calls DeerFlow shows otherwise: the plan review as the plan card, hand-overs as the next agent speaking. */
const HIDDEN_TOOLS = new Set(['review_plan', 'transfer_to_agent']);

export class DeerFlowTranslator {
  private seq = 0;
  private readonly open = new Map<string, string>();
  private readonly hidden = new Set<string>();

  constructor(
    private readonly thread: string,
    private readonly roles: Record<string, DeerFlowRole> | undefined,
    private readonly title: () => string,
  ) {}

  next(e: JsonEvent): Array<{ event: string; data: unknown }> {
    const agent = String(e.agent ?? '');
    // DeerFlow reads every planner message as its plan JSON: the planner speaks only through the
    // plan card made from its review (its own words, e.g. the plan restated once accepted, are not shown).
    if ((e.type === 'delta' || e.type === 'thought' || e.type === 'message') && deerflowRole(agent, this.roles) === 'planner') return [];
    const base = () => ({ thread_id: this.thread, agent: deerflowRole(agent, this.roles), id: this.messageId(agent), role: 'assistant' });
    switch (e.type) {
      case 'delta':
        return [{ event: 'message_chunk', data: { ...base(), content: e.content } }];
      case 'thought':
        return [{ event: 'message_chunk', data: { ...base(), content: '', reasoning_content: e.content } }];
      case 'message': {
        // The end of a streamed message; a message not streamed comes whole; one with nothing to
        // show (only a hidden call: the hand-over, the plan review) is not a message in DeerFlow.
        const streamed = this.open.has(agent);
        const content = String(e.content ?? '');
        if (!streamed && !content) return [];
        const out = [
          ...(streamed ? [] : [{ event: 'message_chunk', data: { ...base(), content } }]),
          { event: 'message_chunk', data: { ...base(), content: '', finish_reason: 'stop' } },
        ];
        this.open.delete(agent);
        return out;
      }
      case 'tool_call': {
        // The plan is shown as the planner's plan card, not as a tool call.
        if (HIDDEN_TOOLS.has(String(e.name))) {
          this.hidden.add(String(e.id));
          return [];
        }
        const args = e.arguments ?? {};
        return [
          {
            event: 'tool_calls',
            data: {
              ...base(),
              content: '',
              finish_reason: 'tool_calls',
              tool_calls: [{ name: e.name, args, id: e.id, type: 'tool_call' }],
              tool_call_chunks: [{ name: e.name, args: JSON.stringify(args), id: e.id, index: 0, type: 'tool_call_chunk' }],
            },
          },
        ];
      }
      case 'tool_result':
        // (a continuation answers the review call made in an earlier request: hidden by name too)
        if (this.hidden.has(String(e.id)) || HIDDEN_TOOLS.has(String(e.name))) return [];
        return [{ event: 'tool_call_result', data: { ...base(), content: e.content, tool_call_id: e.id } }];
      case 'interrupt': {
        const out: Array<{ event: string; data: unknown }> = [];
        for (const i of (e.interrupts as Array<{ kind: string; plan?: string[]; message?: string; tool?: string; arguments?: unknown }>) ?? []) {
          if (i.kind === 'plan_review') {
            const plan = deerflowPlan(i.plan ?? [], this.title(), i.message ?? '');
            const id = `plan-${++this.seq}`;
            out.push({ event: 'message_chunk', data: { thread_id: this.thread, agent: 'planner', id, role: 'assistant', content: JSON.stringify(plan, null, 2) } });
            out.push({ event: 'message_chunk', data: { thread_id: this.thread, agent: 'planner', id, role: 'assistant', content: '', finish_reason: 'stop' } });
            out.push({ event: 'interrupt', data: { thread_id: this.thread, id: `interrupt-${this.seq}`, role: 'assistant', content: 'Please Review the Plan.', finish_reason: 'interrupt', options: PLAN_OPTIONS } });
          } else {
            const what = i.tool ? `${i.tool} ${JSON.stringify(i.arguments ?? {})}` : (i.message ?? 'a question');
            out.push({
              event: 'interrupt',
              data: { thread_id: this.thread, id: `interrupt-${++this.seq}`, role: 'assistant', content: `Approve ${what}?`, finish_reason: 'interrupt', options: [{ text: 'Approve', value: 'accepted' }, { text: 'Reject', value: 'rejected' }] },
            });
          }
        }
        return out;
      }
      case 'error':
        return [{ event: 'error', data: { thread_id: this.thread, error: e.message } }];
      default:
        return [];
    }
  }

  private messageId(agent: string): string {
    let id = this.open.get(agent);
    if (!id) {
      id = `run-${this.thread}-${++this.seq}`;
      this.open.set(agent, id);
    }
    return id;
  }
}
