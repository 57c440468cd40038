import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { AgentEvent } from '../../core/index.js';
import type { EventSink } from '../../core/conversation/drain-run.js';
import type { InterruptContext } from '../../core/interrupt.js';
import type { Message } from '../../core/schema/message.js';
import type { CompactionEvent } from '../../core/middlewares/summarize.js';
import type { TodosEvent } from '../../core/prebuilt/deep/todos.js';
import { parsedArgs, textContent, toolDiff, toolKind, toolLocations, toolTitle } from './tool-call-view.js';

/** Sends one session update, in order, after the ones before it. */
export type SendUpdate = (update: SessionUpdate | (() => Promise<SessionUpdate | undefined>)) => void;

/**
 * A run's events as ACP session updates: streamed text and reasoning as message and thought
 * chunks, each tool call as `tool_call` (with its diff for file edits) then `tool_call_update`
 * when its result comes, a deep agent's todos as the `plan`.
 */
export class AcpUpdates implements EventSink {
  /** Text of the message being streamed was sent as chunks: its finished copy is not sent again. */
  private streamed = false;
  private thoughtStreamed = false;
  /** Calls announced and not yet finished: a cancelled turn marks them failed. */
  readonly open = new Set<string>();

  constructor(
    private readonly send: SendUpdate,
    private readonly workspace: string,
  ) {}

  delta(_e: AgentEvent, text: string): void {
    this.streamed = true;
    this.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
  }

  thought(_e: AgentEvent, text: string): void {
    this.thoughtStreamed = true;
    this.send({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text } });
  }

  message(e: AgentEvent, m: Message): void {
    const streamed = this.streamed;
    const thoughtStreamed = this.thoughtStreamed;
    this.streamed = this.thoughtStreamed = false;
    if (e.replayed) return;
    if (m.role === 'tool') {
      if (!m.toolCallId) return;
      this.open.delete(m.toolCallId);
      this.send({ sessionUpdate: 'tool_call_update', toolCallId: m.toolCallId, status: m.isError ? 'failed' : 'completed', content: [textContent(m.content)], rawOutput: { content: m.content } });
      return;
    }
    if (m.role !== 'assistant') return;
    // A model that does not stream gives the whole reply at once.
    if (!thoughtStreamed && m.reasoningContent) this.send({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: m.reasoningContent } });
    if (!streamed && m.content) this.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: m.content } });
    for (const call of m.toolCalls ?? []) this.announce(call.id, call.function.name, call.function.arguments);
  }

  /** A tool call the model made: shown at once, its diff read before the call can change the file. */
  announce(id: string, name: string, rawArgs: unknown): void {
    this.open.add(id);
    const args = parsedArgs(rawArgs);
    this.send(async () => {
      const diff = await toolDiff(name, args, this.workspace).catch(() => undefined);
      return { sessionUpdate: 'tool_call', toolCallId: id, title: toolTitle(name, args), kind: toolKind(name), status: 'in_progress', locations: toolLocations(name, args, this.workspace), rawInput: args, ...(diff ? { content: [diff] } : {}) };
    });
  }

  /** The last lines of a running command (shell's live output). */
  output(callId: string, tail: string): void {
    if (this.open.has(callId)) this.send({ sessionUpdate: 'tool_call_update', toolCallId: callId, content: [textContent(tail)] });
  }

  /** The turn stopped (cancelled, failed): calls that never finished are marked so. */
  closeOpen(): void {
    for (const id of this.open) this.send({ sessionUpdate: 'tool_call_update', toolCallId: id, status: 'failed' });
    this.open.clear();
  }

  transfer(): void {
    // The transfer_to_agent call already shows it ("Hand over to …").
  }

  retry(e: AgentEvent): void {
    const r = e.retry!;
    this.send({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: `\n[adk: the model call failed (${r.error}); trying again in ${Math.round(r.delayMs / 1000)} s]\n` } });
  }

  error(): void {
    // The prompt's response reports it (see AcpSession.prompt).
  }

  interrupt(_e: AgentEvent, _contexts: InterruptContext[]): void {
    // Asked by the session once the turn is saved (permission requests).
  }

  compaction(_e: AgentEvent, c: CompactionEvent): void {
    const text = c.error ? `[adk: the context was too long and its summary failed; the oldest messages were left out of this request]` : `[adk: compacted ${c.summarized} earlier messages into a summary]`;
    this.send({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: `\n${text}\n` } });
  }

  todos(_e: AgentEvent, t: TodosEvent): void {
    this.send({ sessionUpdate: 'plan', entries: t.todos.map((todo) => ({ content: todo.content, priority: 'medium', status: todo.status })) });
  }
}
