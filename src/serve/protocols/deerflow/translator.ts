import type { JsonEvent } from '../../../core/conversation/json-events.js';
import { APPROVAL_OPTIONS, deerflowPlan, PLAN_OPTIONS } from './plan-card.js';
import { deerflowRole, type DeerFlowRole } from './roles.js';
import { planTextWithin } from '../../../core/prebuilt/research/plan.js';

export interface DeerFlowEvent {
  event: string;
  data: Record<string, unknown>;
}

/** Calls DeerFlow shows otherwise: plans as the plan card, hand-overs as the next agent speaking. */
const HIDDEN_TOOLS = new Set(['review_plan', 'transfer_to_agent', 'handoff_to_planner']);

/** One pending interrupt as adk's events carry it. */
export interface InterruptPoint {
  kind: string;
  plan?: string[] | undefined;
  message?: string | undefined;
  tool?: string | undefined;
  arguments?: unknown;
}

export interface TranslatorOptions {
  thread: string;
  /** Unique for the thread's life (its request number): every id this translator makes starts with it. */
  idPrefix: string;
  roles?: Record<string, DeerFlowRole> | undefined;
  /** The plan card's title when a plan comes without one. */
  title: () => string;
  /** `enable_deep_thinking`: the model's reasoning is streamed as `reasoning_content`. */
  reasoning: boolean;
  /**
   * `max_step_num`: the planner's words are held until its message ends and sent with the plan cut
   * to this many steps, so the plan card shows exactly the steps that will run (the page only appends chunks).
   */
  maxSteps?: number | undefined;
}

/** adk's run events (as `adk run --json` has them) → DeerFlow's SSE events, one request's worth. */
export class DeerFlowTranslator {
  private seq = 0;
  private readonly open = new Map<string, string>();
  private readonly hidden = new Set<string>();
  /** A plan card was streamed by the planner in this request (the review then needs none of its own). */
  private planStreamed = false;
  /** The planner's words held back until its message ends (maxSteps). */
  private planText = '';

  constructor(private readonly o: TranslatorOptions) {}

  next(e: JsonEvent): DeerFlowEvent[] {
    const agent = String(e.agent ?? '');
    const role = deerflowRole(agent, this.o.roles);
    // DeerFlow's background investigation only feeds the planner: the page shows nothing of it.
    if (role === 'background_investigator') return [];
    if (e.type === 'thought' && !this.o.reasoning) return [];
    const base = () => ({ thread_id: this.o.thread, agent: role, id: this.messageId(agent), role: 'assistant' });
    switch (e.type) {
      case 'delta':
        if (role === 'planner') this.planStreamed = true;
        if (role === 'planner' && this.o.maxSteps !== undefined) {
          this.planText += String(e.content ?? '');
          base(); // opens the message: its end is a streamed one's
          return [];
        }
        return [{ event: 'message_chunk', data: { ...base(), content: e.content } }];
      case 'thought':
        return [{ event: 'message_chunk', data: { ...base(), content: '', reasoning_content: e.content } }];
      case 'message': {
        // The end of a streamed message; a message not streamed comes whole; one with nothing to
        // show (only a hidden call) is not a message in DeerFlow.
        const held = role === 'planner' && this.o.maxSteps !== undefined;
        const streamed = this.open.has(agent) && !held;
        const content = held ? planTextWithin(String(e.content ?? '') || this.planText, this.o.maxSteps!) : String(e.content ?? '');
        this.planText = '';
        if (!streamed && !content) {
          this.open.delete(agent);
          return [];
        }
        if (role === 'planner') this.planStreamed = true;
        const out = [...(streamed ? [] : [{ event: 'message_chunk', data: { ...base(), content } }]), { event: 'message_chunk', data: { ...base(), content: '', finish_reason: 'stop' } }];
        this.open.delete(agent);
        return out;
      }
      case 'tool_call': {
        if (HIDDEN_TOOLS.has(String(e.name))) {
          this.hidden.add(String(e.id));
          return [];
        }
        const args = e.arguments ?? {};
        // A call ends the message that made it: the next words are a new message (as DeerFlow's ids go).
        const data = { ...base(), content: '', finish_reason: 'tool_calls', tool_calls: [{ name: e.name, args, id: e.id, type: 'tool_call' }], tool_call_chunks: [{ name: e.name, args: JSON.stringify(args), id: e.id, index: 0, type: 'tool_call_chunk' }] };
        this.open.delete(agent);
        return [{ event: 'tool_calls', data }];
      }
      case 'tool_result':
        if (this.hidden.has(String(e.id)) || HIDDEN_TOOLS.has(String(e.name))) return [];
        return [{ event: 'tool_call_result', data: { ...base(), content: e.content, tool_call_id: e.id } }];
      case 'interrupt':
        return ((e.interrupts as InterruptPoint[] | undefined) ?? []).flatMap((i) => this.interrupt(i));
      case 'error':
        return [{ event: 'error', data: { thread_id: this.o.thread, error: e.message } }];
      default:
        return [];
    }
  }

  /**
   * The `interrupt` event for a point, after a plan card when the planner did not stream one (a
   * `review_plan` call); `reask`: the point is asked again, its plan already on the page.
   */
  interrupt(i: InterruptPoint, reask = false): DeerFlowEvent[] {
    const out: DeerFlowEvent[] = [];
    const thread = this.o.thread;
    if (i.kind === 'plan_review') {
      if (!this.planStreamed && !reask) {
        const plan = deerflowPlan(i.plan ?? [], this.o.title(), i.message ?? '');
        const id = this.newId('plan');
        out.push({ event: 'message_chunk', data: { thread_id: thread, agent: 'planner', id, role: 'assistant', content: JSON.stringify(plan, null, 2) } });
        out.push({ event: 'message_chunk', data: { thread_id: thread, agent: 'planner', id, role: 'assistant', content: '', finish_reason: 'stop' } });
        this.planStreamed = true;
      }
      out.push({ event: 'interrupt', data: { thread_id: thread, id: this.newId('interrupt'), role: 'assistant', content: 'Please Review the Plan.', finish_reason: 'interrupt', options: PLAN_OPTIONS } });
      return out;
    }
    const what = i.tool ? `${i.tool} ${JSON.stringify(i.arguments ?? {})}` : (i.message ?? 'a question');
    out.push({ event: 'interrupt', data: { thread_id: thread, id: this.newId('interrupt'), role: 'assistant', content: `Approve ${what}?`, finish_reason: 'interrupt', options: APPROVAL_OPTIONS } });
    return out;
  }

  private newId(kind: string): string {
    return `${kind}-${this.o.idPrefix}-${++this.seq}`;
  }

  private messageId(agent: string): string {
    let id = this.open.get(agent);
    if (!id) {
      id = this.newId('run');
      this.open.set(agent, id);
    }
    return id;
  }
}
