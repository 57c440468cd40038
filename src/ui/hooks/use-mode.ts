import { useCallback, useRef, useState } from 'react';

/**
 * A prompt's mode, readable at once through `current()`: keys of one stdin chunk arrive before
 * React re-renders, so `n` then `y` typed together must see the mode `n` switched to.
 */
export function useMode<M extends string>(initial: M): [M, (m: M) => void, () => M] {
  const [mode, setState] = useState(initial);
  const ref = useRef(initial);
  const set = useCallback((m: M) => {
    ref.current = m;
    setState(m);
  }, []);
  const current = useCallback(() => ref.current, []);
  return [mode, set, current];
}
