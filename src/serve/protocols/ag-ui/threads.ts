import type { AdkStores } from '../../../core/store/adk-stores.js';

const KEY = (thread: string) => `ag-ui-thread:${thread}`;

/** AG-UI threads → adk sessions, kept in the store so a thread outlives the server. */
export class AgUiThreads {
  constructor(private readonly stores: AdkStores) {}

  async session(thread: string): Promise<string | undefined> {
    const raw = await this.stores.kv.get(KEY(thread));
    return typeof raw === 'string' && raw ? raw : undefined;
  }

  async bind(thread: string, session: string): Promise<void> {
    await this.stores.kv.set(KEY(thread), session);
  }
}
