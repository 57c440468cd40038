import { KeyValueCheckpointStore, secretsFor, type SecretOptions } from './checkpoint-store.js';
import type { KeyValueStore } from './key-value-store.js';
import { openKeyValueStore, type OpenStoreOptions } from './open-store.js';
import { SessionStore } from './session-store.js';

/** Sessions and checkpoints sharing one backend, as the CLI uses them. */
export interface AdkStores {
  kv: KeyValueStore;
  sessions: SessionStore;
  checkpoints: KeyValueCheckpointStore;
  /** The values the stores redact (found in the environment now, plus the store's own): runs keep them from models too. */
  secrets?: (() => string[]) | undefined;
  close(): Promise<void>;
}

/**
 * Opens the store at `url` (see openKeyValueStore for the default) and the session and checkpoint
 * stores on it; both redact the secrets of `opts` before writing. Call `close()` when done.
 */
export async function openAdkStores(url?: string, opts: OpenStoreOptions & SecretOptions = {}): Promise<AdkStores> {
  const kv = await openKeyValueStore(url, opts);
  const secrets: SecretOptions = { secrets: opts.secrets, env: opts.env };
  return { kv, sessions: new SessionStore(kv, secrets), checkpoints: new KeyValueCheckpointStore(kv, secrets), secrets: () => secretsFor(secrets), close: () => kv.close() };
}
