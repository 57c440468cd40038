import { isRetryable, ModelHttpError } from '../errors.js';

export interface RetryPolicy {
  /** Retries after the first attempt; 0 disables retrying. */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  shouldRetry(error: unknown): boolean;
}

export const defaultRetryPolicy: RetryPolicy = {
  maxRetries: 3,
  baseDelayMs: 250,
  maxDelayMs: 20_000,
  shouldRetry: isRetryable,
};

/** Exponential backoff with up to 50% jitter; a server's Retry-After wins when it is given. */
export function retryDelay(policy: RetryPolicy, attempt: number, error: unknown, random = Math.random): number {
  if (error instanceof ModelHttpError && error.retryAfterMs !== undefined) {
    return Math.min(error.retryAfterMs, policy.maxDelayMs * 3);
  }
  const exp = Math.min(policy.baseDelayMs * 2 ** (attempt - 1), policy.maxDelayMs);
  return Math.round(exp * (1 + random() * 0.5));
}
