import { randomUUID } from 'node:crypto';
import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext } from '@a2a-js/sdk/server';
import { Role, TaskState, type Message, type Part } from '@a2a-js/sdk';
import { AsyncQueue } from '../../../core/async-queue.js';
import type { PendingInterrupt } from '../../../core/store/session-record.js';
import { UnknownSessionError, type ServedHub, type ServedSession, type SessionEvent, type TurnStep } from '../../served-session.js';
import { budgetAnswer } from '../../../core/conversation/answers.js';

const CONTEXT_KEY = (agent: string, context: string) => `a2a-context:${agent}:${context}`;
const TASK_KEY = (task: string) => `a2a-task:${task}`;
const APPROVE = /^\s*(y|yes|ok|approve|approved|accept|accepted)\s*\.?\s*$/i;

const text = (value: string): Part => ({ content: { $case: 'text', value }, metadata: undefined, filename: '', mediaType: 'text/plain' });
const data = (value: unknown): Part => ({ content: { $case: 'data', value }, metadata: undefined, filename: '', mediaType: 'application/json' });
const agentMessage = (taskId: string, contextId: string, parts: Part[]): Message => ({ messageId: randomUUID(), contextId, taskId, role: Role.ROLE_AGENT, parts, metadata: undefined, extensions: [], referenceTaskIds: [] });
const status = (state: TaskState, message?: Message) => ({ state, message, timestamp: new Date().toISOString() });

/**
 * Runs A2A tasks on adk sessions: a context is a session (kept in the store), a task is one turn
 * with its continuations. An interrupt is `input-required`; the client's next message on the task
 * answers it: a data part in adk's answer shape (`{approve|reject|input|targets}`), or text ("yes"
 * approves; other text answers questions and rejects approvals with it as the reason).
 */
export class AdkExecutor implements AgentExecutor {
  constructor(
    private readonly hub: ServedHub,
    private readonly agent: string,
  ) {}

  async execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId } = ctx;
    const live = await this.session(contextId);
    await this.hub.stores.kv.set(TASK_KEY(taskId), live.id);
    const user = ctx.userMessage;
    bus.publish(AgentEvent.task({ id: taskId, contextId, status: status(TaskState.TASK_STATE_SUBMITTED), artifacts: [], history: [user], metadata: { adkSession: live.id } }));
    const r = await live.record();
    const waiting = !(await live.busy()) && r.status === 'interrupted' ? r.pendingInterrupts : [];
    const step: TurnStep = waiting.length ? { targets: answers(waiting, user.parts) } : { content: partsText(user.parts) };
    const queue = new AsyncQueue<SessionEvent>();
    const unsubscribe = await live.subscribe((e) => queue.push(e));
    try {
      await live.start(step);
      bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status: status(TaskState.TASK_STATE_WORKING), metadata: undefined }));
      const artifactId = `answer-${randomUUID()}`;
      let streamed = false;
      let error: string | undefined;
      let interrupts: unknown[] = [];
      for await (const { event } of queue) {
        if (event.type === 'delta') {
          bus.publish(AgentEvent.artifactUpdate({ taskId, contextId, artifact: { artifactId, name: 'answer', description: '', parts: [text(String(event.content ?? ''))], metadata: undefined, extensions: [] }, append: streamed, lastChunk: false, metadata: undefined }));
          streamed = true;
        } else if (event.type === 'error') error = String(event.message);
        else if (event.type === 'interrupt') interrupts = (event.interrupts as unknown[]) ?? [];
        else if (event.type === 'done') {
          const output = String(event.output ?? '');
          if (event.status === 'interrupted') {
            const ask = interrupts.map((i) => describe(i as PendingInterrupt)).join('\n');
            bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status: status(TaskState.TASK_STATE_INPUT_REQUIRED, agentMessage(taskId, contextId, [text(ask), data({ interrupts })])), metadata: undefined }));
          } else if (event.status === 'cancelled') {
            bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status: status(TaskState.TASK_STATE_CANCELED), metadata: undefined }));
          } else if (error || event.status === 'error') {
            bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status: status(TaskState.TASK_STATE_FAILED, agentMessage(taskId, contextId, [text(error ?? 'the run failed')])), metadata: undefined }));
          } else {
            // The whole answer as the artifact's last chunk (streamed deltas may be only part of it).
            bus.publish(AgentEvent.artifactUpdate({ taskId, contextId, artifact: { artifactId, name: 'answer', description: '', parts: [text(streamed ? '' : output)], metadata: undefined, extensions: [] }, append: streamed, lastChunk: true, metadata: undefined }));
            bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status: status(TaskState.TASK_STATE_COMPLETED, agentMessage(taskId, contextId, [text(output)])), metadata: undefined }));
          }
          break;
        }
      }
    } finally {
      unsubscribe();
      bus.finished();
    }
  }

  async cancelTask(taskId: string): Promise<void> {
    const id = await this.hub.stores.kv.get(TASK_KEY(taskId));
    // The running turn stops at a safe point; its `done` (cancelled) ends the task as canceled.
    if (id) await (await this.hub.get(id)).cancel();
  }

  private async session(contextId: string): Promise<ServedSession> {
    const id = await this.hub.stores.kv.get(CONTEXT_KEY(this.agent, contextId));
    if (id) {
      const live = await this.hub.get(id).catch((e: unknown) => (e instanceof UnknownSessionError ? undefined : Promise.reject(e)));
      if (live) return live;
    }
    const live = await this.hub.create({ agent: this.agent, title: `A2A ${contextId}`.slice(0, 200) });
    await this.hub.stores.kv.set(CONTEXT_KEY(this.agent, contextId), live.id);
    return live;
  }
}

function partsText(parts: readonly Part[]): string {
  return parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');
}

function describe(i: PendingInterrupt): string {
  if (i.kind === 'approval') return `Approve ${i.tool ?? 'the call'} ${JSON.stringify(i.arguments ?? {})}? (answer yes, or say why not)`;
  if (i.kind === 'plan_review') return `Accept this plan? ${i.message}`;
  return i.message || 'The agent waits for an answer.';
}

/** The client's reply → resume targets for every waiting interrupt. */
function answers(pending: readonly PendingInterrupt[], parts: readonly Part[]): Record<string, unknown> {
  const d = parts.find((p) => p.content?.$case === 'data')?.content?.value as { targets?: Record<string, unknown> } | undefined;
  if (d?.targets) return d.targets;
  const reply = partsText(parts);
  const yes = APPROVE.test(reply);
  const targets: Record<string, unknown> = {};
  for (const p of pending) {
    if (p.kind === 'approval') targets[p.id] = yes ? { approved: true } : { approved: false, reason: reply || undefined };
    else if (p.kind === 'plan_review') targets[p.id] = yes ? { accept: true } : { accept: false, feedback: reply };
    // A reached budget: yes raises it (twice the limit), a number sets it, anything else stops the run there.
    else if (p.kind === 'budget') targets[p.id] = budgetReply(p, yes, reply);
    else targets[p.id] = reply;
  }
  return targets;
}

function budgetReply(p: PendingInterrupt, yes: boolean, reply: string): unknown {
  try {
    return budgetAnswer(p, yes ? 'yes' : reply);
  } catch {
    return { stop: true };
  }
}
