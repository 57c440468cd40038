import type { AgentEvent, InterruptContext, Message } from '../core/index.js';
import type { EventSink } from '../core/conversation/drain-run.js';
import { compactionText, type CompactionEvent } from '../core/middlewares/summarize.js';
import { todoMark, type TodosEvent } from '../core/prebuilt/deep/todos.js';
import type { ModelNotice } from '../core/models/model-notice.js';
import { describeInterrupt } from '../core/conversation/describe-interrupt.js';

type Write = (text: string) => void;

/** `adk run` without --json: the answer streams to stdout; everything else is a note on stderr. */
export class TextSink implements EventSink {
  private midLine = false;

  /** `redact` is applied before anything is cut short too (a secret cut in half would not be found whole). */
  constructor(
    private readonly out: Write,
    private readonly err: Write,
    private readonly redact: (text: string) => string = (text) => text,
  ) {}

  private note(text: string): void {
    if (this.midLine) this.out('\n');
    this.midLine = false;
    this.err(`${text}\n`);
  }

  delta(_e: AgentEvent, text: string): void {
    this.out(text);
    this.midLine = !text.endsWith('\n');
  }
  thought(): void {}
  message(e: AgentEvent, m: Message): void {
    if (m.role === 'tool') {
      this.note(`  ${m.isError ? '✗' : '✓'} ${m.toolName}: ${firstLine(this.redact(m.content))}`);
      return;
    }
    const streamed = e.output?.message?.isStreaming;
    if (!streamed && m.content) {
      this.out(m.content);
      this.midLine = !m.content.endsWith('\n');
    }
    if (this.midLine && !m.toolCalls?.length) {
      this.out('\n');
      this.midLine = false;
    }
    for (const c of m.toolCalls ?? []) this.note(`  → ${c.function.name} ${truncate(this.redact(c.function.arguments), 100)}`);
  }
  transfer(e: AgentEvent, to: string): void {
    this.note(`  ↳ ${e.agentName} → ${to}`);
  }
  retry(e: AgentEvent): void {
    this.note(`  retrying (attempt ${e.retry!.attempt}) after: ${e.retry!.error}`);
  }
  compaction(_e: AgentEvent, c: CompactionEvent): void {
    this.note(`  ${compactionText(c)}`);
  }
  notice(_e: AgentEvent, n: ModelNotice): void {
    this.note(`  adk: ${n.text}`);
  }
  todos(_e: AgentEvent, t: TodosEvent): void {
    this.note(t.todos.map((x) => `  ${todoMark(x.status)} ${x.status === 'in_progress' ? (x.activeForm ?? x.content) : x.content}`).join('\n'));
  }
  error(): void {
    // The CLI prints the final error once.
  }
  interrupt(_e: AgentEvent, contexts: InterruptContext[]): void {
    for (const c of contexts.map(describeInterrupt)) this.note(`  ⏸ ${c.kind}: ${c.message}${c.tool ? ` (${c.tool})` : ''} [${c.id}]`);
  }
}

const firstLine = (s: string) => truncate(s.split('\n')[0] ?? '', 100);
const truncate = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
