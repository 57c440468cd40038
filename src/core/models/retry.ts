import { isRetryable, ModelHttpError } from '../errors.js';

/** How failed model calls are retried: how often, the backoff bounds (milliseconds) and which errors qualify. */
export interface RetryPolicy {
  /** Retries after the first attempt; 0 disables retrying. */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  shouldRetry(error: unknown): boolean;
}

/** Three retries, backoff from 250 ms up to 20 s, for the errors isRetryable accepts. */
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

/**
 * Overrides of the retry policy from the environment: ADK_MAX_RETRIES (retries after the first
 * attempt) and ADK_RETRY_BASE_MS (the first backoff delay). Invalid values are ignored.
 */
export function retryPolicyFromEnv(env: Record<string, string | undefined> = process.env): Partial<RetryPolicy> {
  const out: Partial<RetryPolicy> = {};
  const retries = nonNegativeInt(env.ADK_MAX_RETRIES);
  if (retries !== undefined) out.maxRetries = retries;
  const base = nonNegativeInt(env.ADK_RETRY_BASE_MS);
  if (base !== undefined) out.baseDelayMs = base;
  return out;
}

function nonNegativeInt(raw: string | undefined): number | undefined {
  const t = raw?.trim();
  return t && /^\d+$/.test(t) ? Number(t) : undefined;
}
