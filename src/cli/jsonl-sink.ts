import { describeInterrupt } from '../core/conversation/describe-interrupt.js';
import type { AgentEvent, InterruptContext, Message } from '../core/index.js';
import { redactJsonText, secretsFromEnv } from '../core/store/redact.js';
import type { EventSink, RunSummary } from './event-sink.js';
import type { CompactionEvent } from '../core/middlewares/summarize.js';
import type { TodosEvent } from '../core/prebuilt/deep/todos.js';
import { configSecretValues } from './secrets.js';

type Write = (line: string) => void;

const base = (e: AgentEvent) => ({ agent: e.agentName, runPath: e.runPath });

/** `adk run --json`: one JSON object per line (DESIGN §6). */
export class JsonlSink implements EventSink {
  /** `secrets` (default: API keys, *_KEY/_TOKEN/_SECRET values and api_key_env values) are printed as [REDACTED]. */
  constructor(
    private readonly write: Write,
    private readonly secrets: readonly string[] = [...secretsFromEnv(), ...configSecretValues()],
  ) {}

  private emit(obj: Record<string, unknown>): void {
    this.write(`${escapeC1(redactJsonText(JSON.stringify(obj), this.secrets))}\n`);
  }

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
    if (m.role === 'tool') {
      this.emit({ type: 'tool_result', ...base(e), id: m.toolCallId, name: m.toolName, content: m.content, isError: !!m.isError });
      return;
    }
    this.emit({ type: 'message', ...base(e), role: m.role, content: m.content, ...(m.reasoningContent ? { reasoning: m.reasoningContent } : {}) });
    for (const c of m.toolCalls ?? []) {
      this.emit({ type: 'tool_call', ...base(e), id: c.id, name: c.function.name, arguments: parseOrRaw(c.function.arguments) });
    }
  }
  transfer(e: AgentEvent, to: string): void {
    this.emit({ type: 'transfer', ...base(e), to });
  }
  retry(e: AgentEvent): void {
    this.emit({ type: 'retry', ...base(e), attempt: e.retry!.attempt, delayMs: e.retry!.delayMs, error: e.retry!.error });
  }
  error(e: AgentEvent, error: Error): void {
    this.emit({ type: 'error', ...base(e), message: error.message });
  }
  compaction(e: AgentEvent, c: CompactionEvent): void {
    this.emit({ type: 'compaction', ...base(e), summarized: c.summarized, ...(c.error ? { dropped: true, error: c.error } : {}) });
  }
  todos(e: AgentEvent, t: TodosEvent): void {
    this.emit({ type: 'todos', ...base(e), todos: t.todos });
  }
  interrupt(_e: AgentEvent, _contexts: InterruptContext[]): void {
    // Printed by `interrupted()` once the checkpoint id is known.
  }
  interrupted(e: { agent: string }, checkpointId: string, contexts: InterruptContext[]): void {
    this.emit({ type: 'interrupt', agent: e.agent, checkpointId, interrupts: contexts.map(describeInterrupt) });
  }
  done(summary: RunSummary, sessionId: string, contextWindow?: number): void {
    const usage = {
      ...summary.usage,
      ...(summary.contextTokens !== undefined ? { contextTokens: summary.contextTokens } : {}),
      ...(contextWindow ? { contextWindow } : {}),
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

/** JSON.stringify escapes C0 controls but leaves DEL and C1 (an 8-bit CSI is one byte): a line piped to a terminal holds none. */
function escapeC1(json: string): string {
  // eslint-disable-next-line no-control-regex
  return json.replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
