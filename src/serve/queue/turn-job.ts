import type { TurnStep } from '../served-session.js';

/** The BullMQ queue turns wait in. */
export const TURN_QUEUE = 'adk-turns';

/** One queued turn (or continuation after interrupts) of one session. */
export interface TurnJob {
  sessionId: string;
  /** The job id too: a session holds one turn at a time, by this id. */
  turnId: string;
  step: TurnStep;
  /** The session's claim in Redis (`<turnId>@<ms>`): the turn's `done` frees it. */
  claim: string;
}
