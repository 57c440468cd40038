import type { CheckpointStore } from '../checkpoint.js';
import type { KeyValueStore } from './key-value-store.js';
import { redactJsonText, secretsFromEnv } from './redact.js';

/** Where the Runner keeps interrupted runs (one interface: the Runner's, in checkpoint.ts). */
export type { CheckpointStore } from '../checkpoint.js';

/** Key prefix of checkpoints in a shared key-value store. */
export const CHECKPOINT_PREFIX = 'checkpoint:';

/** Which values a store replaces by `[REDACTED]` before writing: secrets found in the environment (see secretsFromEnv), plus `secrets`. */
export interface SecretOptions {
  /** Extra values never to persist (e.g. a key from `adk config`), added to those found in process.env. */
  secrets?: (readonly string[] | (() => readonly string[])) | undefined;
  /** Environment scanned for secrets on every save (default process.env). */
  env?: NodeJS.ProcessEnv | undefined;
}

export function secretsFor(opts: SecretOptions): string[] {
  const extra = typeof opts.secrets === 'function' ? opts.secrets() : (opts.secrets ?? []);
  return [...secretsFromEnv(opts.env ?? process.env), ...extra];
}

/** Checkpoints under `checkpoint:<id>`; known secrets are replaced by `[REDACTED]` before writing. */
export class KeyValueCheckpointStore implements CheckpointStore {
  constructor(
    private readonly kv: KeyValueStore,
    private readonly opts: SecretOptions = {},
  ) {}

  get(id: string): Promise<string | undefined> {
    return this.kv.get(CHECKPOINT_PREFIX + id);
  }

  set(id: string, data: string): Promise<void> {
    return this.kv.set(CHECKPOINT_PREFIX + id, redactJsonText(data, secretsFor(this.opts)));
  }

  async delete(id: string): Promise<void> {
    await this.kv.delete(CHECKPOINT_PREFIX + id);
  }

  /** Ids of the stored checkpoints. */
  async list(): Promise<string[]> {
    return (await this.kv.list(CHECKPOINT_PREFIX)).map((k) => k.slice(CHECKPOINT_PREFIX.length));
  }
}

/**
 * A CheckpointStore in a Map, for tests and single-process runs (nothing survives the process), with
 * the same redaction as the persistent store.
 */
export class InMemoryCheckpointStore implements CheckpointStore {
  readonly data = new Map<string, string>();
  constructor(private readonly opts: SecretOptions = {}) {}

  async get(id: string): Promise<string | undefined> {
    return this.data.get(id);
  }

  async set(id: string, data: string): Promise<void> {
    this.data.set(id, redactJsonText(data, secretsFor(this.opts)));
  }

  async delete(id: string): Promise<void> {
    this.data.delete(id);
  }
}
