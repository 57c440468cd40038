import { useEffect, useState } from 'react';

/** One timer per interval, shared by every subscriber: ten spinners cost one timer, not ten. */
const tickers = new Map<number, { count: number; listeners: Set<(n: number) => void>; timer: ReturnType<typeof setInterval> }>();

function subscribe(intervalMs: number, listener: (n: number) => void): () => void {
  let t = tickers.get(intervalMs);
  if (!t) {
    const entry = { count: 0, listeners: new Set<(n: number) => void>(), timer: setInterval(() => {
      entry.count++;
      for (const l of entry.listeners) l(entry.count);
    }, intervalMs) };
    t = entry;
    tickers.set(intervalMs, t);
  }
  t.listeners.add(listener);
  return () => {
    t.listeners.delete(listener);
    if (!t.listeners.size) {
      clearInterval(t.timer);
      tickers.delete(intervalMs);
    }
  };
}

/** A counter that advances every `intervalMs` while `active`; idle screens do not re-render. */
export function useTick(intervalMs: number, active = true): number {
  const [n, setN] = useState(0);
  useEffect(() => (active ? subscribe(intervalMs, setN) : undefined), [intervalMs, active]);
  return n;
}
