import { checkOptions, describeValue } from './agents/options-check.js';
import type { RunBudget } from './agents/run-budget.js';
import { setMaxListeners } from 'node:events';
import { RunJournal, type JournalStore } from './agents/run-journal.js';
import { toFlowAgent, type FlowAgent } from './agents/flow.js';
import { createRunContext, DEFAULT_MAX_TRANSFERS, type ApprovalPolicy, type CallOptions, type RunContext, type RunInbox, type SideEffectLedger } from './agents/run-context.js';
import { Session } from './agents/session.js';
import { errorEvent, type Agent, type AgentEvent, type AgentInput } from './agents/types.js';
import { generate } from './async-queue.js';
import { buildCheckpoint, consumedCheckpoint, parseCheckpoint, serializeCheckpoint, type Checkpoint, type CheckpointStore } from './checkpoint.js';
import { AdkError, CheckpointError, ConfigError, toError } from './errors.js';
import { ResumeContext, toInterruptAction } from './interrupt.js';
import { userMessage, type Message } from './schema/message.js';
import type { UserInput } from './schema/content-part.js';
import type { HistoryEntry } from './agents/history.js';
import { RunStream } from './run-result.js';
import { combineCallbacks, type RunCallbacks } from './callbacks.js';
import { UsageMeter } from './models/usage-meter.js';
import { otelTracing, type OtelTracingOptions } from './tracing/otel.js';
import type { ArtifactStore } from './middlewares/reduce-tool-results.js';

/**
 * Settings of a Runner: the root agent, streaming, where checkpoints go, limits and tracing. `T` is
 * the type of the results' `structured`, taken from the agent (its zod output schema's).
 */
export interface RunnerConfig<T = unknown> {
  /**
   * Yield a `usage` event (output.custom, see models/usage-meter.ts) for every model request of the
   * run, sub-agents' and summaries' too, and count them in the result. Conversations turn it on.
   */
  usageEvents?: boolean | undefined;
  agent: Agent<T>;
  enableStreaming?: boolean | undefined;
  checkpointStore?: CheckpointStore | undefined;
  /** Bound on transfers per run, so agents that hand a question back and forth stop. */
  maxTransfers?: number | undefined;
  /**
   * OpenTelemetry spans for every run (`invoke_agent`, `chat`, `execute_tool`), when
   * `@opentelemetry/api` is installed: no-ops until an SDK is registered. Default true; `false`
   * turns it off; an object picks the tracer.
   */
  tracing?: boolean | OtelTracingOptions | undefined;
  /**
   * Values no model may be sent (API keys): every tool result, and every message of every model
   * request, has them (and their common re-encodings, see redactSecrets) replaced by `[REDACTED]`.
   */
  secrets?: (() => readonly string[]) | undefined;
}

/**
 * Options of one run (and of a resume). `modelOptions`, `toolOptions` and `agents` (CallOptions)
 * set the model's request settings and the tools' options for this run, for every agent or for
 * agents by name: `{ modelOptions: { temperature: 0 }, agents: { writer: { modelOptions: { temperature: 0.8 } } } }`.
 */
export interface RunOptions extends CallOptions {
  sessionValues?: Record<string, unknown> | undefined;
  signal?: AbortSignal | undefined;
  /** Observers of each agent run, model request and tool call. */
  callbacks?: RunCallbacks | undefined;
  /** Where to save a checkpoint if the run is interrupted. */
  checkpointId?: string | undefined;
  /**
   * Start over under `checkpointId` even when a run that stopped is saved there (its owner has given
   * that run up, as a Conversation does when a new message follows a stopped turn). Without it, such a
   * run is refused with `checkpoint_pending`, naming the `resume` to use.
   */
  replaceCheckpoint?: boolean | undefined;
  /**
   * Earlier turns of a conversation, with the agent that produced each message: each agent sees
   * its own earlier messages verbatim and the others' as `For context:` messages.
   */
  history?: HistoryEntry[] | undefined;
  /** Receives the run's session, e.g. to read the recorded messages of the turn afterwards. */
  onSession?(session: Session): void;
  /** Calls that need approval but were allowed ahead of time (a session's grants, a project allow-list). */
  approvalPolicy?: ApprovalPolicy | undefined;
  /** Caps on the run's model calls, tool calls and tokens (every agent of it); reaching one ends the run incomplete (`budget`). */
  budget?: RunBudget | undefined;
  /** Where middlewares keep large texts for the session (whole tool results). */
  artifacts?: ArtifactStore | undefined;
  /** Messages the person sends while the run works: agents take them after a batch of tool calls. */
  inbox?: RunInbox | undefined;
  /**
   * Records every model reply and tool result of this run as it happens; a later run of the same
   * turn with the same journal (another worker after a crash) replays them instead of calling again.
   */
  journal?: JournalStore | undefined;
}

/** What a resume answers. */
export interface ResumeParams {
  /** Data for the interrupt points being answered, by interrupt id. Points not listed interrupt again. */
  targets?: Record<string, unknown> | undefined;
}

/** Every run option, for the check of `run`, `query` and `resume` options (a porter's `checkPointID` is an error, not ignored). */
const RUN_OPTIONS = Object.keys({
  sessionValues: true, signal: true, callbacks: true, checkpointId: true, replaceCheckpoint: true, history: true, onSession: true, approvalPolicy: true,
  budget: true, artifacts: true, inbox: true, journal: true, modelOptions: true, toolOptions: true, agents: true,
} satisfies Record<keyof RunOptions, true>);
/** Eino's (Go's) spellings of run options. */
const RUN_OPTION_ALIASES: Record<string, string> = { checkPointID: 'checkpointId', WithCheckPointID: 'checkpointId', WithSessionValues: 'sessionValues', WithHistory: 'history' };

function checkRunOptions(call: string, opts: RunOptions): void {
  checkOptions(`runner.${call} options`, opts, { known: RUN_OPTIONS, aliases: RUN_OPTION_ALIASES });
}

/** `resume(id, params, opts)`: params holds `targets` only; run options there (Go's order) are said to belong in `opts`. */
function checkResumeParams(params: ResumeParams): void {
  if (params === null || typeof params !== 'object' || Array.isArray(params)) throw new ConfigError(`runner.resume params: expected { targets }, got ${describeValue(params)}`);
  const misplaced = Object.keys(params).filter((k) => RUN_OPTIONS.includes(k) || k in RUN_OPTION_ALIASES);
  if (misplaced.length) {
    throw new ConfigError(`runner.resume(checkpointId, params, options): ${misplaced.map((k) => `'${k}'`).join(', ')} ${misplaced.length > 1 ? 'are run options' : 'is a run option'}; pass ${misplaced.length > 1 ? 'them' : 'it'} third: runner.resume(id, { targets }, { ${misplaced.join(', ')} })`);
  }
  checkOptions('runner.resume params', params, { known: ['targets'], aliases: { Targets: 'targets', WithTargets: 'targets' } });
}

/** Runs an agent tree: one fresh session per run, checkpoints on interrupt, resume by id. */
export class Runner<T = unknown> {
  private readonly root: FlowAgent;

  constructor(private readonly config: RunnerConfig<T>) {
    this.root = toFlowAgent(config.agent);
  }

  /** Runs the agent on `messages`: iterate the result for events, or await its `result` for the outcome. */
  run(messages: Message[], opts: RunOptions = {}): RunStream<T> {
    checkRunOptions('run', opts);
    const ctx = this.context(new Session({ ...opts.sessionValues }), opts, this.config.enableStreaming ?? false);
    ctx.priorHistory = opts.history;
    const input: AgentInput = { messages, enableStreaming: ctx.enableStreaming };
    const meter = this.config.usageEvents ? metered(ctx) : undefined;
    const start = () => this.root.run(input, ctx);
    const events = () => this.saveOnInterrupt(opts.replaceCheckpoint ? start() : this.refusePending(opts.checkpointId, start), ctx, input, opts.checkpointId);
    return new RunStream(withUsage(meter, this.traced(ctx, events)), this.savedAt(opts.checkpointId));
  }

  /**
   * A new run under the id of a run that stopped (interrupted or cancelled) and was never resumed
   * would overwrite it, and the stopped run's questions with it: refused, naming the `resume` to use.
   * (Eino's Go porters continue a thread with `query(…, { checkpointId })`: that works once the run
   * under that id has finished.)
   */
  private async *refusePending(checkpointId: string | undefined, run: () => AsyncIterable<AgentEvent>): AsyncIterable<AgentEvent> {
    const store = this.config.checkpointStore;
    const text = store && checkpointId ? await store.get(checkpointId) : undefined;
    if (typeof text === 'string') {
      let pending = false;
      try {
        pending = !!parseCheckpoint(checkpointId!, text);
      } catch {
        // A consumed, corrupt or foreign checkpoint holds no run to lose: the new run takes its place.
      }
      if (pending) {
        throw new CheckpointError('checkpoint_pending', checkpointId!, `checkpoint ${checkpointId} holds a run that stopped and was not resumed: continue it with runner.resume('${checkpointId}', { targets }), or delete it (checkpointStore.delete) before starting a new run under that id`);
      }
    }
    yield* run();
  }

  query(input: UserInput, opts: RunOptions = {}): RunStream<T> {
    checkRunOptions('query', opts);
    return this.run([userMessage(input)], opts);
  }

  /** The checkpoint id a stopped run is saved under (when there is a store to save it in). */
  private savedAt(checkpointId: string | undefined): string | undefined {
    return this.config.checkpointStore ? checkpointId : undefined;
  }

  /**
   * Continues an interrupted run from its checkpoint; later interrupts overwrite the same checkpoint.
   * A run that finishes consumes its checkpoint: resuming it again is an error, never a second run.
   */
  resume(checkpointId: string, params: ResumeParams = {}, opts: RunOptions = {}): RunStream<T> {
    checkResumeParams(params);
    checkRunOptions('resume', opts);
    return new RunStream(this.resumeEvents(checkpointId, params, opts), this.savedAt(checkpointId));
  }

  private resumeEvents(checkpointId: string, params: ResumeParams, opts: RunOptions): AsyncIterable<AgentEvent> {
    return generate<AgentEvent>(
      async (emit) => {
        const store = this.config.checkpointStore;
        if (!store) throw new AdkError('no_store', 'failed to resume: no checkpoint store configured');
        const text = await store.get(checkpointId);
        // A store written after Eino's Go interface (`Get(ctx, id) ([]byte, bool, error)`) answers a pair.
        if (Array.isArray(text)) throw new ConfigError(`checkpointStore.get('${checkpointId}') returned an array (Go's [value, ok]?); it must resolve to the checkpoint's text, or undefined when there is none`);
        if (text === undefined) throw new CheckpointError('checkpoint_not_found', checkpointId, `checkpoint ${checkpointId} does not exist`);
        const cp = parseCheckpoint(checkpointId, text);
        const session = new Session({ ...cp.session.values, ...opts.sessionValues }, cp.session.events);
        const ctx = this.context(session, opts, cp.enableStreaming);
        ctx.rootInput = cp.rootInput;
        ctx.priorHistory = cp.history;
        ctx.resume = new ResumeContext(cp.interrupts, params.targets);
        ctx.sideEffects = startedLedger(store, checkpointId, cp);
        await this.addTracing(ctx);
        const meter = this.config.usageEvents ? metered(ctx) : undefined;
        let interrupted = false;
        for await (const e of withUsage(meter, this.saveOnInterrupt(this.root.resume(undefined, ctx), ctx, cp.rootInput, checkpointId, cp.started))) {
          if (e.action?.interrupted) interrupted = true;
          emit(e);
        }
        if (!interrupted) await store.set(checkpointId, consumedCheckpoint());
      },
      (e) => errorEvent(toError(e), this.root.name),
    );
  }

  private context(session: Session, opts: RunOptions, enableStreaming: boolean): RunContext {
    opts.onSession?.(session);
    const signal = opts.signal ?? new AbortController().signal;
    // Every parallel tool call and sub-agent listens to the run's one signal: more than ten is normal, not a leak.
    setMaxListeners(0, signal);
    return createRunContext({
      session,
      signal,
      enableStreaming,
      callbacks: opts.callbacks,
      approvalPolicy: opts.approvalPolicy,
      budget: opts.budget,
      artifacts: opts.artifacts,
      inbox: opts.inbox,
      journal: opts.journal ? new RunJournal(opts.journal) : undefined,
      transfers: { count: 0, max: this.config.maxTransfers ?? DEFAULT_MAX_TRANSFERS },
      secrets: this.config.secrets,
      callOptions: callOptionsOf(opts),
    });
  }

  /** The run's events, once tracing has joined its callbacks. */
  private async *traced(ctx: RunContext, events: () => AsyncIterable<AgentEvent>): AsyncIterable<AgentEvent> {
    await this.addTracing(ctx);
    yield* events();
  }

  private async addTracing(ctx: RunContext): Promise<void> {
    const tracing = this.config.tracing ?? true;
    if (tracing === false) return;
    ctx.callbacks = combineCallbacks(ctx.callbacks, await otelTracing(tracing === true ? {} : tracing));
  }

  /**
   * Saves the checkpoint before the interrupt event is seen, so whoever sees it can resume. As in
   * Eino, the run ends at its interrupt: events an agent sends after it are dropped (a cancel's
   * CancelledError, which follows its safe point, still comes). An interrupt in Eino's Go form
   * (`{ interrupted: { data } }`, see GoInterruptInfo) becomes a point of the agent that sent it.
   */
  private async *saveOnInterrupt(
    events: AsyncIterable<AgentEvent>,
    ctx: RunContext,
    input: AgentInput,
    checkpointId?: string,
    started?: string[],
  ): AsyncIterable<AgentEvent> {
    const store = this.config.checkpointStore;
    for await (const event of events) {
      const stopped = event.action?.interrupted;
      if (!stopped) {
        yield event;
        continue;
      }
      const interrupted = toInterruptAction(stopped, event.runPath.map((id) => ({ type: 'agent' as const, id })));
      const e: AgentEvent = interrupted === stopped ? event : { ...event, action: { ...event.action, interrupted } };
      let failure: AgentEvent | undefined;
      if (store && checkpointId) {
        try {
          const cp = await buildCheckpoint(input, ctx.session, interrupted.signal, e.runPath, ctx.enableStreaming, ctx.priorHistory);
          // A call that started and may have run keeps its mark until it is answered again.
          if (started?.length) cp.started = started.filter((a) => Object.values(cp.interrupts).some((p) => p.address === a));
          await store.set(checkpointId, serializeCheckpoint(cp));
        } catch (err) {
          failure = errorEvent(new AdkError('checkpoint_save', `failed to save checkpoint: ${toError(err).message}`), e.agentName);
        }
      }
      yield e;
      if (failure) yield failure;
      if (!interrupted.cancelled) return;
    }
  }
}

/** The run's CallOptions, when it has any. */
function callOptionsOf(opts: RunOptions): CallOptions | undefined {
  const { modelOptions, toolOptions, agents } = opts;
  return modelOptions || toolOptions || agents ? { modelOptions, toolOptions, agents } : undefined;
}

/**
 * Before an approved call waiting in the checkpoint starts, the checkpoint records that it started.
 * If the process dies before the next save, resuming sees the mark and asks again with a warning.
 */
function startedLedger(store: CheckpointStore, checkpointId: string, cp: Checkpoint): SideEffectLedger {
  const started = (cp.started ??= []);
  let writing = Promise.resolve();
  return {
    started: (address) => started.includes(address),
    markStarted(address) {
      if (!started.includes(address)) started.push(address);
      // Parallel approved calls write one after another, each with every mark so far.
      writing = writing.then(() => store.set(checkpointId, serializeCheckpoint(cp)));
      return writing;
    },
  };
}

/** Joins a usage meter to the run's callbacks (every model request of the run reaches them). */
function metered(ctx: RunContext): UsageMeter {
  const meter = new UsageMeter();
  ctx.callbacks = combineCallbacks(ctx.callbacks, meter.callbacks);
  return meter;
}

/** The run's events with a `usage` event after each one during which model requests ended. */
async function* withUsage(meter: UsageMeter | undefined, events: AsyncIterable<AgentEvent>): AsyncIterable<AgentEvent> {
  if (!meter) return yield* events;
  const drain = function* (): Iterable<AgentEvent> {
    for (const u of meter.drain()) yield { agentName: u.agent, runPath: [], output: { custom: u } };
  };
  for await (const e of events) {
    yield* drain();
    yield e;
    yield* drain();
  }
  yield* drain();
}
