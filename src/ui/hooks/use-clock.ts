import { useEffect, useLayoutEffect, useReducer, useRef } from 'react';

/** One timer per interval, shared by every subscriber: ten spinners cost one timer, not ten. */
const tickers = new Map<number, { listeners: Set<() => void>; timer: ReturnType<typeof setInterval> }>();

function subscribe(intervalMs: number, listener: () => void): () => void {
  let t = tickers.get(intervalMs);
  if (!t) {
    const entry = { listeners: new Set<() => void>(), timer: setInterval(() => entry.listeners.forEach((l) => l()), intervalMs) };
    t = entry;
    tickers.set(intervalMs, t);
  }
  const ticker = t;
  ticker.listeners.add(listener);
  return () => {
    ticker.listeners.delete(listener);
    if (!ticker.listeners.size) {
      clearInterval(ticker.timer);
      tickers.delete(intervalMs);
    }
  };
}

/**
 * The time now, for animations and timers: the component re-renders every `intervalMs` while
 * `active`, unless something else re-rendered it meanwhile. A streaming reply re-renders the app
 * every frame anyway, so a spinner then adds no frames of its own. Idle screens do not re-render.
 */
export function useClock(intervalMs: number, active = true): number {
  const [, wake] = useReducer((n: number) => n + 1, 0);
  const renderedAt = useRef(0);
  useLayoutEffect(() => {
    renderedAt.current = Date.now();
  });
  useEffect(() => {
    if (!active) return;
    return subscribe(intervalMs, () => {
      if (Date.now() - renderedAt.current >= intervalMs / 2) wake();
    });
  }, [intervalMs, active]);
  return Date.now();
}
