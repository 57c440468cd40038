/** Base class: every error adk raises on purpose. `code` is stable and machine-readable. */
export class AdkError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/**
 * The model stopped before finishing its reply: it hit the token limit (`length`), a safety filter
 * (`content_filter`) or declined (`refusal`, the model's own words kept and shown). The partial reply
 * is kept; the turn ends as incomplete rather than completed. `detail` replaces the generic message
 * (e.g. naming a tool call that was cut off and not run).
 */
export class IncompleteReplyError extends AdkError {
  constructor(readonly reason: string, detail?: string) {
    super(
      'incomplete',
      detail ??
        (reason === 'length'
          ? 'the reply is incomplete: the model stopped at its token limit (finish_reason: length); raise max_tokens on the model or ask for a shorter answer'
          : reason === 'content_filter'
            ? "the reply is incomplete: the provider's content filter stopped it (finish_reason: content_filter)"
            : reason === 'refusal'
              ? 'the model refused to answer (refusal)'
              : `the reply is incomplete (finish_reason: ${reason})`),
    );
  }
}

/**
 * A run reached one of its budgets (`max_model_calls`, `max_tool_calls`, `max_tokens`, `max_cost`): checked before
 * a call starts, so no call is cut in half. The run ends incomplete (reason `budget`); the session is
 * saved and a new prompt continues it.
 */
export class BudgetExceededError extends IncompleteReplyError {
  constructor(
    readonly budget: string,
    readonly spent: number,
    readonly limit: number,
    detail?: string,
  ) {
    super('budget', detail ?? `budget reached: ${budget} (${spent} spent of ${limit}); the run stopped before the next call`);
  }
}

/** The model's final answer did not match the agent's output schema, after every retry. */
export class StructuredOutputError extends AdkError {
  constructor(
    readonly attempts: number,
    readonly problem: string,
    /** The last answer, as the model wrote it. */
    readonly text: string,
  ) {
    super('structured_output', `the answer did not match the output schema after ${attempts} attempt(s): ${problem}`);
  }
}

/** Finish reasons after which the reply is not the model's whole answer. */
export const INCOMPLETE_FINISH_REASONS: ReadonlySet<string> = new Set(['length', 'content_filter', 'refusal']);

/**
 * A chat agent used up its model-call budget (`maxIterations`, `max_iterations:` in agents.yaml)
 * before giving a final answer. Raise the limit or give the agent a narrower task.
 */
export class MaxIterationsError extends AdkError {
  constructor(readonly maxIterations: number) {
    super('max_iterations', `exceeds max iterations (${maxIterations})`);
  }
}

/** The model endpoint answered with an HTTP error status. */
export class ModelHttpError extends AdkError {
  constructor(
    readonly status: number,
    message: string,
    readonly retryAfterMs?: number,
    options?: { cause?: unknown; providerCode?: string; retryable?: boolean },
  ) {
    super('model_http', `model request failed with HTTP ${status}: ${message}`, options);
    this.providerCode = options?.providerCode;
    this.retryableOverride = options?.retryable;
  }
  /** Set when the body tells more than the status (a 500 that is a server setup problem, not a glitch). */
  private readonly retryableOverride?: boolean | undefined;
  /** The provider's own error code from the body (e.g. Groq's `tool_use_failed`). */
  readonly providerCode?: string | undefined;
  get retryable(): boolean {
    if (this.retryableOverride !== undefined) return this.retryableOverride;
    // Groq answers 400 `tool_use_failed` when the model wrote a malformed call: a new sample usually works.
    if (this.providerCode === 'tool_use_failed') return true;
    return this.status === 408 || this.status === 409 || this.status === 429 || this.status >= 500;
  }
  /** Most retries worth making for this error, whatever the policy allows. */
  get retryLimit(): number {
    return this.providerCode === 'tool_use_failed' ? 1 : Number.POSITIVE_INFINITY;
  }
}

/** The connection failed, was reset, or the response was not a valid stream. */
export class ModelConnectionError extends AdkError {
  constructor(message: string, readonly retryable = true, options?: { cause?: unknown }) {
    super('model_connection', message, options);
  }
}

/**
 * A model call timed out: the whole request (`phase: 'request'`) or the wait between stream chunks
 * (`phase: 'idle'`); `timeoutMs` is in milliseconds. Always retryable.
 */
export class ModelTimeoutError extends AdkError {
  constructor(readonly timeoutMs: number, readonly phase: 'request' | 'idle') {
    super(
      'model_timeout',
      phase === 'idle'
        ? `model stream sent nothing for ${timeoutMs} ms (idle timeout)`
        : `model request timed out after ${timeoutMs} ms`,
    );
  }
  get retryable(): boolean {
    return true;
  }
  /**
   * A stream that went silent is tried once more; a request that ran out its whole time is not
   * (three retries of a hung stream kept a person waiting four idle timeouts).
   */
  get retryLimit(): number {
    return this.phase === 'idle' ? 1 : 0;
  }
}

/** A streamed attempt failed and will be retried: consumers drop what that attempt streamed. */
export class WillRetryError extends AdkError {
  constructor(readonly attempt: number, override readonly cause: Error) {
    super('will_retry', `attempt ${attempt} failed and will be retried: ${cause.message}`);
  }
}

/** A model call still failed after retrying; `attempts` counts every try and `lastError` (also `cause`) is the final failure. */
export class RetryExhaustedError extends AdkError {
  constructor(readonly attempts: number, readonly lastError: Error) {
    super('retry_exhausted', `exceeds max retries (${attempts} attempts): last error: ${lastError.message}`, {
      cause: lastError,
    });
  }
}

/**
 * The run was cancelled through its abort signal. A run result reports it as status `cancelled`
 * rather than `error`; when the run was saved at a safe point, its checkpoint can be resumed.
 */
export class CancelledError extends AdkError {
  /** What the caller passed to `abort(reason)`, when it passed one. */
  readonly reason?: unknown | undefined;
  constructor(message = 'run cancelled', options: { reason?: unknown } = {}) {
    const said = reasonText(options.reason);
    super('cancelled', said ? `${message}: ${said}` : message, options.reason === undefined ? undefined : { cause: options.reason });
    if (options.reason !== undefined) this.reason = options.reason;
  }
}

/** The cancellation of `signal`, keeping the reason its caller gave to `abort(reason)`. */
export function cancelledBy(signal: AbortSignal | undefined, message?: string): CancelledError {
  const reason = signal?.reason;
  // A plain `abort()` sets a DOMException AbortError: that says nothing the message does not.
  const given = reason instanceof CancelledError ? reason.reason : reason && !(reason instanceof Error && reason.name === 'AbortError') ? reason : undefined;
  return new CancelledError(message, given === undefined ? {} : { reason: given });
}

function reasonText(reason: unknown): string | undefined {
  if (reason === undefined || reason === null) return undefined;
  if (reason instanceof Error) return reason.message || reason.name;
  return typeof reason === 'string' ? reason : JSON.stringify(reason);
}

/** An agent asked to transfer to `target`, but no agent of that name is reachable from `from`. */
export class TransferError extends AdkError {
  constructor(readonly target: string, readonly from: string) {
    super('transfer_failed', `transfer failed: agent '${target}' not found when transferring from '${from}'`);
  }
}

/**
 * A checkpoint could not be used to resume: it does not exist, cannot be parsed, was written by
 * another checkpoint version, holds a value of a type this process has not registered
 * (registerCheckpointType), or was already consumed by an earlier resume (see `code`).
 */
export class CheckpointError extends AdkError {
  constructor(
    code: 'checkpoint_not_found' | 'checkpoint_corrupt' | 'checkpoint_version' | 'checkpoint_consumed' | 'checkpoint_type' | 'checkpoint_pending',
    readonly checkpointId: string,
    message: string,
  ) {
    super(code, message);
  }
}

/** The configuration (agents.yaml, a store URL, a tool or middleware module, model settings) is invalid; the message says what to fix. */
export class ConfigError extends AdkError {
  constructor(message: string) {
    super('config', message);
  }
}

/**
 * An image or file part that cannot be sent: not a supported type (`unsupported_part`), over its size
 * limit (`part_too_large`), sent to a model without vision (`no_vision`), or whose stored bytes are
 * gone (`part_missing`). Raised before any request.
 */
export class ContentPartError extends AdkError {
  constructor(code: 'unsupported_part' | 'part_too_large' | 'no_vision' | 'part_missing', message: string) {
    super(code, message);
  }
}

/** True for model errors worth retrying: timeouts, retryable connection failures, and HTTP 408/409/429/5xx (see `ModelHttpError.retryable`). */
export function isRetryable(e: unknown): boolean {
  if (e instanceof ModelHttpError || e instanceof ModelTimeoutError || e instanceof ModelConnectionError) return e.retryable;
  return false;
}

/** Normalises a thrown value to an `Error`; non-errors become an `Error` with their string or JSON text. */
export function toError(e: unknown): Error {
  if (e instanceof Error) return e;
  return new Error(typeof e === 'string' ? e : JSON.stringify(e));
}

/** True for a cancellation: a `CancelledError`, a DOM `AbortError` or the OpenAI SDK's `APIUserAbortError`. */
export function isAbortError(e: unknown): boolean {
  return e instanceof CancelledError || (e instanceof Error && (e.name === 'AbortError' || e.name === 'APIUserAbortError'));
}
