import type { BaseEvent, EventType, Interrupt } from '@ag-ui/core';
import type { JsonEvent } from '../../../core/conversation/json-events.js';

/**
 * An AG-UI event. Built here rather than with @ag-ui/core's values: that package loads zod whole
 * (every locale) into the CLI bundle; its types still check the names.
 */
const ev = (type: `${EventType}`, fields: Record<string, unknown> = {}): BaseEvent => ({ type, ...fields }) as unknown as BaseEvent;

/** One waiting interrupt as adk's `interrupt` event describes it. */
interface InterruptPoint {
  id: string;
  kind: string;
  message?: string;
  tool?: string;
  callId?: string;
  arguments?: unknown;
  diff?: string;
  plan?: string[];
  budget?: { name: string; spent: number; limit: number };
  data?: unknown;
}

/** What each interrupt kind expects back in `resume[].payload` (a form a front end can draw). */
const RESPONSE_SCHEMAS: Record<string, Record<string, unknown>> = {
  approval: {
    oneOf: [{ type: 'boolean' }, { type: 'object', properties: { approved: { type: 'boolean' }, reason: { type: 'string' }, editedArgs: { type: 'object' } }, required: ['approved'] }],
  },
  plan_review: {
    oneOf: [{ type: 'boolean' }, { type: 'object', properties: { accept: { type: 'boolean' }, feedback: { type: 'string' } }, required: ['accept'] }],
  },
  input: { type: 'string' },
  budget: {
    type: 'object',
    properties: { raise: { type: 'object', additionalProperties: { type: 'number', exclusiveMinimum: 0 } }, stop: { type: 'boolean' } },
  },
};

export interface AgUiTranslatorOptions {
  threadId: string;
  runId: string;
  /** Prefix of every message id this run makes (unique per run). */
  idPrefix: string;
  /** The root agent: the first step of the transfer path. */
  agent: string;
  /** Todos the session had when the run began (the first state snapshot). */
  todos: unknown[];
}

/**
 * adk's run events (as `adk run --json` has them) → AG-UI events for one run: text and reasoning as
 * start/content/end triples, tool calls with their results, the transfer path as steps, todos as
 * state, and the end as RUN_FINISHED (its outcome: success, interrupt or cancelled) or RUN_ERROR.
 */
export class AgUiTranslator {
  private seq = 0;
  private text?: { agent: string; id: string } | undefined;
  private reasoning?: { agent: string; id: string } | undefined;
  /** The last assistant message id per agent: a tool call's parent. */
  private lastMessage = new Map<string, string>();
  private step: string;
  private interrupts: Interrupt[] = [];
  private state: { agent: string; todos: unknown[] };
  ended = false;

  constructor(private readonly o: AgUiTranslatorOptions) {
    this.step = o.agent;
    this.state = { agent: o.agent, todos: o.todos };
  }

  /** RUN_STARTED, the first step, and the state the run starts from. */
  start(): BaseEvent[] {
    return [
      ev('RUN_STARTED', { threadId: this.o.threadId, runId: this.o.runId }),
      ev('STATE_SNAPSHOT', { snapshot: this.state }),
      ev('STEP_STARTED', { stepName: this.step }),
    ];
  }

  next(e: JsonEvent): BaseEvent[] {
    if (this.ended) return [];
    const agent = String(e.agent ?? this.step);
    switch (e.type) {
      case 'delta':
        return [...this.closeReasoning(), ...this.openText(agent), ev('TEXT_MESSAGE_CONTENT', { messageId: this.text!.id, delta: String(e.content ?? '') })];
      case 'thought':
        return [...this.closeText(), ...this.openReasoning(agent), ev('REASONING_MESSAGE_CONTENT', { messageId: this.reasoning!.id, delta: String(e.content ?? '') })];
      case 'message': {
        if (e.role !== 'assistant') return [];
        const out: BaseEvent[] = [];
        // Reasoning that came whole (not streamed as thoughts) is shown before the answer.
        if (e.reasoning && !this.reasoning && !this.text) out.push(...this.openReasoning(agent), ev('REASONING_MESSAGE_CONTENT', { messageId: this.reasoning!.id, delta: String(e.reasoning) }));
        out.push(...this.closeReasoning());
        const content = String(e.content ?? '');
        if (!this.text && content) out.push(...this.openText(agent), ev('TEXT_MESSAGE_CONTENT', { messageId: this.text!.id, delta: content }));
        out.push(...this.closeText());
        return out;
      }
      case 'tool_call': {
        const args = typeof e.arguments === 'string' ? e.arguments : JSON.stringify(e.arguments ?? {});
        const parent = this.lastMessage.get(agent);
        return [
          ...this.closeReasoning(),
          ...this.closeText(),
          ev('TOOL_CALL_START', { toolCallId: String(e.id), toolCallName: String(e.name), ...(parent ? { parentMessageId: parent } : {}) }),
          ev('TOOL_CALL_ARGS', { toolCallId: String(e.id), delta: args }),
          ev('TOOL_CALL_END', { toolCallId: String(e.id) }),
        ];
      }
      case 'tool_result':
        return [ev('TOOL_CALL_RESULT', { messageId: this.newId('tool'), toolCallId: String(e.id), content: String(e.content ?? ''), role: 'tool' })];
      case 'transfer': {
        // The transfer path as steps: the agent handing over finishes, the one taking over starts.
        const to = String(e.to);
        const out = [...this.closeReasoning(), ...this.closeText(), ev('STEP_FINISHED', { stepName: this.step }), ev('STEP_STARTED', { stepName: to })];
        this.step = to;
        return [...out, this.patch('/agent', to)];
      }
      case 'todos':
        return [this.patch('/todos', e.todos ?? [])];
      case 'interrupt':
        this.interrupts = ((e.interrupts as InterruptPoint[] | undefined) ?? []).map(toInterrupt);
        return [];
      case 'error':
        this.ended = true;
        return [...this.closeReasoning(), ...this.closeText(), ev('RUN_ERROR', { message: String(e.message ?? 'the run failed'), code: 'run_failed' })];
      case 'done':
        return this.finish(String(e.status), e.output);
      default:
        return [];
    }
  }

  private finish(status: string, output: unknown): BaseEvent[] {
    this.ended = true;
    const out: BaseEvent[] = [...this.closeReasoning(), ...this.closeText(), ev('STEP_FINISHED', { stepName: this.step })];
    const base = { threadId: this.o.threadId, runId: this.o.runId };
    if (status === 'interrupted' && this.interrupts.length) out.push(ev('RUN_FINISHED', { ...base, outcome: { type: 'interrupt', interrupts: this.interrupts } }));
    else if (status === 'cancelled') out.push(ev('RUN_FINISHED', { ...base, outcome: { type: 'cancelled' } }));
    else out.push(ev('RUN_FINISHED', { ...base, ...(output ? { result: output } : {}) }));
    return out;
  }

  private patch(path: string, value: unknown): BaseEvent {
    (this.state as Record<string, unknown>)[path.slice(1)] = value;
    return ev('STATE_DELTA', { delta: [{ op: 'replace', path, value }] });
  }

  private openText(agent: string): BaseEvent[] {
    if (this.text?.agent === agent) return [];
    const out = this.closeText();
    this.text = { agent, id: this.newId('msg') };
    this.lastMessage.set(agent, this.text.id);
    return [...out, ev('TEXT_MESSAGE_START', { messageId: this.text.id, role: 'assistant', name: agent })];
  }

  private closeText(): BaseEvent[] {
    if (!this.text) return [];
    const id = this.text.id;
    this.text = undefined;
    return [ev('TEXT_MESSAGE_END', { messageId: id })];
  }

  private openReasoning(agent: string): BaseEvent[] {
    if (this.reasoning?.agent === agent) return [];
    const out = this.closeReasoning();
    this.reasoning = { agent, id: this.newId('reasoning') };
    return [...out, ev('REASONING_START', { messageId: this.reasoning.id }), ev('REASONING_MESSAGE_START', { messageId: this.reasoning.id, role: 'reasoning' })];
  }

  private closeReasoning(): BaseEvent[] {
    if (!this.reasoning) return [];
    const id = this.reasoning.id;
    this.reasoning = undefined;
    return [ev('REASONING_MESSAGE_END', { messageId: id }), ev('REASONING_END', { messageId: id })];
  }

  private newId(kind: string): string {
    return `${kind}-${this.o.idPrefix}-${++this.seq}`;
  }
}

/** adk's interrupt → AG-UI's: the id a resume entry answers, its kind as the reason, what to send back. */
function toInterrupt(p: InterruptPoint): Interrupt {
  const metadata = { kind: p.kind, ...(p.tool ? { tool: p.tool } : {}), ...(p.arguments !== undefined ? { arguments: p.arguments } : {}), ...(p.diff ? { diff: p.diff } : {}), ...(p.plan ? { plan: p.plan } : {}), ...(p.budget ? { budget: p.budget } : {}), ...(p.data !== undefined ? { data: p.data } : {}) };
  const schema = RESPONSE_SCHEMAS[p.kind];
  return {
    id: p.id,
    reason: p.kind === 'approval' ? 'tool_approval' : p.kind,
    message: p.message || (p.tool ? `Run ${p.tool}?` : 'The run waits for an answer'),
    ...(p.callId ? { toolCallId: p.callId } : {}),
    ...(schema ? { responseSchema: schema } : {}),
    metadata,
  };
}
