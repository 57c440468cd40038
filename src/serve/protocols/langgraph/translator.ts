import type { JsonEvent } from '../../../core/conversation/json-events.js';
import { lgInterrupt, type LgInterrupt } from './interrupts.js';
import { messageId, toolCall, type LcMessage } from './messages.js';
import type { ThreadValues } from './state.js';
import type { LangGraphFace } from './face.js';

/** The stream modes a run may ask for (`messages-tuple` streams as `messages` events). */
import type { StreamMode } from './stream-modes.js';

export { STREAM_MODES, type StreamMode } from './stream-modes.js';

export interface LgEvent {
  event: string;
  data: unknown;
}

export interface RunTranslatorOptions {
  thread: string;
  runId: string;
  assistantId: string;
  modes: ReadonlySet<StreamMode>;
  /** The thread's values before the run (with the person's new message, if any). */
  values: ThreadValues;
  /** The index of the run's first new message in the session. */
  next: number;
  /** How the client reads state values (DeerFlow 2's), if not plainly. */
  face?: LangGraphFace | undefined;
}

/** adk events that have no LangGraph counterpart: streamed in `custom` mode as they are. */
const CUSTOM = new Set(['transfer', 'todos', 'notice', 'fallback', 'compaction', 'retry']);

/**
 * One run's adk events (as `adk run --json` has them) → LangGraph's stream events in the modes
 * asked for. An assistant message is complete when something other than its tool calls follows;
 * each complete message is one node update (`updates`) and a new state (`values`).
 */
export class RunTranslator {
  private readonly messages: LcMessage[];
  private index: number;
  private step = 0;
  private open?: { msg: LcMessage; agent: string; streamed: boolean; announced?: boolean } | undefined;
  private todos: unknown[] | undefined;

  constructor(private readonly o: RunTranslatorOptions) {
    this.messages = [...o.values.messages];
    this.index = o.next;
    this.todos = o.values.todos;
  }

  /** The run's opening events: `metadata`, then the state it starts from. */
  start(): LgEvent[] {
    return [{ event: 'metadata', data: { run_id: this.o.runId, thread_id: this.o.thread, attempt: 1 } }, ...this.values()];
  }

  get state(): ThreadValues {
    return { ...this.o.values, messages: [...this.messages, ...(this.open ? [this.open.msg] : [])], ...(this.todos ? { todos: this.todos } : {}) };
  }

  next(e: JsonEvent): LgEvent[] {
    const agent = String(e.agent ?? this.o.assistantId);
    switch (e.type) {
      case 'delta':
      case 'thought': {
        const out = this.open && this.open.agent !== agent ? this.flush() : [];
        const open = this.openFor(agent, true);
        const text = String(e.content ?? '');
        if (e.type === 'delta') open.msg.content += text;
        else open.msg.additional_kwargs.reasoning_content = String(open.msg.additional_kwargs.reasoning_content ?? '') + text;
        const chunk = { ...this.chunkOf(open.msg), content: e.type === 'delta' ? text : '', ...(e.type === 'thought' ? { additional_kwargs: { reasoning_content: text } } : {}) };
        return [...out, ...this.streamed(agent, chunk)];
      }
      case 'message': {
        if (e.role !== 'assistant') return this.flush();
        const out = this.open && (this.open.agent !== agent || !this.open.streamed) ? this.flush() : [];
        const open = this.openFor(agent, false);
        const whole = String(e.content ?? '');
        // A message that was not streamed comes whole: one chunk with all of it.
        const rest = open.streamed ? '' : whole;
        open.msg.content = whole;
        if (typeof e.reasoning === 'string') open.msg.additional_kwargs.reasoning_content = e.reasoning;
        open.streamed = false;
        return rest ? [...out, ...this.streamed(agent, { ...this.chunkOf(open.msg), content: rest })] : out;
      }
      case 'tool_call': {
        const out = this.open && this.open.agent !== agent ? this.flush() : [];
        const open = this.openFor(agent, false);
        const call = toolCall(String(e.name), e.arguments, String(e.id));
        open.msg.tool_calls = [...(open.msg.tool_calls ?? []), call];
        const chunk = { ...this.chunkOf(open.msg), content: '', tool_call_chunks: [{ name: call.name, args: JSON.stringify(call.args), id: call.id, index: open.msg.tool_calls.length - 1, type: 'tool_call_chunk' }] };
        return [...out, ...this.streamed(agent, chunk)];
      }
      case 'tool_result': {
        const out = this.flush();
        const msg: LcMessage = { type: 'tool', id: messageId(this.o.thread, this.index++), content: String(e.content ?? ''), tool_call_id: String(e.id), name: String(e.name ?? ''), status: e.isError ? 'error' : 'success', additional_kwargs: {}, response_metadata: {} };
        const meta = this.meta('tools');
        const tuple = this.has('messages-tuple') ? [{ event: 'messages', data: [msg, meta] }] : [];
        const legacy = this.has('messages') ? [{ event: 'messages/metadata', data: { [msg.id]: { metadata: meta } } }, { event: 'messages/complete', data: [msg] }] : [];
        const events = this.has('events') ? [{ event: 'events', data: { event: 'on_tool_end', name: msg.name, run_id: this.o.runId, tags: [], metadata: meta, data: { output: msg } } }] : [];
        return [...out, ...tuple, ...legacy, ...events, ...this.update('tools', msg)];
      }
      case 'interrupt': {
        const out = this.flush();
        const interrupts = ((e.interrupts as Array<Parameters<typeof lgInterrupt>[0]>) ?? []).map((i) => lgInterrupt(i));
        return [
          ...out,
          ...(this.has('updates') ? [{ event: 'updates', data: { __interrupt__: interrupts } }] : []),
          ...(this.has('values') ? [{ event: 'values', data: { ...this.shown(interrupts), __interrupt__: interrupts } }] : []),
        ];
      }
      case 'error':
        return [...this.flush(), { event: 'error', data: { error: 'AgentError', message: String(e.message ?? 'the run failed') } }];
      default: {
        const out = this.flush();
        if (e.type === 'todos') {
          this.todos = Array.isArray(e.todos) ? e.todos : [];
          out.push(...this.values());
        }
        if (CUSTOM.has(e.type) && this.has('custom')) out.push({ event: 'custom', data: e });
        return out;
      }
    }
  }

  /** Ends the message being built, if any: a node update and a new state. */
  flush(): LgEvent[] {
    const open = this.open;
    if (!open) return [];
    this.open = undefined;
    const msg = open.msg;
    if (!msg.tool_calls?.length) delete msg.tool_calls;
    const meta = this.meta(open.agent);
    return [
      ...(this.has('messages') ? [{ event: 'messages/complete', data: [msg] }] : []),
      ...(this.has('events') ? [{ event: 'events', data: { event: 'on_chat_model_end', name: open.agent, run_id: this.o.runId, tags: [], metadata: meta, data: { output: msg } } }] : []),
      ...this.update(open.agent, msg),
    ];
  }

  private update(node: string, msg: LcMessage): LgEvent[] {
    this.messages.push(msg);
    this.step++;
    const out: LgEvent[] = [];
    if (this.has('updates')) out.push({ event: 'updates', data: { [node]: { messages: [msg] } } });
    if (this.has('debug')) out.push({ event: 'debug', data: { type: 'task_result', timestamp: new Date().toISOString(), step: this.step, payload: { id: `${this.o.runId}:${this.step}`, name: node, error: null, result: [['messages', [msg]]], interrupts: [] } } });
    return [...out, ...this.values()];
  }

  private values(): LgEvent[] {
    return this.has('values') ? [{ event: 'values', data: this.shown([]) }] : [];
  }

  /** The state as the client reads it. */
  private shown(interrupts: readonly LgInterrupt[]): ThreadValues {
    return this.o.face?.values?.(this.state, interrupts) ?? this.state;
  }

  private openFor(agent: string, streamed: boolean) {
    if (!this.open) {
      const msg: LcMessage = { type: 'ai', id: messageId(this.o.thread, this.index++), name: agent, content: '', tool_calls: [], additional_kwargs: {}, response_metadata: {} };
      this.open = { msg, agent, streamed };
    }
    return this.open;
  }

  private chunkOf(msg: LcMessage) {
    return { type: 'AIMessageChunk', id: msg.id, name: msg.name, content: '', tool_call_chunks: [] as unknown[], additional_kwargs: {}, response_metadata: {} };
  }

  /** A chunk of the message being built, in each mode that streams chunks. */
  private streamed(agent: string, chunk: ReturnType<RunTranslator['chunkOf']>): LgEvent[] {
    const meta = this.meta(agent);
    const out: LgEvent[] = [];
    if (this.has('messages-tuple')) out.push({ event: 'messages', data: [chunk, meta] });
    if (this.has('messages')) {
      // Once per message, before its first partial (a message may open without a chunk: an empty `message` before its tool calls).
      if (!this.open!.announced) out.push({ event: 'messages/metadata', data: { [chunk.id]: { metadata: meta } } });
      this.open!.announced = true;
      out.push({ event: 'messages/partial', data: [{ ...this.open!.msg, type: 'ai' }] });
    }
    if (this.has('events')) out.push({ event: 'events', data: { event: 'on_chat_model_stream', name: agent, run_id: this.o.runId, tags: [], metadata: meta, data: { chunk } } });
    return out;
  }

  private meta(node: string) {
    return { run_id: this.o.runId, thread_id: this.o.thread, assistant_id: this.o.assistantId, graph_id: this.o.assistantId, langgraph_node: node, langgraph_step: this.step + 1, langgraph_checkpoint_ns: '' };
  }

  private has(mode: StreamMode): boolean {
    return this.o.modes.has(mode);
  }
}
