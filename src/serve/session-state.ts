import type { SessionStatus } from '../core/store/session-record.js';
import type { ServedStatus } from './response-schemas.js';

/**
 * The one status word of the API. The store says `active` from a turn's start to its end, and of a
 * session no turn ran in yet; the server knows whether a turn really runs (a process that died
 * mid-turn leaves `active` behind), so `active` is `running` only then, else `idle`.
 */
export function servedStatus(stored: SessionStatus, busy: boolean): ServedStatus {
  if (busy) return 'running';
  return stored === 'active' ? 'idle' : stored;
}

/** The stopped turn can be continued (answered, or resumed after a cancel at a safe point). */
export function isResumable(r: { status: SessionStatus; checkpointId?: string | undefined }, busy: boolean): boolean {
  return !busy && !!r.checkpointId && (r.status === 'interrupted' || r.status === 'cancelled');
}
