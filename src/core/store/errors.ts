import { AdkError } from '../errors.js';

/**
 * `store_locked`: another process holds the SQLite file; `store_unavailable`: the backend cannot be
 * reached; `store_failed`: an operation failed (or the store is closed).
 */
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

/**
 * Why a session could not be used: unreadable (`corrupt`), written by another adk (`version`),
 * refused on save (`invalid`), or an id that matches no session or several (`not_found`, `ambiguous`).
 */
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
