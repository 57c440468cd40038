import type { SharedCounter } from '../agents/run-budget.js';
import type { KeyValueStore } from './key-value-store.js';

/** Kept two days: long enough for a run that spans midnight to read yesterday's, then gone. */
const KEEP_MS = 48 * 3_600_000;

/**
 * Today's (UTC) budget counters in `kv`, shared by every process on the same store; with a `scope`,
 * by those of that scope only (one serve token's runs, one queue's workers).
 */
export function dailyCounter(kv: KeyValueStore, scope?: string, now: () => Date = () => new Date()): SharedCounter {
  const prefix = scope ? `budget-daily:${encodeURIComponent(scope)}` : 'budget-daily';
  const key = (name: string) => `${prefix}:${now().toISOString().slice(0, 10)}:${name}`;
  return {
    add: (name, amount) => kv.counters.add(key(name), amount, KEEP_MS),
    get: (name) => kv.counters.get(key(name)),
    where: scope ? `${kv.describe()}, ${scope}` : kv.describe(),
  };
}
