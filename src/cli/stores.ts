import type { AdkStores } from '../core/store/index.js';

/** Opens the store named by ADK_STORE (else the SQLite file under ADK_HOME); loaded on demand. */
export async function openStores(): Promise<AdkStores> {
  const { openAdkStores } = await import('../core/store/index.js');
  return openAdkStores();
}
