import { useClock } from './use-clock.js';

/**
 * Milliseconds since `startedAt`, refreshed at least every second while running. Pass `paused`
 * while a prompt waits for a person, so the screen stays still during a review.
 */
export function useElapsed(startedAt: number | undefined, paused = false): number {
  const now = useClock(1000, startedAt !== undefined && !paused);
  return startedAt === undefined ? 0 : now - startedAt;
}
