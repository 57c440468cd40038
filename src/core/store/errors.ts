import { AdkError } from '../errors.js';

export type StoreErrorCode = 'store_locked' | 'store_unavailable' | 'store_failed';

/** A key-value backend failed. The message names the store without credentials. */
export class StoreError extends AdkError {
  declare readonly code: StoreErrorCode;
  constructor(
    code: StoreErrorCode,
    message: string,
    readonly store: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}

export type SessionStoreErrorCode = 'session_corrupt' | 'session_version' | 'session_invalid' | 'session_not_found' | 'session_ambiguous';

/** A session record could not be read or an id did not resolve. The message names the session. */
export class SessionStoreError extends AdkError {
  declare readonly code: SessionStoreErrorCode;
  constructor(
    code: SessionStoreErrorCode,
    readonly sessionId: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}

/** A short reason for a low-level error: some (AggregateError from net) carry no message, only codes. */
export function describeCause(e: unknown): string {
  if (e instanceof AggregateError && e.errors.length) {
    const inner = e.errors.map(describeCause).filter(Boolean);
    if (inner.length) return [...new Set(inner)].join('; ');
  }
  if (e instanceof Error) {
    const code = (e as { code?: unknown }).code;
    if (e.message) return e.message;
    if (typeof code === 'string') return code;
    return e.name;
  }
  return String(e);
}
