import { useEffect, useRef, useState } from 'react';
import { FRAME_MS } from './use-batched-reducer.js';

/** `value`, but changing at most once per `ms`; the latest value always shows in the end. */
export function useThrottledValue<T>(value: T, ms = FRAME_MS): T {
  const [shown, setShown] = useState(value);
  const last = useRef(0);
  useEffect(() => {
    const wait = ms - (Date.now() - last.current);
    if (wait <= 0) {
      last.current = Date.now();
      setShown(() => value);
      return;
    }
    const t = setTimeout(() => {
      last.current = Date.now();
      setShown(() => value);
    }, wait);
    return () => clearTimeout(t);
  }, [value, ms]);
  return shown;
}
