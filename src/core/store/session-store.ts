import { randomInt } from 'node:crypto';
import type { Message } from '../schema/message.js';
import { secretsFor, type SecretOptions } from './checkpoint-store.js';
import { SessionStoreError, StoreError } from './errors.js';
import type { KeyValueStore } from './key-value-store.js';
import { redactJsonText } from './redact.js';
import { loadParts, storeParts, storedForm } from './part-store.js';
import {
  describeIssues,
  LEGACY_SESSION_VERSION,
  legacySessionRecordSchema,
  messageSchema,
  SESSION_VERSION,
  sessionMetadataSchema,
  titleFrom,
  type SessionPolicy,
  type SessionRecord,
  type SessionStatus,
} from './session-record.js';

/** Key prefix of session metadata records: `session:<id>`. */
export const SESSION_PREFIX = 'session:';
/** Large texts a session keeps out of the model's context (whole tool results): `artifact:<id>:<name>`. */
export const ARTIFACT_PREFIX = 'artifact:';

/** One record per message: `sessionlog:<id>:<index, 10 digits>` (sorted by index as text). */
export const SESSION_LOG_PREFIX = 'sessionlog:';

export const logKey = (id: string, index: number): string => `${SESSION_LOG_PREFIX}${id}:${String(index).padStart(10, '0')}`;

/** What SessionStore.create starts a session with; the status defaults to `active`. */
export interface SessionInit {
  rootAgent: string;
  /** Normally generated. */
  id?: string | undefined;
  /** Defaults to the first user line. */
  title?: string | undefined;
  agentsFile?: string | undefined;
  agentsHash?: string | undefined;
  workspace?: string | undefined;
  model?: string | undefined;
  messages?: Message[] | undefined;
  status?: SessionStatus | undefined;
  /** Made through `adk serve`, which shows only such sessions. */
  served?: boolean | undefined;
  /** How it runs when nobody watches (a served session's `policy`). */
  policy?: SessionPolicy | undefined;
}

/** Which messages `get` loads: all of them, or from an index (what the model's context needs). */
export interface LoadOptions {
  /** Load messages from this index on; `'context'` is the context start, or the last `tail` messages if earlier. */
  from?: number | 'context' | undefined;
  /** With `from: 'context'`: at least this many of the last messages, for showing the conversation (default 200). */
  tail?: number | undefined;
}

/** A readable session as SessionStore.list shows it: its metadata without the messages. */
export interface SessionSummary {
  corrupt: false;
  id: string;
  title: string;
  rootAgent: string;
  model?: string | undefined;
  status: SessionStatus;
  messageCount: number;
  pendingInterrupts: number;
  checkpointId?: string | undefined;
  served?: boolean | undefined;
  /** The folder the session's tools work in (editors list a folder's sessions). */
  workspace?: string | undefined;
  usage: { promptTokens: number; completionTokens: number };
  createdAt: string;
  updatedAt: string;
}

/** A record that could not be read; listed so the user can see and delete it. */
export interface CorruptSessionEntry {
  corrupt: true;
  id: string;
  code: SessionStoreError['code'];
  error: string;
}

/** One entry of SessionStore.list: a summary, or a record that could not be read (`corrupt: true`). */
export type SessionListEntry = SessionSummary | CorruptSessionEntry;

/** Options of SessionStore: the secrets to redact, and `now`, the clock behind timestamps (for tests). */
export interface SessionStoreOptions extends SecretOptions {
  now?: (() => Date) | undefined;
}

const ID_FIRST = 'abcdefghijklmnopqrstuvwxyz';
const ID_REST = '0123456789abcdefghijklmnopqrstuvwxyz';

/** 8 base-36 characters from the CSPRNG, starting with a letter so it never reads as a number. */
export function newSessionId(): string {
  let id = ID_FIRST[randomInt(ID_FIRST.length)];
  for (let i = 1; i < 8; i++) id += ID_REST[randomInt(ID_REST.length)];
  return id;
}

/**
 * Sessions, append-only: a save writes the messages added since the last one (one record each),
 * then the small metadata record that counts them. A crash between the two leaves records past the
 * count, which nothing reads and the next save overwrites: a confirmed save is never torn or lost.
 */
export class SessionStore {
  private readonly now: () => Date;

  constructor(
    private readonly kv: KeyValueStore,
    private readonly opts: SessionStoreOptions = {},
  ) {
    this.now = opts.now ?? (() => new Date());
  }

  async create(init: SessionInit): Promise<SessionRecord> {
    const id = init.id ?? (await this.unusedId());
    const at = this.now().toISOString();
    const messages = init.messages ?? [];
    const record: SessionRecord = {
      version: SESSION_VERSION,
      id,
      title: init.title ?? titleFrom(messages),
      rootAgent: init.rootAgent,
      messages,
      messageCount: 0,
      status: init.status ?? 'active',
      pendingInterrupts: [],
      usage: { promptTokens: 0, completionTokens: 0 },
      createdAt: at,
      updatedAt: at,
    };
    if (init.agentsFile !== undefined) record.agentsFile = init.agentsFile;
    if (init.agentsHash !== undefined) record.agentsHash = init.agentsHash;
    if (init.workspace !== undefined) record.workspace = init.workspace;
    if (init.model !== undefined) record.model = init.model;
    if (init.served) record.served = true;
    if (init.policy && Object.keys(init.policy).length) record.policy = init.policy;
    return this.write(record);
  }

  /**
   * Undefined when absent; a SessionStoreError naming the session when unreadable. Loads every
   * message unless `from` says where to start.
   */
  /** The record alone (no messages): what a check of its status or owner needs. */
  async meta(id: string): Promise<SessionRecord | undefined> {
    let raw: string | undefined;
    try {
      raw = await this.kv.get(SESSION_PREFIX + id);
    } catch (e) {
      throw isTornRow(e) ? tornRowError(id, 'its record', e) : e;
    }
    return raw === undefined ? undefined : parseSessionRecord(id, raw);
  }

  async get(id: string, load: LoadOptions = {}): Promise<SessionRecord | undefined> {
    let raw: string | undefined;
    try {
      raw = await this.kv.get(SESSION_PREFIX + id);
    } catch (e) {
      throw isTornRow(e) ? tornRowError(id, 'its record', e) : e;
    }
    if (raw === undefined) return undefined;
    const record = parseSessionRecord(id, raw);
    if (record.messageCount === 0) return record; // version 1: the messages came inline
    const from = startIndex(record, load);
    const keys = Array.from({ length: record.messageCount - from }, (_, i) => logKey(id, from + i));
    const values = await this.readEach(keys, 1000);
    record.messages = values.map((v, i) => {
      if (!(v instanceof Error)) return parseLogMessage(id, from + i, v);
      throw isTornRow(v) ? tornRowError(id, `message ${from + i}`, v) : v;
    });
    await loadParts(this.kv, ARTIFACT_PREFIX, id, record.messages);
    if (from > 0) record.messagesFrom = from;
    return record;
  }

  /**
   * Appends the messages added since the record was loaded or saved, then writes the metadata with
   * a fresh `updatedAt` (and a title, once there is a user line). Returns what was stored. `rewrite`
   * writes every loaded message again (a save retried after the store was unreachable).
   */
  async save(session: SessionRecord, opts: { rewrite?: boolean } = {}): Promise<SessionRecord> {
    const record = { ...session, version: SESSION_VERSION, title: session.title || titleFrom(session.messages), updatedAt: this.now().toISOString() } as const;
    // After an outage nobody knows what the server kept (a Redis without persistence comes back empty): write every loaded message again.
    return this.write(opts.rewrite ? { ...record, messageCount: record.messagesFrom ?? 0 } : record);
  }

  /**
   * Newest first; unreadable records come last as corrupt entries instead of failing the list. Reads
   * the metadata and, of each session, only its newest LIST_CHECKED_MESSAGES messages: a torn or
   * missing one there flags the session like a torn record (an older one is found when it is shown).
   */
  async list(): Promise<SessionListEntry[]> {
    const ids = (await this.kv.list(SESSION_PREFIX)).map((k) => k.slice(SESSION_PREFIX.length));
    const entries: SessionListEntry[] = [];
    const corrupt = (id: string, e: unknown): void => {
      if (e instanceof SessionStoreError) entries.push({ corrupt: true, id, code: e.code, error: e.message });
      else if (isTornRow(e)) entries.push({ corrupt: true, id, code: 'session_corrupt', error: tornRowError(id, 'its record', e).message });
      else if (e instanceof StoreError && e.code === 'store_failed') entries.push({ corrupt: true, id, code: 'session_corrupt', error: `session ${id} is corrupt: ${e.message}` });
      else throw e;
    };
    const raws = await this.readEach(ids.map((id) => SESSION_PREFIX + id), 500);
    const records: SessionRecord[] = [];
    ids.forEach((id, j) => {
      const raw = raws[j];
      if (raw === undefined) return;
      try {
        if (raw instanceof Error) throw raw;
        records.push(parseSessionRecord(id, raw));
      } catch (e) {
        corrupt(id, e);
      }
    });
    const from = (r: SessionRecord) => Math.max(0, r.messageCount - LIST_CHECKED_MESSAGES);
    const keys = records.flatMap((r) => Array.from({ length: r.messageCount - from(r) }, (_, i) => logKey(r.id, from(r) + i)));
    // Small slices: the SQLite driver matches rows to keys in quadratic time.
    const values = await this.readEach(keys, 200);
    let at = 0;
    for (const r of records) {
      const start = from(r);
      const mine = values.slice(at, (at += r.messageCount - start));
      try {
        mine.forEach((v, i) => {
          if (v instanceof Error) throw isTornRow(v) ? tornRowError(r.id, `message ${start + i}`, v) : v;
          parseLogMessage(r.id, start + i, v);
        });
        entries.push(summarize(r));
      } catch (e) {
        corrupt(r.id, e);
      }
    }
    const ok = entries.filter((e): e is SessionSummary => !e.corrupt);
    const bad = entries.filter((e): e is CorruptSessionEntry => e.corrupt);
    ok.sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : a.id.localeCompare(b.id)));
    return [...ok, ...bad.sort((a, b) => a.id.localeCompare(b.id))];
  }

  /**
   * Cuts the session back to its first `count` messages (a rewind): the metadata that counts them is
   * written first (what makes the later ones gone, as after a torn save), then their records are
   * deleted. The caller has cleared what points past the cut (context start, a stopped turn).
   */
  async truncate(session: SessionRecord, count: number): Promise<SessionRecord> {
    const from = session.messagesFrom ?? 0;
    const total = from + session.messages.length;
    if (!Number.isInteger(count) || count < 0 || count > total) {
      throw new SessionStoreError('session_invalid', session.id, `cannot rewind session ${session.id} to message ${count}: it has ${total}`);
    }
    const kept = count >= from ? { messages: session.messages.slice(0, count - from), messagesFrom: from } : { messages: [], messagesFrom: count };
    const saved = await this.write({ ...session, ...kept, messageCount: count, updatedAt: this.now().toISOString() });
    const dropped = Math.max(total, session.messageCount) - count;
    await this.kv.deleteMany(Array.from({ length: dropped }, (_, i) => logKey(session.id, count + i)));
    return saved;
  }

  /** True when the session existed. Its log and artifacts go with it; its checkpoint, if any, is the caller's to delete. */
  async delete(id: string): Promise<boolean> {
    const existed = await this.kv.delete(SESSION_PREFIX + id);
    await this.kv.deleteMany(await this.kv.list(`${SESSION_LOG_PREFIX}${id}:`));
    await this.kv.deleteMany(await this.kv.list(`${ARTIFACT_PREFIX}${id}:`));
    return existed;
  }

  /** The session's artifact store (secrets redacted like everything else). */
  artifacts(id: string): { put(name: string, text: string): Promise<void>; get(name: string): Promise<string | undefined> } {
    const key = (name: string) => `${ARTIFACT_PREFIX}${id}:${name}`;
    return {
      put: (name, text) => this.kv.set(key(name), redactJsonText(JSON.stringify(text), secretsFor(this.opts))),
      get: async (name) => {
        const raw = await this.kv.get(key(name));
        return raw === undefined ? undefined : (JSON.parse(raw) as string);
      },
    };
  }

  /** The full id for an id or a unique prefix of one (case-insensitive for generated ids). */
  async resolveId(idOrPrefix: string): Promise<string> {
    const input = idOrPrefix.trim();
    if (!input) throw new SessionStoreError('session_not_found', input, 'no session id given');
    // A whole id is one read; only a prefix needs the keys listed (a scan on Redis). A row that
    // cannot be read (torn) is found by its key below.
    if ((await this.kv.get(SESSION_PREFIX + input).catch(() => undefined)) !== undefined) return input;
    // Keys, not values: a torn record must still resolve, so it can be shown and deleted.
    let matches = await this.kv.list(SESSION_PREFIX + input);
    if (matches.includes(SESSION_PREFIX + input)) return input;
    if (!matches.length && input !== input.toLowerCase()) matches = await this.kv.list(SESSION_PREFIX + input.toLowerCase());
    const ids = matches.map((k) => k.slice(SESSION_PREFIX.length));
    if (ids.length === 1) return ids[0];
    if (!ids.length) throw new SessionStoreError('session_not_found', input, `no session matches "${input}"`);
    const shown = ids.slice(0, 5).join(', ') + (ids.length > 5 ? `, … (${ids.length} in all)` : '');
    throw new SessionStoreError('session_ambiguous', input, `session id "${input}" is ambiguous: it matches ${shown}`);
  }

  private async write(record: SessionRecord): Promise<SessionRecord> {
    const from = record.messagesFrom ?? 0;
    const total = from + record.messages.length;
    const persisted = record.messageCount;
    if (total < persisted || persisted < from) {
      throw new SessionStoreError('session_invalid', record.id, `cannot save session ${record.id}: messages can only be appended (${persisted} stored, ${total} given from ${from})`);
    }
    const { messages, messagesFrom: _from, messageCount: _count, ...rest } = record;
    const metadata = { ...rest, messageCount: total };
    const checked = sessionMetadataSchema.safeParse(metadata);
    if (!checked.success) {
      throw new SessionStoreError('session_invalid', record.id, `cannot save session ${record.id}: ${describeIssues(checked.error)}`);
    }
    const secrets = secretsFor(this.opts);
    const added = messages.slice(persisted - from);
    const entries = added.map((m, i) => {
      const ok = messageSchema.safeParse(m);
      if (!ok.success) {
        throw new SessionStoreError('session_invalid', record.id, `cannot save session ${record.id}: messages.${persisted + i}.${describeIssues(ok.error)}`);
      }
      return { key: logKey(record.id, persisted + i), value: redactJsonText(JSON.stringify(storedForm(m)), secrets) };
    });
    // Parts' bytes, then the log that names them, then the metadata that makes the new messages part of the session.
    await storeParts(this.kv, ARTIFACT_PREFIX, record.id, added);
    await this.kv.setMany(entries);
    const text = JSON.stringify(metadata);
    const stored = redactJsonText(text, secrets);
    await this.kv.set(SESSION_PREFIX + record.id, stored);
    // The caller's list is kept (copying it would make every save cost the session's length); a message
    // that redaction changed is replaced by what was stored.
    let kept = messages;
    entries.forEach((e, i) => {
      const m = added[i]!;
      if (e.value === JSON.stringify(storedForm(m))) return;
      if (kept === messages) kept = [...messages];
      const stored = JSON.parse(e.value) as Message;
      // Bytes are not redacted: the parts in memory keep theirs.
      kept[persisted - from + i] = m.parts ? { ...stored, parts: m.parts } : stored;
    });
    const saved: SessionRecord = { ...(stored === text ? metadata : (JSON.parse(stored) as typeof metadata)), messages: kept };
    if (from > 0) saved.messagesFrom = from;
    return saved;
  }

  /**
   * The values of `keys`, `size` at a time. A row the backend itself cannot decode fails its whole
   * slice: that slice is read one by one, so it is one bad row (its error in its place), not a failed read.
   */
  private async readEach(keys: readonly string[], size: number): Promise<Array<string | undefined | Error>> {
    const values: Array<string | undefined | Error> = [];
    for (let i = 0; i < keys.length; i += size) {
      const slice = keys.slice(i, i + size);
      try {
        values.push(...(await this.kv.getMany(slice)));
      } catch (e) {
        if (!(e instanceof StoreError && e.code === 'store_failed')) throw e;
        values.push(...(await Promise.all(slice.map((k) => this.kv.get(k).catch((x: unknown) => (x instanceof Error ? x : new Error(String(x))))))));
      }
    }
    return values;
  }

  private async unusedId(): Promise<string> {
    for (let i = 0; i < 5; i++) {
      const id = newSessionId();
      if ((await this.kv.get(SESSION_PREFIX + id)) === undefined) return id;
    }
    throw new Error('could not find an unused session id');
  }
}

/** How many of each session's newest messages SessionStore.list reads, to flag a torn one (a few rows: listing stays cheap). */
export const LIST_CHECKED_MESSAGES = 20;

/** A row the backend holds but cannot decode (torn by a crash of another writer or a bad disk), not a store that failed. */
function isTornRow(e: unknown): e is StoreError {
  return e instanceof StoreError && e.code === 'store_failed' && e.cause instanceof SyntaxError;
}

function tornRowError(id: string, row: string, e: StoreError): SessionStoreError {
  return new SessionStoreError('session_corrupt', id, `session ${id} is corrupt: ${row} is torn (not valid JSON: ${(e.cause as Error).message})`, { cause: e });
}

/** Where loading starts: the context start, pulled back to show at least the last `tail` messages. */
function startIndex(record: SessionRecord, load: LoadOptions): number {
  if (load.from === undefined) return 0;
  if (typeof load.from === 'number') return Math.max(0, Math.min(load.from, record.messageCount));
  const tail = Math.max(0, record.messageCount - (load.tail ?? 200));
  return Math.max(0, Math.min(record.contextStart ?? 0, tail, record.messageCount));
}

function parseLogMessage(id: string, index: number, raw: string | undefined): Message {
  if (raw === undefined) throw new SessionStoreError('session_corrupt', id, `session ${id} is corrupt: message ${index} is missing from its log`);
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch (e) {
    throw new SessionStoreError('session_corrupt', id, `session ${id} is corrupt: message ${index} is not valid JSON (${(e as Error).message})`, { cause: e });
  }
  const checked = messageSchema.safeParse(data);
  if (!checked.success) throw new SessionStoreError('session_corrupt', id, `session ${id} is corrupt: message ${index}: ${describeIssues(checked.error)}`);
  return checked.data as Message;
}

/** Parses and validates one stored record; every failure names the session. */
export function parseSessionRecord(id: string, raw: string): SessionRecord {
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch (e) {
    throw new SessionStoreError('session_corrupt', id, `session ${id} is corrupt: invalid JSON (${(e as Error).message})`, { cause: e });
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    throw new SessionStoreError('session_corrupt', id, `session ${id} is corrupt: not a JSON object`);
  }
  const version = (data as { version?: unknown }).version;
  if (version === undefined) throw new SessionStoreError('session_corrupt', id, `session ${id} is corrupt: it has no version`);
  if (typeof version === 'number' && Number.isInteger(version) && version > SESSION_VERSION) {
    throw new SessionStoreError('session_version', id, `session ${id} was written by a newer adk (version ${version}); upgrade adk to open it`);
  }
  if (version === LEGACY_SESSION_VERSION) {
    // Version 1 kept every message inline: read it as is; the next save moves them into the log.
    const legacy = legacySessionRecordSchema.safeParse(data);
    if (!legacy.success) throw new SessionStoreError('session_corrupt', id, `session ${id} is corrupt: ${describeIssues(legacy.error)}`);
    if (legacy.data.id !== id) throw new SessionStoreError('session_corrupt', id, `session ${id} is corrupt: it is stored with id "${legacy.data.id}"`);
    const { transcript: _t, ...rest } = legacy.data;
    return { ...rest, version: SESSION_VERSION, messageCount: 0 } as unknown as SessionRecord;
  }
  if (version !== SESSION_VERSION) {
    throw new SessionStoreError('session_version', id, `session ${id} has an unknown version (${JSON.stringify(version)}); this adk reads versions ${LEGACY_SESSION_VERSION} and ${SESSION_VERSION}`);
  }
  const checked = sessionMetadataSchema.safeParse(data);
  if (!checked.success) throw new SessionStoreError('session_corrupt', id, `session ${id} is corrupt: ${describeIssues(checked.error)}`);
  if (checked.data.id !== id) throw new SessionStoreError('session_corrupt', id, `session ${id} is corrupt: it is stored with id "${checked.data.id}"`);
  return { ...checked.data, messages: [] } as unknown as SessionRecord;
}

function summarize(s: SessionRecord): SessionSummary {
  const summary: SessionSummary = {
    corrupt: false,
    id: s.id,
    title: s.title,
    rootAgent: s.rootAgent,
    status: s.status,
    messageCount: Math.max(s.messageCount, (s.messagesFrom ?? 0) + s.messages.length),
    pendingInterrupts: s.pendingInterrupts.length,
    usage: { promptTokens: s.usage.promptTokens, completionTokens: s.usage.completionTokens },
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
  if (s.model !== undefined) summary.model = s.model;
  if (s.checkpointId !== undefined) summary.checkpointId = s.checkpointId;
  if (s.served) summary.served = true;
  if (s.workspace !== undefined) summary.workspace = s.workspace;
  return summary;
}
