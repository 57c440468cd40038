import { sleep } from '../abort.js';
import { cancelledBy, RetryExhaustedError, WillRetryError, toError } from '../errors.js';
import { withModelOptions, type ChatModel, type ModelCallOptions, type ModelTelemetry } from '../models/chat-model.js';
import { retryDelay, type RetryPolicy } from '../models/retry.js';
import { allowsFallback, modelChain } from '../models/fallback.js';
import { fallbackNotice } from '../models/model-notice.js';
import { failedAttemptUsage } from '../models/failed-attempt-usage.js';
import { assertVision } from '../models/vision.js';
import type { Message } from '../schema/message.js';
import { MessageStream } from '../schema/message-stream.js';
import { DeltaRedactor } from './delta-redactor.js';
import type { CallIds } from './call-ids.js';
import { fire, type ModelCallInfo, type RunCallbacks } from '../callbacks.js';
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
  /** Told of each request: start, chunks, reply, failure (the run's callbacks and tracing). */
  callbacks?: RunCallbacks | undefined;
  runPath?: readonly string[] | undefined;
  /** The run's secrets: streamed text is redacted before anyone sees a chunk (see DeltaRedactor). */
  secrets?: (() => readonly string[]) | undefined;
}

/**
 * One model call: emits the assistant message event (a stream is emitted on its first chunk, so an
 * attempt that fails before answering leaves no trace) and retries retryable failures, each retry
 * announced as an event. A stream that fails mid-way is closed with WillRetryError so consumers
 * drop its partial text.
 */
export async function callModel(env: ModelStepEnv, messages: Message[], options: ModelCallOptions): Promise<Message> {
  const chain = modelChain(env.model);
  for (let i = 0; ; i++) {
    const next = chain[i + 1];
    try {
      return await callOneModel({ ...env, model: chain[i]! }, messages, options, next ? allowsFallback : undefined);
    } catch (e) {
      // Retries spent on an unavailable provider: the next model of the chain answers, and says so.
      if (!next || env.signal.aborted || !allowsFallback(e)) throw e;
      env.emit({ agentName: env.agentName, runPath: [], output: { custom: fallbackNotice(chain[i]!.modelName, next.modelName, toError(e)) } });
    }
  }
}

/** One model of the chain with its retries; `fallsBack` says which final failures another model takes over. */
async function callOneModel(env: ModelStepEnv, messages: Message[], options: ModelCallOptions, fallsBack?: (e: unknown) => boolean): Promise<Message> {
  // Images to a model without vision: refused here, before the provider sees a request.
  assertVision(env.model, messages);
  const cb = env.callbacks;
  const request = cb && requestTelemetry(env.model.telemetry, options);
  for (let attempt = 1; ; attempt++) {
    let stream: MessageStream | undefined;
    const info: ModelCallInfo | undefined = cb && {
      agentName: env.agentName,
      runPath: env.runPath ?? [],
      model: env.model.modelName,
      attempt,
      messages,
      tools: options.tools,
      ...(request ? { request } : {}),
      ...(options.responseFormat ? { responseFormat: options.responseFormat } : {}),
    };
    // Observers learn who answered (response id, exact model) as the provider says.
    const opts: ModelCallOptions = { ...options, signal: env.signal, ...(info ? { onResponseInfo: (r) => ((info.response = { ...info.response, ...r }), options.onResponseInfo?.(r)) } : {}) };
    if (info) fire(cb, 'onModelStart', info);
    try {
      if (!env.streaming) {
        const msg = env.callIds.assign(await env.model.generate(messages, opts));
        if (info) fire(cb, 'onModelEnd', info, msg);
        env.emit(named(messageEvent(msg), env.agentName));
        return msg;
      }
      const assignIds = env.callIds.streamAssigner();
      const redactor = DeltaRedactor.of(env.secrets?.());
      for await (const raw of env.model.stream(messages, opts)) {
        if (!stream) {
          stream = new MessageStream();
          env.emit(named(streamEvent(stream), env.agentName));
        }
        const chunk = redactor ? redactor.chunk(assignIds(raw)) : assignIds(raw);
        if (info && cb!.onModelChunk) fire(cb, 'onModelChunk', info, chunk);
        stream.push(chunk);
      }
      if (!stream) {
        stream = new MessageStream();
        env.emit(named(streamEvent(stream), env.agentName));
      }
      const rest = redactor?.flush();
      if (rest) stream.push(rest);
      stream.close();
      const reply = stream.snapshot();
      if (info) fire(cb, 'onModelEnd', info, reply);
      return reply;
    } catch (e) {
      const err = toError(e);
      // An attempt that failed mid-stream was processed and partly answered: its usage counts too.
      if (info && stream && !env.signal.aborted) info.usage = await failedAttemptUsage(env.model.modelName, messages, options.tools, stream.snapshot());
      if (info) fire(cb, 'onModelError', info, env.signal.aborted ? cancelledBy(env.signal) : err);
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
      // A stream another model takes over is dropped as a retried attempt's would be.
      stream?.close(fallsBack?.(err) ? new WillRetryError(attempt, err) : err);
      throw attempt > 1 ? new RetryExhaustedError(attempt, err) : err;
    }
  }
}

/** A model's telemetry with this request's options over its own settings. */
function requestTelemetry(telemetry: ModelTelemetry | undefined, options: ModelCallOptions): ModelTelemetry | undefined {
  if (!telemetry) return undefined;
  const { extraBody: _, ...settings } = withModelOptions({ ...telemetry, extraBody: undefined }, options);
  return settings;
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
