import { sleep } from '../abort.js';
import { AdkError, ConfigError, toError } from '../errors.js';
import { StoreError, SessionStoreError } from './errors.js';
import { backoffMs } from './key-value-store.js';

/** Options of withRetry; delays are in milliseconds (backoff from 100 up to 2000 by default). */
export interface RetryOptions {
  /** Total attempts, the first included (default 4). */
  attempts?: number | undefined;
  baseDelayMs?: number | undefined;
  maxDelayMs?: number | undefined;
  signal?: AbortSignal | undefined;
  /** Which failures are worth another attempt (default: everything but config and record errors). */
  retryable?: ((e: Error) => boolean) | undefined;
  onRetry?: ((e: Error, attempt: number, delayMs: number) => void) | undefined;
  /** Names the operation in the final error, e.g. "saving session ab12cd34". */
  what?: string | undefined;
}

const defaultRetryable = (e: Error) => !(e instanceof ConfigError || e instanceof SessionStoreError || e instanceof TypeError);

/**
 * Runs a save with bounded attempts and exponential backoff, e.g. before exiting after Ctrl-C.
 * The final error keeps the last failure's code and says how many attempts were made.
 */
export async function withRetry<T>(fn: (attempt: number) => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  const attempts = Math.max(1, opts.attempts ?? 4);
  const retryable = opts.retryable ?? defaultRetryable;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (raw) {
      const e = toError(raw);
      if (attempt >= attempts || !retryable(e) || opts.signal?.aborted) {
        if (attempt === 1) throw e;
        const what = opts.what ? `${opts.what} ` : '';
        const message = `${what}failed after ${attempt} attempts: ${e.message}`;
        if (e instanceof StoreError) throw new StoreError(e.code, message, e.store, { cause: e });
        throw new AdkError(e instanceof AdkError ? e.code : 'store_failed', message, { cause: e });
      }
      const delay = backoffMs(attempt - 1, opts.baseDelayMs ?? 100, opts.maxDelayMs ?? 2000);
      opts.onRetry?.(e, attempt, delay);
      await sleep(delay, opts.signal);
    }
  }
}
