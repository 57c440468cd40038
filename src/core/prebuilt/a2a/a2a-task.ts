import { randomUUID } from 'node:crypto';
import type { Message as A2aMessage, TaskStatus } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { messageEvent, streamEvent, type AgentEvent } from '../../agents/types.js';
import { assistantMessage } from '../../schema/message.js';
import { MessageStream } from '../../schema/message-stream.js';
import { partsText } from './a2a-connection.js';

/** The remote task and conversation a message belongs to. */
export interface A2aTaskIds {
  taskId: string;
  contextId: string;
}

/** A2A task states (the protocol's enum numbers; the SDK's TaskState enum is a value of the optional peer). */
const S = { submitted: 1, working: 2, completed: 3, failed: 4, canceled: 5, inputRequired: 6, rejected: 7, authRequired: 8 } as const;
const ROLE_USER = 1;

/** A status update of the remote task, as a custom event (`output.custom`). */
export interface A2aStatusEvent {
  type: 'a2a_status';
  agent: string;
  taskId: string;
  state: 'submitted' | 'working';
  text: string;
}

export interface A2aTaskEnd extends A2aTaskIds {
  /** Set when the task waits for input: what the remote asks. */
  question?: string | undefined;
}

interface TaskRun {
  url: string;
  agentName: string;
  streaming: boolean;
  signal: AbortSignal;
  emit: (e: AgentEvent) => void;
}

/**
 * Sends one message (a new task, or the answer on `taskId`) and streams the task back as adk events:
 * the answer's text (artifact chunks as deltas; else the final status message), status updates as
 * custom events. Ends when the task completes or waits for input; any other end is an error.
 */
export async function runA2aTask(client: Client, send: { text: string; taskId?: string | undefined; contextId?: string | undefined }, run: TaskRun): Promise<A2aTaskEnd> {
  const message: A2aMessage = { messageId: randomUUID(), role: ROLE_USER, parts: [{ content: { $case: 'text', value: send.text }, metadata: undefined, filename: '', mediaType: 'text/plain' }], contextId: send.contextId ?? '', taskId: send.taskId ?? '', metadata: undefined, extensions: [], referenceTaskIds: [] };
  const ids: A2aTaskIds = { taskId: send.taskId ?? '', contextId: send.contextId ?? '' };
  const answer = new AnswerText(run);
  let end: { status: TaskStatus } | undefined;
  const see = (status: TaskStatus | undefined) => {
    if (!status) return;
    if (status.state === S.submitted || status.state === S.working) {
      const custom: A2aStatusEvent = { type: 'a2a_status', agent: run.agentName, taskId: ids.taskId, state: status.state === S.working ? 'working' : 'submitted', text: partsText(status.message?.parts) };
      run.emit({ agentName: '', runPath: [], output: { custom } });
    } else end = { status };
  };
  // A signal of this realm's own AbortController: undici refuses others (the run's may come from elsewhere).
  const abort = new AbortController();
  const onAbort = () => abort.abort(run.signal.reason);
  if (run.signal.aborted) onAbort();
  else run.signal.addEventListener('abort', onAbort, { once: true });
  try {
    for await (const r of client.sendMessageStream({ tenant: '', message, configuration: undefined, metadata: undefined }, { signal: abort.signal })) {
      const p = r.payload;
      if (!p) continue;
      if (p.$case === 'message') {
        // A direct reply: no task, the message is the whole answer.
        ids.contextId = p.value.contextId || ids.contextId;
        answer.final(partsText(p.value.parts));
        end = { status: { state: S.completed, message: undefined, timestamp: undefined } };
      } else if (p.$case === 'task') {
        Object.assign(ids, { taskId: p.value.id, contextId: p.value.contextId });
        for (const a of p.value.artifacts) answer.artifact(partsText(a.parts));
        see(p.value.status);
      } else if (p.$case === 'artifactUpdate') {
        answer.delta(partsText(p.value.artifact?.parts));
      } else {
        Object.assign(ids, { taskId: p.value.taskId || ids.taskId, contextId: p.value.contextId || ids.contextId });
        see(p.value.status);
      }
    }
  } catch (e) {
    answer.close();
    if (run.signal.aborted && ids.taskId) void client.cancelTask({ tenant: '', id: ids.taskId, metadata: undefined }).catch(() => {});
    throw e;
  } finally {
    run.signal.removeEventListener('abort', onAbort);
  }
  const state = end?.status.state;
  const said = partsText(end?.status.message?.parts);
  if (state === S.inputRequired) {
    answer.close();
    return { ...ids, question: said };
  }
  if (state === S.completed || (state === undefined && answer.any)) {
    if (!answer.any) answer.final(said);
    answer.close();
    return ids;
  }
  answer.close();
  const who = `the A2A agent at ${run.url}`;
  const why = said ? `: ${said}` : '';
  if (state === S.authRequired) throw new Error(`${who} needs authentication (auth-required)${why}; adk does not sign in to A2A agents`);
  if (state === S.failed) throw new Error(`${who} failed the task${why}`);
  if (state === S.rejected) throw new Error(`${who} rejected the task${why}`);
  if (state === S.canceled) throw new Error(`${who} cancelled the task${why}`);
  throw new Error(`${who} ended its stream without an answer`);
}

/** The answer's text as adk events: one stream of deltas when streaming, else one message at the end. */
class AnswerText {
  private stream?: MessageStream;
  private text = '';
  private artifacts = '';
  any = false;

  constructor(private readonly run: TaskRun) {}

  delta(text: string): void {
    if (!text) return;
    this.any = true;
    this.text += text;
    if (!this.run.streaming) return;
    if (!this.stream) {
      this.stream = new MessageStream();
      this.run.emit(streamEvent(this.stream));
    }
    this.stream.push({ role: 'assistant', content: text });
  }

  /** Artifacts of a whole task: used only when nothing was streamed. */
  artifact(text: string): void {
    this.artifacts += text;
  }

  final(text: string): void {
    this.delta(text || this.artifacts);
  }

  close(): void {
    if (this.stream) this.stream.close();
    else if (this.text) this.run.emit(messageEvent(assistantMessage(this.text)));
    this.text = '';
  }
}
