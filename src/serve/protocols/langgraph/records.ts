import { randomUUID } from 'node:crypto';
import type { KeyValueStore } from '../../../core/store/key-value-store.js';

/** A LangGraph thread: its metadata, and the adk session its runs go to (made by the first run). */
export interface ThreadRecord {
  thread_id: string;
  created_at: string;
  updated_at: string;
  metadata: Record<string, unknown>;
  /** The adk session; unset until a run needs one (the assistant picks its team). */
  session?: string | undefined;
  assistant_id?: string | undefined;
}

export type RunStatus = 'pending' | 'running' | 'error' | 'success' | 'timeout' | 'interrupted';
export type MultitaskStrategy = 'reject' | 'interrupt' | 'rollback' | 'enqueue';

/** A run: one turn, or one continuation of a turn after its interrupts were answered. */
export interface RunRecord {
  run_id: string;
  thread_id: string;
  assistant_id: string;
  created_at: string;
  updated_at: string;
  status: RunStatus;
  metadata: Record<string, unknown>;
  multitask_strategy: MultitaskStrategy | null;
  /** The first session event of this run: its stream replays from there. */
  from?: number | undefined;
  /** How many thread messages came before it (its streamed messages are numbered on from there). */
  base?: number | undefined;
  /** The person's message that started it (a continuation has none). */
  human?: string | undefined;
  cancel_reason?: string | null | undefined;
  error?: string | undefined;
  /** The stream modes it was started with: what joining its stream gives when none are asked for. */
  stream_mode?: string[] | undefined;
}

const THREAD = 'langgraph-thread:';
const RUN = 'langgraph-run:';

/** Threads and runs, kept in adk's store (so every server behind one Redis sees them, and they outlive a restart). */
export class LangGraphRecords {
  constructor(private readonly kv: KeyValueStore) {}

  async thread(id: string): Promise<ThreadRecord | undefined> {
    return parse<ThreadRecord>(await this.kv.get(THREAD + id));
  }

  async putThread(t: ThreadRecord): Promise<ThreadRecord> {
    await this.kv.set(THREAD + t.thread_id, JSON.stringify(t));
    return t;
  }

  newThread(init: { thread_id?: string | undefined; metadata?: Record<string, unknown> | undefined }): ThreadRecord {
    const now = new Date().toISOString();
    return { thread_id: init.thread_id ?? randomUUID(), created_at: now, updated_at: now, metadata: init.metadata ?? {} };
  }

  async threads(): Promise<ThreadRecord[]> {
    const keys = await this.kv.list(THREAD);
    const values = keys.length ? await this.kv.getMany(keys) : [];
    return values.map((v) => parse<ThreadRecord>(v)).filter((t): t is ThreadRecord => !!t);
  }

  async deleteThread(id: string): Promise<void> {
    const runs = await this.kv.list(`${RUN}${id}:`);
    await this.kv.deleteMany([THREAD + id, ...runs]);
  }

  async run(thread: string, run: string): Promise<RunRecord | undefined> {
    return parse<RunRecord>(await this.kv.get(`${RUN}${thread}:${run}`));
  }

  async putRun(r: RunRecord): Promise<RunRecord> {
    await this.kv.set(`${RUN}${r.thread_id}:${r.run_id}`, JSON.stringify(r));
    return r;
  }

  async updateRun(thread: string, run: string, patch: Partial<RunRecord>): Promise<RunRecord | undefined> {
    const r = await this.run(thread, run);
    if (!r) return undefined;
    return this.putRun({ ...r, ...patch, updated_at: new Date().toISOString() });
  }

  async deleteRun(thread: string, run: string): Promise<void> {
    await this.kv.delete(`${RUN}${thread}:${run}`);
  }

  /** The thread's runs, newest first. */
  async runs(thread: string): Promise<RunRecord[]> {
    const keys = await this.kv.list(`${RUN}${thread}:`);
    const values = keys.length ? await this.kv.getMany(keys) : [];
    return values
      .map((v) => parse<RunRecord>(v))
      .filter((r): r is RunRecord => !!r)
      .sort((a, b) => b.created_at.localeCompare(a.created_at));
  }
}

function parse<T>(raw: string | undefined): T | undefined {
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return undefined;
  }
}
