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

/**
 * Checkpoints under `checkpoint:<id>`; known secrets are replaced by `[REDACTED]` before writing.
 *
 * A checkpoint that redaction changed is also kept as it was, in this process's memory only, and
 * read back as it was while the store still holds exactly what this process wrote: a call approved
 * while adk waits (the REPL, `adk serve`) runs with the arguments the person was shown. Another
 * process (a later `adk resume`, another worker) reads the redacted text; the approval middleware
 * then refuses a call whose arguments lost a secret instead of running `[REDACTED]`.
 */
export class KeyValueCheckpointStore implements CheckpointStore {
  private readonly live = new Map<string, { stored: string; data: string }>();

  constructor(
    private readonly kv: KeyValueStore,
    private readonly opts: SecretOptions = {},
  ) {}

  async get(id: string): Promise<string | undefined> {
    const stored = await this.kv.get(CHECKPOINT_PREFIX + id);
    const live = this.live.get(id);
    return live && live.stored === stored ? live.data : stored;
  }

  async set(id: string, data: string): Promise<void> {
    const stored = redactJsonText(data, secretsFor(this.opts));
    this.live.delete(id);
    await this.kv.set(CHECKPOINT_PREFIX + id, stored);
    if (stored !== data) this.live.set(id, { stored, data });
  }

  async delete(id: string): Promise<void> {
    this.live.delete(id);
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
