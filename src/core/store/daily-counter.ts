import type { SharedCounter } from '../agents/run-budget.js';
import type { KeyValueStore } from './key-value-store.js';

/** Kept two days: long enough for a run that spans midnight to read yesterday's, then gone. */
const KEEP_MS = 48 * 3_600_000;

/** Today's (UTC) budget counters in `kv`, shared by every process on the same store. */
export function dailyCounter(kv: KeyValueStore, now: () => Date = () => new Date()): SharedCounter {
  const key = (name: string) => `budget-daily:${now().toISOString().slice(0, 10)}:${name}`;
  return {
    add: (name, amount) => kv.counters.add(key(name), amount, KEEP_MS),
    get: (name) => kv.counters.get(key(name)),
    where: kv.describe(),
  };
}
