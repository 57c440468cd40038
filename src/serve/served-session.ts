import type { CallOptions } from '../core/agents/run-context.js';
import type { ContentPart } from '../core/schema/content-part.js';
import type { JsonEvent } from '../core/conversation/json-events.js';
import type { AdkStores } from '../core/store/adk-stores.js';
import type { SessionRecord } from '../core/store/session-record.js';
import type { SessionPolicy } from '../core/conversation/session-policy.js';

/** One event of a session as the API streams it: `id` orders it (and resumes a dropped stream). */
export interface SessionEvent {
  id: number;
  event: JsonEvent;
}

/** What a turn is asked to do: a new message, or answers to the interrupts it waits on; `options`: the run's model and tool options (a protocol's request settings). */
export type TurnStep = ({
  content: string;
  /** Images and PDFs sent with it. */
  parts?: ContentPart[] | undefined;
  /** First cut the session back to its first `rewindTo` messages (a LangGraph edit or regenerate branches there). */
  rewindTo?: number | undefined;
} | { targets: Record<string, unknown>; /** Tools allowed from now on in the session ("always"). */ grants?: string[] | undefined }) & {
  options?: Pick<CallOptions, 'modelOptions' | 'toolOptions'> | undefined;
};

/** Events kept per session for `Last-Event-ID` replay; older ones are dropped first. */
export const EVENT_LOG_LIMIT = 10_000;

/** A turn (or its continuation) already running: one at a time per session. */
export class SessionBusyError extends Error {
  constructor(id: string) {
    super(`session ${id} is running a turn; wait for it to end, or POST /v1/sessions/${id}/cancel`);
  }
}

/** `adk serve` is stopping: it opens no session and starts no turn any more (HTTP 503; send it again later). */
export class ServerStoppingError extends Error {
  constructor() {
    super('the server is stopping; send this again once it is back (or to another server)');
  }
}

/** A session id the store does not have. */
export class UnknownSessionError extends Error {
  constructor(id: string) {
    super(`no session ${id}`);
  }
}

/**
 * The id of a session `adk serve` may show: made through it, or shared (`adk sessions share`).
 * Every other session in the store (a CLI session of another folder) is unknown to its clients.
 */
export async function servedId(stores: AdkStores, idOrPrefix: string): Promise<string> {
  let id: string;
  try {
    id = await stores.sessions.resolveId(idOrPrefix);
  } catch {
    throw new UnknownSessionError(idOrPrefix);
  }
  if (!(await stores.sessions.meta(id))?.served) throw new UnknownSessionError(idOrPrefix);
  return id;
}

/**
 * A session as the HTTP API serves it, wherever its turns run: inside this process (LiveSession),
 * or on `adk worker` processes with events through Redis (QueuedSession). A turn's outcome is read
 * from its events (`interrupt`, `error`, then `done`), the same in both.
 */
export interface ServedSession {
  readonly id: string;
  /** The saved record, its messages from the model's context on. */
  record(): Promise<SessionRecord>;
  /** A turn is queued or running. */
  busy(): Promise<boolean>;
  /** The last event id handed out (0: none yet). */
  lastId(): Promise<number>;
  /** The id of the first event of the person's latest turn (its continuations after interrupts included). */
  turnFrom(): Promise<number>;
  /** Events after `id`, oldest first (the ones still kept). */
  since(id: number): Promise<SessionEvent[]>;
  /** Calls `listener` with each new event from now on, until the returned function is called. */
  subscribe(listener: (e: SessionEvent) => void): Promise<() => void>;
  /** Starts (or queues) the step; SessionBusyError while another runs. Its events tell how it ends. */
  start(step: TurnStep): Promise<void>;
  /** Stops the running turn at its next safe point (saved, resumable); false when none runs. */
  cancel(): Promise<boolean>;
}

/** The sessions a server serves: created, found by id or prefix, deleted. */
export interface ServedHub {
  readonly stores: AdkStores;
  create(init: { agent?: string | undefined; title?: string | undefined; policy?: SessionPolicy | undefined }): Promise<ServedSession>;
  /** The session `id` (a unique prefix works); UnknownSessionError when there is none. */
  get(idOrPrefix: string): Promise<ServedSession>;
  delete(idOrPrefix: string): Promise<void>;
  /** A turn of the session `id` (a full id) is queued or running; asked without opening the session. */
  busy(id: string): Promise<boolean>;
  /** Lets go of every session; `cancel` stops turns running here at a safe point first. */
  close(opts?: { cancel?: boolean }): Promise<void>;
}
