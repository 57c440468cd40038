import { sleep } from '../abort.js';
import { cancelledBy, RetryExhaustedError, WillRetryError, toError } from '../errors.js';
import type { ChatModel, ModelCallOptions } from '../models/chat-model.js';
import { retryDelay, type RetryPolicy } from '../models/retry.js';
import type { Message } from '../schema/message.js';
import { MessageStream } from '../schema/message-stream.js';
import type { CallIds } from './call-ids.js';
import { messageEvent, streamEvent, type AgentEvent } from './types.js';

export interface ModelStepEnv {
  model: ChatModel;
  agentName: string;
  streaming: boolean;
  retry: RetryPolicy;
  signal: AbortSignal;
  emit(event: AgentEvent): void;
  /** Gives every tool call an id unique in the run, whatever the provider sent. */
  callIds: CallIds;
}

/**
 * One model call: emits the assistant message event (a stream is emitted on its first chunk, so an
 * attempt that fails before answering leaves no trace) and retries retryable failures, each retry
 * announced as an event. A stream that fails mid-way is closed with WillRetryError so consumers
 * drop its partial text.
 */
export async function callModel(env: ModelStepEnv, messages: Message[], options: ModelCallOptions): Promise<Message> {
  const opts = { ...options, signal: env.signal };
  for (let attempt = 1; ; attempt++) {
    let stream: MessageStream | undefined;
    try {
      if (!env.streaming) {
        const msg = env.callIds.assign(await env.model.generate(messages, opts));
        env.emit(named(messageEvent(msg), env.agentName));
        return msg;
      }
      const assignIds = env.callIds.streamAssigner();
      for await (const chunk of env.model.stream(messages, opts)) {
        if (!stream) {
          stream = new MessageStream();
          env.emit(named(streamEvent(stream), env.agentName));
        }
        stream.push(assignIds(chunk));
      }
      if (!stream) {
        stream = new MessageStream();
        env.emit(named(streamEvent(stream), env.agentName));
      }
      stream.close();
      return stream.snapshot();
    } catch (e) {
      const err = toError(e);
      if (env.signal.aborted) {
        stream?.close(cancelledBy(env.signal));
        throw cancelledBy(env.signal);
      }
      if (attempt <= Math.min(env.retry.maxRetries, retryLimitOf(err)) && env.retry.shouldRetry(err)) {
        stream?.close(new WillRetryError(attempt, err));
        const delayMs = retryDelay(env.retry, attempt, err);
        env.emit({ agentName: env.agentName, runPath: [], retry: { attempt, delayMs, error: err.message } });
        await sleep(delayMs, env.signal);
        continue;
      }
      stream?.close(err);
      throw attempt > 1 ? new RetryExhaustedError(attempt, err) : err;
    }
  }
}

function named(e: AgentEvent, agentName: string): AgentEvent {
  e.agentName = agentName;
  return e;
}

/** An error may cap its own retries (a malformed tool call is worth one new sample, not three). */
function retryLimitOf(err: unknown): number {
  const limit = (err as { retryLimit?: unknown } | null)?.retryLimit;
  return typeof limit === 'number' ? limit : Number.POSITIVE_INFINITY;
}
