import type { RecordedEvent } from './agents/session.js';
import type { Session } from './agents/session.js';
import type { AgentInput } from './agents/events.js';
import type { HistoryEntry } from './agents/history.js';
import { CheckpointError } from './errors.js';
import { flattenSignal, type InterruptSignal, type PersistedPoint } from './interrupt.js';
import { CheckpointDecodeError, encodeValue, parseValue, PLAIN_TO_JSON, UnknownCheckpointTypeError } from './schema/value-codec.js';

export { registerCheckpointType, type CheckpointType } from './schema/value-codec.js';

/** Format version written into every checkpoint; checkpoints of another version are refused on resume. */
export const CHECKPOINT_VERSION = 1;

/**
 * Everything needed to resume a run in another process: JSON, versioned. Values JSON cannot carry
 * (Date, Map, Set, BigInt, Uint8Array, and types registered with registerCheckpointType) are written
 * as tagged objects and come back as themselves (see serializeCheckpoint).
 */
export interface Checkpoint {
  version: typeof CHECKPOINT_VERSION;
  rootInput: AgentInput;
  /** Earlier turns of the conversation the run belongs to. */
  history?: HistoryEntry[] | undefined;
  enableStreaming: boolean;
  runPath: string[];
  session: { values: Record<string, unknown>; events: RecordedEvent[] };
  /** Every interrupt point of the run, by id: address, info and the state its layer saved. */
  interrupts: Record<string, PersistedPoint>;
  /** Addresses of approved calls that started while resuming this checkpoint (at most once across crashes). */
  started?: string[] | undefined;
  createdAt: string;
}

/** What a checkpoint becomes once its run has finished: resuming it again is an error, never a second run. */
export interface ConsumedCheckpoint {
  version: typeof CHECKPOINT_VERSION;
  consumed: true;
  consumedAt: string;
}

/** The serialised ConsumedCheckpoint marker, stamped now, to store in place of a finished run's checkpoint. */
export function consumedCheckpoint(): string {
  const c: ConsumedCheckpoint = { version: CHECKPOINT_VERSION, consumed: true, consumedAt: new Date().toISOString() };
  return JSON.stringify(c);
}

/**
 * Where checkpoints live. Implementations store opaque strings. The Runner only gets and sets (a
 * resumed run's checkpoint is overwritten with a consumed marker); `delete` is for stores that can
 * drop a finished run's checkpoint (the session stores do).
 */
export interface CheckpointStore {
  get(id: string): Promise<string | undefined>;
  set(id: string, data: string): Promise<void>;
  delete?(id: string): Promise<void>;
}

/**
 * A checkpoint as the text a store keeps: JSON in which Dates, Maps, Sets, BigInts, Uint8Arrays and
 * registered types (registerCheckpointType), wherever they sit in session values or saved state, are
 * tagged objects parseCheckpoint turns back into themselves. `JSON.stringify` of a checkpoint from
 * buildCheckpoint or parseCheckpoint gives the same text.
 */
export function serializeCheckpoint(cp: Checkpoint): string {
  return JSON.stringify(encodeValue(cp));
}

/** A checkpoint's `toJSON`: JSON.stringify(cp) writes what serializeCheckpoint writes. */
function checkpointToJSON(this: Checkpoint): unknown {
  return encodeValue(this);
}
Object.defineProperty(checkpointToJSON, PLAIN_TO_JSON, { value: true });

/** Gives a checkpoint object its (non-enumerable) codec-aware toJSON. */
function withCodec(cp: Checkpoint): Checkpoint {
  Object.defineProperty(cp, 'toJSON', { value: checkpointToJSON, enumerable: false, writable: true, configurable: true });
  return cp;
}

/** Snapshots an interrupted run (input, session, interrupt points) as a Checkpoint; history is kept only when non-empty. */
export async function buildCheckpoint(
  rootInput: AgentInput,
  session: Session,
  signal: InterruptSignal,
  runPath: string[],
  enableStreaming: boolean,
  history?: HistoryEntry[],
): Promise<Checkpoint> {
  return withCodec({
    version: CHECKPOINT_VERSION,
    rootInput: { messages: rootInput.messages },
    ...(history?.length ? { history } : {}),
    enableStreaming,
    runPath,
    session: { values: session.values, events: await session.materialize() },
    interrupts: flattenSignal(signal),
    createdAt: new Date().toISOString(),
  });
}

/**
 * Reads a stored checkpoint (tagged values become themselves again; plain JSON written before tags
 * existed reads as it is). Throws CheckpointError when the text is corrupt, of another version, holds
 * a type this process has not registered, or is the marker of a checkpoint already consumed.
 */
export function parseCheckpoint(id: string, text: string): Checkpoint {
  let data: unknown;
  try {
    data = parseValue(text);
  } catch (e) {
    if (e instanceof UnknownCheckpointTypeError) {
      throw new CheckpointError(
        'checkpoint_type',
        id,
        `checkpoint ${id} holds a value of type "${e.typeName}" that this process has not registered: call registerCheckpointType('${e.typeName}', { ctor, encode, decode }) before resuming, as the process that wrote it did`,
      );
    }
    if (e instanceof CheckpointDecodeError) throw new CheckpointError('checkpoint_corrupt', id, `checkpoint ${id} is corrupt: ${e.message}`);
    throw new CheckpointError('checkpoint_corrupt', id, `checkpoint ${id} is corrupt: ${(e as Error).message}`);
  }
  const cp = data as Partial<Checkpoint>;
  if (!cp || typeof cp !== 'object' || Array.isArray(cp)) throw new CheckpointError('checkpoint_corrupt', id, `checkpoint ${id} is corrupt: not an object`);
  const consumed = data as Partial<ConsumedCheckpoint>;
  if (consumed.consumed === true) {
    throw new CheckpointError(
      'checkpoint_consumed',
      id,
      `checkpoint ${id} was already resumed and its run finished (${consumed.consumedAt ?? 'earlier'}); resuming it again would run its tools twice`,
    );
  }
  if (cp.version === undefined) throw new CheckpointError('checkpoint_corrupt', id, `checkpoint ${id} is corrupt: it has no version`);
  if (cp.version !== CHECKPOINT_VERSION) {
    throw new CheckpointError(
      'checkpoint_version',
      id,
      `checkpoint ${id} has version ${JSON.stringify(cp.version)}; this adk reads version ${CHECKPOINT_VERSION}`,
    );
  }
  if (!cp.rootInput?.messages || !cp.session?.events || !cp.interrupts || typeof cp.session.values !== 'object') {
    throw new CheckpointError('checkpoint_corrupt', id, `checkpoint ${id} is corrupt: missing fields`);
  }
  return withCodec(cp as Checkpoint);
}

/** The in-memory store (one class: adk/testing and adk export the same). */
