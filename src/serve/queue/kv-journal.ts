import type { JournalEntry, JournalStore } from '../../core/agents/run-journal.js';
import type { KeyValueStore } from '../../core/store/key-value-store.js';

/**
 * A turn's journal in the session store, under its own prefix; `clear()` once the turn has ended.
 * A replay reads every entry the earlier attempt wrote, so the keys this attempt touched are all
 * there are: clearing them needs no scan of the store.
 */
export function kvJournal(kv: KeyValueStore, sessionId: string, turnId: string): JournalStore & { clear(): Promise<void>; clearAll(): Promise<void> } {
  const prefix = `journal:${sessionId}:${turnId}:`;
  const touched = new Set<string>();
  return {
    async read(key) {
      const text = await kv.get(prefix + key);
      if (text === undefined) return undefined;
      touched.add(prefix + key);
      return JSON.parse(text) as JournalEntry;
    },
    async write(key, entry) {
      touched.add(prefix + key);
      await kv.set(prefix + key, JSON.stringify(entry));
    },
    forget: async (key) => void (await kv.delete(prefix + key)),
    clear: async () => {
      if (touched.size) await kv.deleteMany([...touched]);
    },
    /** Every entry of the turn, found by listing (a turn this attempt did not run: rare). */
    clearAll: async () => kv.deleteMany(await kv.list(prefix)),
  };
}
