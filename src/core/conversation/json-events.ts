import type { AgentEvent } from '../agents/types.js';
import type { InterruptContext } from '../interrupt.js';
import type { Message } from '../schema/message.js';
import type { CompactionEvent } from '../middlewares/summarize.js';
import type { TodosEvent } from '../prebuilt/deep/todos.js';
import type { ModelNotice } from '../models/model-notice.js';
import { describeInterrupt } from './describe-interrupt.js';
import { redactJsonText } from '../store/redact.js';
import type { EventSink, RunSummary } from './drain-run.js';

/** One event of a run as `adk run --json` prints it and `adk serve` streams it: `type` plus fields. */
export type JsonEvent = { type: string } & Record<string, unknown>;

const base = (e: Pick<AgentEvent, 'agentName' | 'runPath'>) => ({ agent: e.agentName, runPath: e.runPath });

/**
 * A run's events as plain JSON objects (DESIGN §6), handed to `emit`: the one shape both the JSON
 * Lines output and the HTTP API's server-sent events use.
 */
export class JsonEvents implements EventSink {
  constructor(private readonly emit: (event: JsonEvent) => void) {}

  session(sessionId: string, agent: string): void {
    this.emit({ type: 'session', sessionId, agent });
  }
  delta(e: AgentEvent, content: string): void {
    this.emit({ type: 'delta', ...base(e), content });
  }
  thought(e: AgentEvent, content: string): void {
    this.emit({ type: 'thought', ...base(e), content });
  }
  message(e: AgentEvent, m: Message): void {
    // A later attempt of the turn (another worker) replays what the first one already streamed.
    if (e.replayed) return;
    if (m.role === 'tool') {
      this.emit({ type: 'tool_result', ...base(e), id: m.toolCallId, name: m.toolName, content: m.content, isError: !!m.isError, ...(m.structured !== undefined ? { structured: m.structured } : {}) });
      return;
    }
    this.emit({ type: 'message', ...base(e), role: m.role, content: m.content, ...(m.reasoningContent ? { reasoning: m.reasoningContent } : {}) });
    for (const c of m.toolCalls ?? []) {
      this.emit({ type: 'tool_call', ...base(e), id: c.id, name: c.function.name, arguments: parseOrRaw(c.function.arguments) });
    }
  }
  transfer(e: AgentEvent, to: string): void {
    if (e.replayed) return;
    this.emit({ type: 'transfer', ...base(e), to });
  }
  retry(e: AgentEvent): void {
    this.emit({ type: 'retry', ...base(e), attempt: e.retry!.attempt, delayMs: e.retry!.delayMs, error: e.retry!.error });
  }
  error(e: Pick<AgentEvent, 'agentName' | 'runPath'>, error: Error): void {
    this.emit({ type: 'error', ...base(e), message: error.message });
  }
  compaction(e: AgentEvent, c: CompactionEvent): void {
    this.emit({ type: 'compaction', ...base(e), summarized: c.summarized, ...(c.error ? { dropped: true, error: c.error } : {}) });
  }
  /** `{"type":"fallback","from":…,"to":…}` names the model that answered; `{"type":"notice",…}` the rest. */
  notice(e: AgentEvent, n: ModelNotice): void {
    const { type: _, kind, ...fields } = n;
    this.emit(kind === 'fallback' ? { type: 'fallback', ...base(e), ...fields } : { type: 'notice', ...base(e), kind, ...fields });
  }
  todos(e: AgentEvent, t: TodosEvent): void {
    this.emit({ type: 'todos', ...base(e), todos: t.todos });
  }
  interrupt(_e: AgentEvent, _contexts: InterruptContext[]): void {
    // Emitted by `interrupted()` once the turn is saved and its checkpoint id is known.
  }
  interrupted(e: { agent: string }, checkpointId: string, contexts: InterruptContext[]): void {
    this.emit({ type: 'interrupt', agent: e.agent, checkpointId, interrupts: contexts.map(describeInterrupt) });
  }
  /** Goal mode: one attempt's check ran (`adk run --until`). */
  goal(g: { attempt: number; maxAttempts: number; check: string; passed: boolean; exitCode: number }): void {
    this.emit({ type: 'goal', ...g });
  }
  done(summary: RunSummary, sessionId: string, contextWindow?: number): void {
    const usage = {
      ...summary.usage,
      ...(summary.contextTokens !== undefined ? { contextTokens: summary.contextTokens } : {}),
      ...(contextWindow ? { contextWindow } : {}),
      ...(summary.usageByModel ? { byModel: summary.usageByModel } : {}),
    };
    this.emit({ type: 'done', status: summary.status, ...(summary.incompleteReason ? { reason: summary.incompleteReason } : {}), sessionId, output: summary.output, usage });
  }
}

function parseOrRaw(s: string): unknown {
  try {
    return JSON.parse(s || '{}');
  } catch {
    return s;
  }
}

/** One event as JSON text (a JSON line, an SSE `data:`): secrets redacted, and no byte a terminal would act on. */
export function jsonEventText(event: JsonEvent, secrets: readonly string[]): string {
  return escapeC1(redactJsonText(JSON.stringify(event), secrets));
}

/** JSON.stringify escapes C0 controls but leaves DEL and C1 (an 8-bit CSI is one byte): the text holds none. */
function escapeC1(json: string): string {
  // eslint-disable-next-line no-control-regex
  return json.replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
