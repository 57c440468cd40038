import { useTick } from './use-tick.js';

/**
 * Milliseconds since `startedAt`, refreshed every second while running. Pass `paused` while a
 * prompt waits for a person, so the screen stays still during a review.
 */
export function useElapsed(startedAt: number | undefined, paused = false): number {
  useTick(1000, startedAt !== undefined && !paused);
  return startedAt === undefined ? 0 : Date.now() - startedAt;
}
