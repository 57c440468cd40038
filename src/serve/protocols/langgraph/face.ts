import type { Context, Hono } from 'hono';
import type { PendingInterrupt } from '../../../core/store/session-record.js';
import type { LgInterrupt } from './interrupts.js';
import type { RunRequest } from './requests.js';
import type { ThreadValues } from './state.js';

/**
 * How one family of clients reads the LangGraph API: the same threads and runs, drawn the way
 * that front end expects. DeerFlow 2 asks for the assistant `lead_agent`, wants `artifacts` in the
 * state, and knows no LangGraph interrupts: it draws a question as an `ask_clarification` tool
 * message and answers it with a new human message. The plain API has no face.
 */
export interface LangGraphFace {
  /** The team an assistant id of this client names (undefined: the id as it is). */
  assistant?(id: string): string | undefined;
  /** The state values as this client reads them, given what the thread waits on. */
  values?(values: ThreadValues, interrupts: readonly LgInterrupt[]): ThreadValues;
  /** A run's request as adk understands it: this client's own answer to a question → `command.resume`. */
  request?(body: RunRequest, pending: readonly PendingInterrupt[]): RunRequest;
  /** This client's own reads of a thread (DeerFlow 2's message pages), given its values as this face shows them. */
  routes?(app: Hono, api: FaceApi): void;
}

/** What a face's own routes may use: a thread's values as this face shows them, and the API's redacting JSON answer. */
export interface FaceApi {
  values(threadId: string): Promise<ThreadValues | undefined>;
  json(c: Context, body: unknown): Response;
}
