import type { JournalEntry, JournalStore } from '../../core/agents/run-journal.js';
import type { KeyValueStore } from '../../core/store/key-value-store.js';

/** A turn's journal in the session store, under its own prefix; `clear()` once the turn has ended. */
export function kvJournal(kv: KeyValueStore, sessionId: string, turnId: string): JournalStore & { clear(): Promise<void> } {
  const prefix = `journal:${sessionId}:${turnId}:`;
  return {
    async read(key) {
      const text = await kv.get(prefix + key);
      return text === undefined ? undefined : (JSON.parse(text) as JournalEntry);
    },
    write: (key, entry) => kv.set(prefix + key, JSON.stringify(entry)),
    forget: async (key) => void (await kv.delete(prefix + key)),
    clear: async () => kv.deleteMany(await kv.list(prefix)),
  };
}
