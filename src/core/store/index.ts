export type { KeyValueStore } from './key-value-store.js';
export { openKeyValueStore, type OpenStoreOptions } from './open-store.js';
export { parseStoreUrl, defaultAdkHome, SUPPORTED_STORE_SCHEMES, type StoreKind, type StoreLocation } from './store-url.js';
export { StoreError, SessionStoreError, type StoreErrorCode, type SessionStoreErrorCode } from './errors.js';
export { withRetry, type RetryOptions } from './retry.js';
export { redactSecrets, redactJsonText, secretsFromEnv, containsSecret, REDACTED } from './redact.js';
export {
  KeyValueCheckpointStore,
  InMemoryCheckpointStore,
  CHECKPOINT_PREFIX,
  type CheckpointStore,
  type SecretOptions,
} from './checkpoint-store.js';
export {
  SessionStore,
  newSessionId,
  parseSessionRecord,
  SESSION_PREFIX,
  type SessionInit,
  type SessionSummary,
  type CorruptSessionEntry,
  type SessionListEntry,
  type SessionStoreOptions,
} from './session-store.js';
export {
  SESSION_VERSION,
  titleFrom,
  type SessionRecord,
  type SessionStatus,
  type PendingInterrupt,
  type SessionGoal,
} from './session-record.js';
export { openAdkStores, type AdkStores } from './adk-stores.js';
export { lockSession, SessionInUseError, DEFAULT_LEASE_TTL_MS, type SessionLease, type LeaseHolder, type LockOptions } from './session-lock.js';
