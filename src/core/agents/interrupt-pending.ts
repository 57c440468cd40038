import type { InterruptContext } from '../interrupt.js';

/**
 * A point that already waits for a person while other branches of a parallel workflow still run:
 * the run interrupts (and can be resumed) only once they finish, but a UI can ask at once. The same
 * ids come again in the run's interrupt.
 */
export interface InterruptPendingEvent {
  type: 'interrupt_pending';
  contexts: InterruptContext[];
}

/** Whether a custom event is an `interrupt_pending` notice. */
export function isInterruptPendingEvent(v: unknown): v is InterruptPendingEvent {
  return !!v && typeof v === 'object' && (v as { type?: unknown }).type === 'interrupt_pending' && Array.isArray((v as { contexts?: unknown }).contexts);
}
