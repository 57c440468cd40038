import { randomInt } from 'node:crypto';
import type { Message } from '../schema/message.js';
import { secretsFor, type SecretOptions } from './checkpoint-store.js';
import { SessionStoreError, StoreError } from './errors.js';
import type { KeyValueStore } from './key-value-store.js';
import { redactJsonText } from './redact.js';
import {
  describeIssues,
  SESSION_VERSION,
  sessionRecordSchema,
  titleFrom,
  type SessionRecord,
  type SessionStatus,
} from './session-record.js';

export const SESSION_PREFIX = 'session:';

export interface SessionInit {
  rootAgent: string;
  /** Normally generated. */
  id?: string;
  /** Defaults to the first user line. */
  title?: string;
  agentsFile?: string;
  agentsHash?: string;
  workspace?: string;
  model?: string;
  messages?: Message[];
  transcript?: unknown[];
  status?: SessionStatus;
}

export interface SessionSummary {
  corrupt: false;
  id: string;
  title: string;
  rootAgent: string;
  model?: string;
  status: SessionStatus;
  messageCount: number;
  pendingInterrupts: number;
  checkpointId?: string;
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

export type SessionListEntry = SessionSummary | CorruptSessionEntry;

export interface SessionStoreOptions extends SecretOptions {
  now?: () => Date;
}

const ID_FIRST = 'abcdefghijklmnopqrstuvwxyz';
const ID_REST = '0123456789abcdefghijklmnopqrstuvwxyz';

/** 8 base-36 characters from the CSPRNG, starting with a letter so it never reads as a number. */
export function newSessionId(): string {
  let id = ID_FIRST[randomInt(ID_FIRST.length)];
  for (let i = 1; i < 8; i++) id += ID_REST[randomInt(ID_REST.length)];
  return id;
}

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
    if (init.transcript !== undefined) record.transcript = init.transcript;
    return this.write(record);
  }

  /** Undefined when absent; a SessionStoreError naming the session when unreadable. */
  async get(id: string): Promise<SessionRecord | undefined> {
    const raw = await this.kv.get(SESSION_PREFIX + id);
    return raw === undefined ? undefined : parseSessionRecord(id, raw);
  }

  /** Writes the session with a fresh `updatedAt` (and a title, once there is a user line). Returns what was stored. */
  async save(session: SessionRecord): Promise<SessionRecord> {
    return this.write({
      ...session,
      version: SESSION_VERSION,
      title: session.title || titleFrom(session.messages),
      updatedAt: this.now().toISOString(),
    });
  }

  /** Newest first; unreadable records come last as corrupt entries instead of failing the list. */
  async list(): Promise<SessionListEntry[]> {
    const ids = (await this.kv.list(SESSION_PREFIX)).map((k) => k.slice(SESSION_PREFIX.length));
    const entries = await mapLimit(ids, 8, async (id): Promise<SessionListEntry | undefined> => {
      try {
        const s = await this.get(id);
        return s && summarize(s);
      } catch (e) {
        if (e instanceof SessionStoreError) return { corrupt: true, id, code: e.code, error: e.message };
        // A torn row the backend itself cannot decode is one bad session, not a broken store.
        if (e instanceof StoreError && e.code === 'store_failed') return { corrupt: true, id, code: 'session_corrupt', error: `session ${id} is corrupt: ${e.message}` };
        throw e;
      }
    });
    const ok = entries.filter((e): e is SessionSummary => !!e && !e.corrupt);
    const bad = entries.filter((e): e is CorruptSessionEntry => !!e && e.corrupt);
    ok.sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : a.id.localeCompare(b.id)));
    return [...ok, ...bad.sort((a, b) => a.id.localeCompare(b.id))];
  }

  /** True when the session existed. Its checkpoint, if any, is the caller's to delete. */
  delete(id: string): Promise<boolean> {
    return this.kv.delete(SESSION_PREFIX + id);
  }

  /** The full id for an id or a unique prefix of one (case-insensitive for generated ids). */
  async resolveId(idOrPrefix: string): Promise<string> {
    const input = idOrPrefix.trim();
    if (!input) throw new SessionStoreError('session_not_found', input, 'no session id given');
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
    const checked = sessionRecordSchema.safeParse(record);
    if (!checked.success) {
      throw new SessionStoreError('session_invalid', record.id, `cannot save session ${record.id}: ${describeIssues(checked.error)}`);
    }
    const text = JSON.stringify(record);
    const stored = redactJsonText(text, secretsFor(this.opts));
    await this.kv.set(SESSION_PREFIX + record.id, stored);
    return stored === text ? record : (JSON.parse(stored) as SessionRecord);
  }

  private async unusedId(): Promise<string> {
    for (let i = 0; i < 5; i++) {
      const id = newSessionId();
      if ((await this.kv.get(SESSION_PREFIX + id)) === undefined) return id;
    }
    throw new Error('could not find an unused session id');
  }
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
  if (version !== SESSION_VERSION) {
    throw new SessionStoreError('session_version', id, `session ${id} has an unknown version (${JSON.stringify(version)}); this adk reads version ${SESSION_VERSION}`);
  }
  const checked = sessionRecordSchema.safeParse(data);
  if (!checked.success) throw new SessionStoreError('session_corrupt', id, `session ${id} is corrupt: ${describeIssues(checked.error)}`);
  if (checked.data.id !== id) throw new SessionStoreError('session_corrupt', id, `session ${id} is corrupt: it is stored with id "${checked.data.id}"`);
  return checked.data as SessionRecord;
}

function summarize(s: SessionRecord): SessionSummary {
  const summary: SessionSummary = {
    corrupt: false,
    id: s.id,
    title: s.title,
    rootAgent: s.rootAgent,
    status: s.status,
    messageCount: s.messages.length,
    pendingInterrupts: s.pendingInterrupts.length,
    usage: { promptTokens: s.usage.promptTokens, completionTokens: s.usage.completionTokens },
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
  if (s.model !== undefined) summary.model = s.model;
  if (s.checkpointId !== undefined) summary.checkpointId = s.checkpointId;
  return summary;
}

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
