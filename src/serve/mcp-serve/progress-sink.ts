import type { EventSink } from '../../core/conversation/drain-run.js';

/** Sends one progress line to the client (its own progress count rises with each). */
export type Report = (message: string) => void;

/** Streamed text is reported at most this often: a notification per token would flood the client. */
const TEXT_EVERY_MS = 500;

/**
 * The run's events as progress lines while the team works: who speaks, which tools run, where
 * the work moves, what it waits for. The answer itself comes in the result, not here.
 */
export class ProgressSink implements EventSink {
  private lastText = 0;
  private written = 0;

  constructor(private readonly report: Report) {}

  delta(e: Parameters<EventSink['delta']>[0], text: string): void {
    this.written += text.length;
    const now = Date.now();
    if (now - this.lastText < TEXT_EVERY_MS) return;
    this.lastText = now;
    this.report(`${e.agentName} is writing (${this.written} characters)`);
  }

  thought(e: Parameters<EventSink['thought']>[0]): void {
    const now = Date.now();
    if (now - this.lastText < TEXT_EVERY_MS) return;
    this.lastText = now;
    this.report(`${e.agentName} is thinking`);
  }

  message(e: Parameters<EventSink['message']>[0], m: Parameters<EventSink['message']>[1]): void {
    this.written = 0;
    if (m.role === 'assistant' && m.toolCalls?.length) this.report(`${e.agentName} calls ${m.toolCalls.map((c) => c.function.name).join(', ')}`);
    else if (m.role === 'tool') this.report(`${m.toolName ?? 'a tool'} ${m.isError ? 'failed' : 'finished'}`);
  }

  transfer(e: Parameters<EventSink['transfer']>[0], to: string): void {
    this.report(`${e.agentName} hands over to ${to}`);
  }

  retry(e: Parameters<EventSink['retry']>[0]): void {
    this.report(`${e.agentName}: the model call is tried again`);
  }

  error(e: Parameters<EventSink['error']>[0], error: Error): void {
    this.report(`${e.agentName}: ${error.message}`);
  }

  interrupt(e: Parameters<EventSink['interrupt']>[0]): void {
    this.report(`${e.agentName} waits for a person`);
  }

  compaction(e: Parameters<EventSink['compaction']>[0]): void {
    this.report(`${e.agentName}: the conversation was summarised to fit the context`);
  }

  todos(e: Parameters<EventSink['todos']>[0], t: Parameters<EventSink['todos']>[1]): void {
    const done = t.todos.filter((x) => x.status === 'completed').length;
    this.report(`${e.agentName}: ${done}/${t.todos.length} todos done`);
  }
}
