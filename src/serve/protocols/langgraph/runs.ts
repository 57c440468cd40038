import { randomUUID } from 'node:crypto';
import { AsyncQueue } from '../../../core/async-queue.js';
import type { JsonEvent } from '../../../core/conversation/json-events.js';
import { SessionBusyError, type ServedHub, type ServedSession, type SessionEvent, type TurnStep } from '../../served-session.js';
import { LgError } from './errors.js';
import { humanText, messageId, type LcMessage } from './messages.js';
import type { LangGraphRecords, RunRecord, RunStatus, ThreadRecord } from './records.js';
import type { RunRequest } from './requests.js';
import { resumeTargets } from './resume.js';
import { countFromCheckpoint, sessionView, type SessionView, type ThreadValues } from './state.js';

/** A run started here: its session's events from its start, and its end. */
export interface StartedRun {
  run: RunRecord;
  live: ServedSession;
  /** The thread's values when it started, the person's new message included. */
  values: ThreadValues;
  /** Index of the first message the run adds. */
  next: number;
  /** Session events of this run, until its `done` (close it when no longer read). */
  events: AsyncQueue<SessionEvent>;
  unsubscribe(): void;
  finished: Promise<RunRecord>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How an adk turn ended, as a LangGraph run status (a cancelled turn is an interrupted run). */
export function runStatus(done: JsonEvent | undefined): RunStatus {
  switch (done?.status) {
    case 'interrupted':
    case 'cancelled':
      return 'interrupted';
    case 'error':
      return 'error';
    default:
      return 'success';
  }
}

/**
 * Runs on threads: each a step of the thread's ServedSession (a new message, or answers to its
 * interrupts), so a run goes through the same queue, lease and journal as any turn. The runs
 * this process started are followed to their end here; their records live in the store.
 */
export class LangGraphRuns {
  /** The run each thread is running, started by this process. */
  private readonly active = new Map<string, { runId: string; finished: Promise<RunRecord> }>();
  /** Runs `enqueue`d here and not yet ended, by run id: their end. */
  private readonly queued = new Map<string, Promise<RunRecord>>();
  /** Per thread, the end of the last run queued here: the next one starts after it. */
  private readonly tail = new Map<string, Promise<unknown>>();

  constructor(
    private readonly hub: ServedHub,
    private readonly records: LangGraphRecords,
  ) {}

  /** The thread's session, made on its first run with the assistant's team. */
  async session(thread: ThreadRecord, assistant: string): Promise<ServedSession> {
    if (thread.session) return this.hub.get(thread.session);
    const live = await this.hub.create({ agent: assistant });
    await this.records.putThread({ ...thread, session: live.id, assistant_id: assistant, updated_at: new Date().toISOString() });
    thread.session = live.id;
    thread.assistant_id = assistant;
    return live;
  }

  activeRun(thread: string): { runId: string; finished: Promise<RunRecord> } | undefined {
    return this.active.get(thread);
  }

  /**
   * Starts a run (after `multitask_strategy` has dealt with one running): `enqueue` waits for the
   * thread to be free, `interrupt` and `rollback` stop the running one first, `reject` refuses.
   */
  async start(thread: ThreadRecord, assistant: string, body: RunRequest, pending?: RunRecord): Promise<StartedRun> {
    const live = await this.session(thread, assistant);
    const strategy = body.multitask_strategy ?? 'reject';
    if (await live.busy()) {
      if (strategy === 'reject') throw new LgError(409, `thread ${thread.thread_id} is busy with a run; wait for it, cancel it, or send multitask_strategy interrupt/rollback/enqueue`);
      if (strategy === 'interrupt' || strategy === 'rollback') await this.stop(thread.thread_id, live, strategy);
      await this.idle(live);
    }
    const view = await sessionView(thread.thread_id, live);
    let step: TurnStep;
    let human: string | undefined;
    let base = view.count;
    const resume = body.command?.resume;
    if (resume !== undefined) {
      if (view.status !== 'interrupted') throw new LgError(409, `thread ${thread.thread_id} waits on no interrupt (status ${view.status})`);
      step = { targets: resumeTargets(view.record.pendingInterrupts, resume) };
    } else {
      const branch = branchPoint(thread.thread_id, view, body);
      human = branch?.human ?? humanOf(body);
      if (view.status === 'interrupted' && branch === undefined) throw new LgError(409, `thread ${thread.thread_id} waits on ${view.interrupts.length} interrupt(s): answer with command: {resume: …}`);
      if (branch) base = branch.at;
      step = { content: human, ...(branch ? { rewindTo: branch.at } : {}) };
    }
    const now = new Date().toISOString();
    const from = (await live.lastId()) + 1;
    const run: RunRecord = { ...(pending ?? newRun(thread, assistant, body, now)), updated_at: now, status: 'running', from, base, ...(human ? { human } : {}) };
    const events = new AsyncQueue<SessionEvent>();
    let done!: (e: JsonEvent | undefined) => void;
    const ended = new Promise<JsonEvent | undefined>((r) => (done = r));
    const unsubscribe = await live.subscribe((e) => {
      if (e.id < from) return;
      events.push(e);
      if (e.event.type === 'done') {
        events.close();
        done(e.event);
      }
    });
    await this.records.putRun(run);
    try {
      await live.start(step);
    } catch (e) {
      unsubscribe();
      await this.records.deleteRun(thread.thread_id, run.run_id);
      if (e instanceof SessionBusyError) throw new LgError(409, e.message);
      throw e;
    }
    // Its end is written down even when nobody reads its stream (a background run).
    const finished = ended.then(async (d) => {
      unsubscribe();
      const status = runStatus(d);
      const saved = await this.records.updateRun(thread.thread_id, run.run_id, { status, ...(d?.status === 'error' ? { error: 'the run failed' } : {}) });
      if (this.active.get(thread.thread_id)?.runId === run.run_id) this.active.delete(thread.thread_id);
      return saved ?? { ...run, status };
    });
    this.active.set(thread.thread_id, { runId: run.run_id, finished });
    let values: ThreadValues | undefined;
    return {
      run,
      live,
      // Made when read (a stream's translator does; `wait` never needs it).
      get values() {
        const kept = view.values.messages.slice(0, base - (view.count - view.values.messages.length));
        values ??= human ? { ...view.values, messages: [...kept, humanMessage(thread.thread_id, base, human)] } : view.values;
        return values;
      },
      next: base + (human ? 1 : 0),
      events,
      unsubscribe,
      finished,
    };
  }

  /**
   * `enqueue` on a busy thread: the run is recorded as pending and returned at once; it starts when
   * the thread is free, after the runs queued before it (undefined: the thread is free, start now).
   */
  async enqueue(thread: ThreadRecord, assistant: string, body: RunRequest): Promise<RunRecord | undefined> {
    const live = await this.session(thread, assistant);
    if (!(await live.busy()) && !this.tail.has(thread.thread_id)) return undefined;
    // Refused now, not when its turn comes (a regenerate, with a checkpoint and no input, has its message in the thread).
    if (body.command?.resume === undefined && !(body.checkpoint?.checkpoint_id ?? body.checkpoint_id)) humanOf(body);
    const run = await this.records.putRun({ ...newRun(thread, assistant, body, new Date().toISOString()), status: 'pending' });
    const before = this.tail.get(thread.thread_id) ?? Promise.resolve();
    const finished = before
      .catch(() => {})
      .then(async () => {
        await this.idle(live);
        const started = await this.start(thread, assistant, body, run);
        started.events.close(); // nobody reads it here; joinStream replays from the session
        return started.finished;
      })
      .catch(async (e: unknown) => (await this.records.updateRun(thread.thread_id, run.run_id, { status: 'error', error: (e as Error).message })) ?? { ...run, status: 'error' as const });
    this.queued.set(run.run_id, finished);
    this.tail.set(thread.thread_id, finished);
    void finished.then(() => {
      this.queued.delete(run.run_id);
      if (this.tail.get(thread.thread_id) === finished) this.tail.delete(thread.thread_id);
    });
    return run;
  }

  /** Stops the thread's running turn at its next safe point; `rollback` also forgets its run. */
  async stop(threadId: string, live: ServedSession, action: 'interrupt' | 'rollback'): Promise<void> {
    const current = this.active.get(threadId);
    await live.cancel();
    const ended = await current?.finished;
    if (!current || !ended) return;
    if (action === 'rollback') await this.records.deleteRun(threadId, current.runId);
    else await this.records.updateRun(threadId, current.runId, { cancel_reason: 'multitask' });
  }

  /** Waits until no turn runs on the session (another process's included). */
  async idle(live: ServedSession): Promise<void> {
    while (await live.busy()) await sleep(50);
  }

  /**
   * A run's status now: the record's, or, for a run this process does not follow (its server
   * restarted, or another server started it) that the session has finished, the session's.
   */
  async current(r: RunRecord, thread: ThreadRecord): Promise<RunRecord> {
    if (this.queued.has(r.run_id)) return (await this.records.run(r.thread_id, r.run_id)) ?? r;
    if ((r.status !== 'running' && r.status !== 'pending') || this.active.get(r.thread_id)?.runId === r.run_id || !thread.session) return r;
    const live = await this.hub.get(thread.session);
    if (await live.busy()) return r;
    const s = (await live.record()).status;
    const status: RunStatus = s === 'interrupted' || s === 'cancelled' ? 'interrupted' : s === 'error' ? 'error' : 'success';
    return (await this.records.updateRun(r.thread_id, r.run_id, { status })) ?? r;
  }

  /** The run's record once it has left `pending` (an enqueued run waits for the thread). */
  async started(r: RunRecord, thread: ThreadRecord): Promise<RunRecord> {
    for (;;) {
      const now = await this.records.run(thread.thread_id, r.run_id);
      if (!now) throw new LgError(404, `run ${r.run_id} was deleted before it started`);
      if (now.status !== 'pending') return now;
      await sleep(50);
    }
  }

  /** Resolves once the run has ended (followed here, or seen through its session). */
  async join(r: RunRecord, thread: ThreadRecord): Promise<RunRecord> {
    const queued = this.queued.get(r.run_id);
    if (queued) return queued;
    const followed = this.active.get(r.thread_id);
    if (followed?.runId === r.run_id) return followed.finished;
    for (;;) {
      const now = await this.current(r, thread);
      if (now.status !== 'running' && now.status !== 'pending') return now;
      await sleep(100);
    }
  }
}

function humanMessage(thread: string, index: number, content: string): LcMessage {
  return { type: 'human', id: messageId(thread, index), content, additional_kwargs: {}, response_metadata: {} };
}

/**
 * Where a run with a `checkpoint` starts, when that is not the thread's end: a new message from an
 * earlier state (LangGraph's edit forks the thread there), or, with no input, the person's message
 * that ends the checkpoint's state sent again (regenerate). adk rewinds the session to that point.
 */
function branchPoint(thread: string, view: SessionView, body: RunRequest): { at: number; human?: string | undefined } | undefined {
  const id = body.checkpoint?.checkpoint_id ?? body.checkpoint_id;
  if (!id) return undefined;
  const count = countFromCheckpoint(thread, id);
  const from = view.count - view.values.messages.length;
  if (count === undefined || count > view.count) throw new LgError(404, `thread ${thread} has no checkpoint ${id}`);
  if (count < from) throw new LgError(400, `checkpoint ${id} lies before the messages the thread keeps (its start was summarised or cleared)`);
  // A stopped turn's messages are not saved yet: a branch inside it would lose the turn and its checkpoint.
  const saved = from + view.record.messages.length;
  if (count > saved) throw new LgError(409, `checkpoint ${id} is inside the thread's stopped turn: answer its interrupts with command: {resume: …} first`);
  if (humanText(body.input) !== undefined) return count === view.count ? undefined : { at: count };
  const last = view.values.messages[count - from - 1];
  const again = last?.type === 'human' ? humanText({ messages: [last] }) : undefined;
  if (!again) throw new LgError(400, `input: no human message to send, and checkpoint ${id} does not end with one to send again (regenerate from the state after the person's message)`);
  return { at: count - 1, human: again };
}

/** The person's message a run sends (refused when its input has none). */
function humanOf(body: RunRequest): string {
  const human = humanText(body.input);
  if (!human) throw new LgError(400, 'input: no human message to send (send {messages: [{type: "human", content: "…"}]} or command.resume)');
  return human;
}

function newRun(thread: ThreadRecord, assistant: string, body: RunRequest, now: string): RunRecord {
  const modes = body.stream_mode == null ? undefined : Array.isArray(body.stream_mode) ? body.stream_mode : [body.stream_mode];
  return { run_id: randomUUID(), thread_id: thread.thread_id, assistant_id: assistant, created_at: now, updated_at: now, status: 'running', metadata: body.metadata ?? {}, multitask_strategy: body.multitask_strategy ?? 'reject', ...(modes ? { stream_mode: modes } : {}) };
}
