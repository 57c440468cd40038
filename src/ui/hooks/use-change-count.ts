import { useEffect, useState } from 'react';

/** Subscribes to a source's changes; returns the unsubscribe. */
export type ChangeSubscription = (listener: () => void) => () => void;

/**
 * A number that goes up each time the source says it changed: put it in a `useMemo`'s dependencies
 * so what was computed from the source is computed again (a picker whose list grew in the background).
 */
export function useChangeCount(subscribe: ChangeSubscription | undefined): number {
  const [count, setCount] = useState(0);
  useEffect(() => (subscribe ? subscribe(() => setCount((n) => n + 1)) : undefined), [subscribe]);
  return count;
}
