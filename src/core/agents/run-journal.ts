import type { Message } from '../schema/message.js';
import { addressToString, type AddressSegment } from '../interrupt.js';
import type { ModelHandler, ToolCallHandler, ToolCallResult } from './handlers.js';
import { messageEvent, type AgentEvent } from './events.js';
import type { CallIds } from './call-ids.js';

/** What a journal keeps: a model's reply, a tool call that started, or the result it finished with. */
export type JournalEntry =
  | { model: Message }
  | { toolStarted: true }
  | { tool: Extract<ToolCallResult, { kind: 'done' }>; /** The run's session values after the call (tools such as write_todos set them). */ values?: Record<string, unknown> | undefined };

/** Where a run's journal is kept (a key-value store under the turn's own prefix). */
export interface JournalStore {
  read(key: string): Promise<JournalEntry | undefined>;
  write(key: string, entry: JournalEntry): Promise<void>;
  forget(key: string): Promise<void>;
}

/** The answer a call gets when an earlier attempt of the run started it and did not live to record how it ended. */
export const UNFINISHED_CALL_RESULT =
  'error: this call was started by an earlier attempt of this turn (its worker stopped) and did not report an end; it was not run again, so it may or may not have taken effect';

/**
 * Durable execution for one attempt of a run: each model reply and each tool result is recorded as
 * it happens, and a later attempt of the same turn (another worker after a crash) is handed the
 * recorded ones instead of calling again. The replay is exact because model replies, and with them
 * the tool calls and their ids, come from the journal; a tool that started but never recorded an
 * end is not run a second time.
 */
export class RunJournal {
  private readonly calls = new Map<string, number>();
  private replayed = 0;

  constructor(private readonly store: JournalStore) {}

  /** Entries handed back from an earlier attempt so far. */
  get replays(): number {
    return this.replayed;
  }

  /** The model handler with replay: the n-th call of the agent at `address` is recorded under that name. */
  model(next: ModelHandler, address: readonly AddressSegment[], env: { agentName: string; emit(e: AgentEvent): void; callIds: CallIds }): ModelHandler {
    return async (messages, options) => {
      const scope = addressToString(address);
      const n = (this.calls.get(scope) ?? 0) + 1;
      this.calls.set(scope, n);
      const key = `model:${scope}#${n}`;
      const recorded = await this.store.read(key);
      if (recorded && 'model' in recorded) {
        this.replayed++;
        // The ids in the reply were handed out by the earlier attempt: keep them, and never hand them out again.
        env.callIds.reserve([recorded.model]);
        env.emit({ ...messageEvent(recorded.model), agentName: env.agentName, replayed: true });
        return recorded.model;
      }
      const reply = await next(messages, options);
      await this.store.write(key, { model: reply });
      return reply;
    };
  }

  /**
   * The recorded result of the call at `address` if an earlier attempt finished it: the approval
   * layer answers with it rather than ask again about a call that already ran.
   */
  async finished(address: string, values?: Record<string, unknown>): Promise<Extract<ToolCallResult, { kind: 'done' }> | undefined> {
    const recorded = await this.store.read(`tool:${address}`);
    if (!recorded || !('tool' in recorded)) return undefined;
    this.replayed++;
    if (values && recorded.values) Object.assign(values, recorded.values);
    return { ...recorded.tool, replayed: true };
  }

  /**
   * The tool handler with replay: a finished call returns its recorded result (and puts back the
   * session values it left); a started one is not run again.
   */
  tool(next: ToolCallHandler, values?: Record<string, unknown>): ToolCallHandler {
    return async (req) => {
      const key = `tool:${req.address}`;
      const recorded = await this.store.read(key);
      if (recorded && 'tool' in recorded) {
        this.replayed++;
        if (values && recorded.values) Object.assign(values, recorded.values);
        return { ...recorded.tool, replayed: true };
      }
      if (recorded && 'toolStarted' in recorded) {
        this.replayed++;
        return { kind: 'done', content: UNFINISHED_CALL_RESULT, isError: true };
      }
      await this.store.write(key, { toolStarted: true });
      const result = await next(req);
      // An interrupt is the checkpoint's business: the call has not run, so the next attempt may start it.
      if (result.kind === 'done') await this.store.write(key, { tool: result, ...(values ? { values: jsonValues(values) } : {}) });
      else await this.store.forget(key);
      return result;
    };
  }
}

/** The session values that survive JSON (what a journal can keep). */
function jsonValues(values: Record<string, unknown>): Record<string, unknown> | undefined {
  try {
    return JSON.parse(JSON.stringify(values)) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}
