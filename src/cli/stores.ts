import type { AdkStores } from '../core/store/index.js';
import { configSecretValues } from './secrets.js';

/**
 * Opens the store named by ADK_STORE (else the SQLite file under ADK_HOME); loaded on demand.
 * ADK_STORE_LOCK_TIMEOUT_MS sets how long SQLite waits on another process's lock before each retry.
 */
export async function openStores(env: NodeJS.ProcessEnv = process.env): Promise<AdkStores> {
  const { openAdkStores } = await import('../core/store/index.js');
  const lock = env.ADK_STORE_LOCK_TIMEOUT_MS?.trim();
  const busy = lock && /^\d+$/.test(lock) && Number(lock) > 0 ? { busyTimeoutMs: Number(lock) } : {};
  return openAdkStores(undefined, { ...busy, secrets: configSecretValues });
}
