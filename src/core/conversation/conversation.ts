import { hasDailyLimit, RunBudget, underBudget } from '../agents/run-budget.js';
import { StoreError } from '../store/errors.js';
import type { UsageEvent } from '../models/usage-meter.js';
import { withRetry } from '../store/retry.js';
import type { AdkStores } from '../store/adk-stores.js';
import { lockSession, type LockOptions } from '../store/session-lock.js';
import { newSessionId } from '../store/session-store.js';
import type { SessionLease } from '../store/session-lock.js';
import { RunStream } from '../run-result.js';
import type { PendingInterrupt, SessionGoal, SessionRecord } from '../store/session-record.js';
import type { ApprovalPolicy, CallOptions, RunInbox } from '../agents/run-context.js';
import { formatRule, ruleAllows, ruleDenies } from '../agents/allow-rules.js';
import { compactMessages } from '../context/compact.js';
import { summaryMessage } from '../context/summary.js';
import { TokenCounter } from '../context/token-counter.js';
import { DEFAULT_COMPACT_THRESHOLD, DEFAULT_KEEP_TURNS, type CompactionEvent } from '../middlewares/summarize.js';
import { Runner } from '../runner.js';
import { systemMessage, userMessage, type Message } from '../schema/message.js';
import { splitInput, type UserInput } from '../schema/content-part.js';
import type { AgentEvent } from '../agents/types.js';
import type { JournalStore } from '../agents/run-journal.js';
import type { HistoryEntry } from '../agents/history.js';
import type { InterruptContext } from '../interrupt.js';
import { cancelledText, type Session } from '../agents/session.js';
import type { Todo } from '../prebuilt/deep/todos.js';
import type { RunStatus, RunResult } from '../run-result.js';
import { isTodosEvent } from '../prebuilt/deep/todos.js';
import type { Agent } from '../agents/types.js';
import { describeInterrupt } from './describe-interrupt.js';
import { compactionOf, type ConversationTeam } from './team.js';
import { explainIgnoredGrants, type AskedCall } from './ignored-grant-note.js';
import { policyApproval, type SessionPolicy } from './session-policy.js';
import { permissionModePolicy } from './permission-modes.js';
import { dailyCounter } from '../store/daily-counter.js';

/**
 * Options of one turn (`send`) or its continuation (`answer`). `modelOptions`, `toolOptions` and
 * `agents` (CallOptions) set the model's request settings and the tools' options for this turn, for
 * every agent or for agents by name, as the Runner's run options do.
 */
export interface TurnOptions extends CallOptions {
  signal?: AbortSignal | undefined;
  /** Messages the person sends while the turn works: the agent takes them after its current tool calls. */
  inbox?: RunInbox | undefined;
  /**
   * The turn's own id (a queued job's). Starting a turn whose id is the session's running turn
   * runs it again rather than adding the message twice (a worker taking over from one that died).
   */
  turnId?: string | undefined;
  /** Records model replies and tool results; a run again of the same turn replays them (see RunOptions.journal). */
  journal?: JournalStore | undefined;
}

/** What `startTurn` and `resumeTurn` take besides the text or answers: a turn's id, its journal, its model and tool options. */
export type TurnStart = Pick<TurnOptions, 'turnId' | 'journal' | 'modelOptions' | 'toolOptions' | 'agents'>;

/** The turn's CallOptions, only those it sets. */
function callOptionsOf(opts: TurnStart): CallOptions {
  const out: CallOptions = {};
  if (opts.modelOptions) out.modelOptions = opts.modelOptions;
  if (opts.toolOptions) out.toolOptions = opts.toolOptions;
  if (opts.agents) out.agents = opts.agents;
  return out;
}

/** Where a turn with an id stands in its session: not started, started and not ended, or ended. */
export type TurnState = 'new' | 'running' | 'ended';

/** A compaction between turns: how many messages the summary now stands for. */
export interface ContextCompaction {
  summarized: number;
}

/** A stored message, tagged with the agent that wrote it (absent for the user's own turns). */
export type HistoryMessage = Message & { agentName?: string };

/** How a turn ended, as `finishTurn` records it (a RunResult plus what the event stream told). */
export interface TurnOutcome {
  status: RunStatus;
  usage: { promptTokens: number; completionTokens: number };
  interrupts: InterruptContext[];
  /** The turn was cancelled and saved at a safe point: resuming continues it. */
  cancelledAtCheckpoint?: boolean | undefined;
  /** The last todo list written in the turn (deep agents). */
  todos?: Todo[] | undefined;
}

/** Where a conversation lives and what it talks to (`Conversation.start` / `Conversation.load`). */
export interface ConversationOptions {
  /** The root agent, or a team with what the session should record about it. */
  agent: Agent | ConversationTeam;
  /** Sessions, checkpoints and leases: `await openAdkStores()` (SQLite under ADK_HOME) or `openAdkStores('memory://')`. */
  stores: AdkStores;
  /** How long this process's lease on the session lasts between renewals (default 30 s). */
  lease?: LockOptions | undefined;
}

/**
 * A multi-turn conversation saved in a store: each `send` is a turn that sees the earlier ones
 * (compacted when the root agent summarises), interrupts wait in the session until `answer`
 * resumes them, and one process at a time holds the session (a lease). The CLI's REPL and
 * `adk run --session` are built on it.
 *
 * ```ts
 * const conv = await Conversation.start({ agent, stores: await openAdkStores('memory://') });
 * const first = await conv.send('Hello').result;
 * for await (const e of conv.send('And then?')) { … }
 * await conv.send({ text: 'What is in it?', parts: [await readContentPart('shot.png')] }).result;
 * await conv.close();
 * ```
 */
export class Conversation<T extends ConversationTeam = ConversationTeam> {
  private session?: Session | undefined;
  /** Told about each failed save that is tried again (the headless run prints it). */
  onSaveRetry?: ((error: Error, attempt: number, delayMs: number) => void) | undefined;

  private constructor(
    readonly stores: AdkStores,
    public team: T,
    public record: SessionRecord,
    /** This process's lease on the session: one writer per session. */
    readonly lease: SessionLease,
  ) {}

  /** Starts a new saved conversation (a new session id, leased by this process until `close`). */
  static async start(options: ConversationOptions & { title?: string }): Promise<Conversation> {
    const lease = await lockSession(options.stores.kv, newSessionId(), options.lease);
    try {
      return await Conversation.create(options.stores, asTeam(options.agent), lease, { title: options.title });
    } catch (e) {
      await lease.release();
      throw e;
    }
  }

  /** Opens a saved conversation by id (or unique prefix) to go on with it. */
  static async load(options: ConversationOptions, idOrPrefix: string): Promise<Conversation> {
    const id = await options.stores.sessions.resolveId(idOrPrefix);
    const lease = await lockSession(options.stores.kv, id, options.lease);
    try {
      const record = await options.stores.sessions.get(id, { from: 'context' });
      if (!record) throw new Error(`session ${idOrPrefix} does not exist`);
      return Conversation.open(options.stores, asTeam(options.agent), record, lease);
    } catch (e) {
      await lease.release();
      throw e;
    }
  }

  /** A new session bound to the team's agents file (path and hash) and workspace. `lease` is on its id. */
  static async create<T extends ConversationTeam>(stores: AdkStores, team: T, lease: SessionLease, init: { title?: string | undefined; served?: boolean; policy?: SessionPolicy | undefined } = {}): Promise<Conversation<T>> {
    const record = await stores.sessions.create({
      id: lease.sessionId,
      rootAgent: team.rootName ?? team.agent.name,
      model: team.modelName,
      agentsFile: team.agentsFile,
      agentsHash: team.agentsHash,
      workspace: team.workspace,
      title: init.title,
      served: init.served,
      policy: init.policy,
    });
    return new Conversation(stores, team, record, lease);
  }

  /** An existing session, read after its lease was taken. */
  static open<T extends ConversationTeam>(stores: AdkStores, team: T, record: SessionRecord, lease: SessionLease): Conversation<T> {
    const conv = new Conversation(stores, team, record, lease);
    // A run that stopped (a budget reached, a question, a cancel) goes on counting against the budget it had.
    if (record.budget && record.checkpointId) conv.runBudget = RunBudget.restore(record.budget);
    return conv;
  }

  /** Gives the session up for another process. */
  close(): Promise<void> {
    return this.lease.release();
  }

  /** "Always allow": this tool runs without asking for the rest of this session (and when it is resumed). */
  async grant(tool: string): Promise<void> {
    const grants = (this.record.grants ??= []);
    if (grants.includes(tool)) return;
    grants.push(tool);
    await this.save();
  }

  /** Sets (or clears) the session's goal, saved at once: a crash in any attempt resumes into the same goal. */
  async setGoal(goal: SessionGoal | undefined): Promise<void> {
    this.record.goal = goal;
    await this.save();
  }

  get grants(): readonly string[] {
    return this.record.grants ?? [];
  }

  /**
   * A face's working mode (an editor's "accept edits", "plan"): what it lets run unasked or refuses
   * outright, on top of grants and allow rules. Held by the face, not saved with the session.
   */
  mode?: ApprovalPolicy | undefined;

  /**
   * The budget of the run under way. A face that sets one (`adk run --max-model-calls`…) shares it
   * across every run it starts (goal attempts, denial rounds) until it sets another; otherwise each new
   * turn starts a fresh one from the team's `budget` limits, and a stopped run resumed counts on.
   */
  get budget(): RunBudget | undefined {
    return this.runBudget;
  }
  set budget(budget: RunBudget | undefined) {
    this.runBudget = budget;
    this.budgetSetByFace = true;
  }
  private runBudget: RunBudget | undefined;
  private budgetSetByFace = false;

  /**
   * What runs without asking: the mode, this session's grants, then the team's allow-list (agents.yaml,
   * adk config, settings files). A deny rule refuses a call before any of them is asked. Public so a
   * face can ask it about a call it runs for the person (a command file's `` !`cmd` ``).
   */
  get approvalPolicy(): ApprovalPolicy {
    // A served session's policy: its mode where the face set none, its rules beside the team's.
    const policy = this.policy();
    const mode = this.mode ?? policy.mode;
    const own = (agentName: string) => this.team.agentPermissions?.get(agentName);
    const denied = (call: { tool: string; arguments: unknown; agentName: string }) =>
      [...(this.team.denyRules ?? []), ...policy.deny, ...(own(call.agentName)?.deny ?? [])].find((r) => ruleDenies(r, call.tool, call.arguments, this.team.workspace));
    return {
      allows: (call) => !this.team.alwaysAsk?.includes(call.tool) && this.grantCovers(call),
      // A PreToolUse hook's allow skips the prompt, but not for these.
      alwaysAsks: (call) => !!this.team.alwaysAsk?.includes(call.tool),
      // A grant must not be ignored only because the sandbox probe has not answered yet: a gated
      // call is decided once it has (the model's first request does not wait for it).
      ready: () => this.team.alwaysAskKnown ?? Promise.resolve(),
      refuses: (call) => {
        const rule = denied(call);
        if (rule) return `A deny rule (${formatRule(rule)}) forbids this ${call.tool} call; it was not run. Do without it or ask the user.`;
        // The agent's own plan mode (agents file) refuses its changes whatever the session's mode is.
        return mode?.refuses?.(call) ?? agentModePolicy(own(call.agentName)?.mode)?.refuses?.(call);
      },
    };
  }

  /** The mode, a grant or an allow rule lets this call run unasked (before `alwaysAsk` has its say). */
  private grantCovers(call: AskedCall): boolean {
    const policy = this.policy();
    const mode = this.mode ?? policy.mode;
    const own = this.team.agentPermissions?.get(call.agentName);
    return (
      !!mode?.allows(call) ||
      !!agentModePolicy(own?.mode)?.allows(call) ||
      this.grants.includes(call.tool) ||
      [...(this.team.allowRules ?? []), ...policy.allow, ...(own?.allow ?? [])].some((r) => ruleAllows(r, call.tool, call.arguments, this.team.workspace))
    );
  }

  /**
   * This face runs the session's saved policy (`adk serve`, `adk worker`, `adk mcp serve`: the faces
   * that made it). A person's own face (the REPL, `adk resume`) keeps its own mode and rules: a
   * client's policy never changes what runs unasked there.
   */
  followsPolicy = false;

  /** The session's saved policy, parsed once per record (nothing unless this face follows it). */
  private policy(): ReturnType<typeof policyApproval> {
    const saved = this.followsPolicy ? this.record.policy : undefined;
    if (!this.parsedPolicy || this.parsedPolicy.from !== saved) this.parsedPolicy = { from: saved, value: saved ? policyApproval(saved) : { allow: [], deny: [] } };
    return this.parsedPolicy.value;
  }
  private parsedPolicy: { from: SessionPolicy | undefined; value: ReturnType<typeof policyApproval> } | undefined;

  /** A turn's events, its approvals saying why a grant did not apply where `alwaysAsk` overruled one. */
  private explained(events: AsyncIterable<AgentEvent>): AsyncIterable<AgentEvent> {
    return explainIgnoredGrants(events, (call) =>
      this.team.alwaysAsk?.includes(call.tool) && this.grantCovers(call) ? (this.team.alwaysAskReason ?? `${call.tool} asks every time here`) : undefined,
    );
  }

  /** What every run of this conversation gets, a new turn's and a resumed one's. */
  private runOptions(signal: AbortSignal, inbox: RunInbox | undefined, opts: TurnStart) {
    return {
      signal: this.runSignal(signal),
      approvalPolicy: this.approvalPolicy,
      budget: this.budgetForRun(),
      artifacts: this.stores.sessions.artifacts(this.id),
      onSession: (s: Session) => (this.session = s),
      inbox,
      journal: opts.journal,
      ...callOptionsOf(opts),
    };
  }

  /**
   * The run's budget, with today's shared caps (the team's `dailyBudget`) on it. Every run has one,
   * limits or not: it keeps what agents with a `budget:` of their own spent, saved with the session.
   */
  private budgetForRun(): RunBudget {
    const budget = (this.runBudget ??= new RunBudget({}));
    const daily = this.team.dailyBudget;
    if (hasDailyLimit(daily)) budget.daily ??= { limits: daily, counter: dailyCounter(this.stores.kv, daily.scope) };
    return budget;
  }

  /** The run stops if the caller cancels or the lease is lost to another process. */
  private runSignal(signal: AbortSignal): AbortSignal {
    return AbortSignal.any([signal, this.lease.signal]);
  }

  get id(): string {
    return this.record.id;
  }

  private runner(): Runner {
    return new Runner({ agent: this.team.agent, enableStreaming: true, checkpointStore: this.stores.checkpoints, tracing: this.team.tracing ?? true, secrets: this.stores.secrets, usageEvents: true });
  }

  /**
   * Compacts the model's context when the next request would pass the summarize threshold, or
   * always when `force` (`/compact`): the older messages become a summary in the session record;
   * every message stays in the session's log. A failed summary changes nothing (`/compact` throws it).
   */
  async compact(opts: { force?: boolean; instructions?: string; next?: string; signal?: AbortSignal } = {}): Promise<ContextCompaction | undefined> {
    const c = this.team.compaction ?? compactionOf(this.team.agent);
    if (!c) {
      if (opts.force) throw new Error('this team cannot compact: its root agent has no summarize middleware');
      return undefined;
    }
    if (!c.window && !opts.force) return undefined;
    await this.abandonStoppedTurn();
    const history = this.contextHistory().map((e) => e.message);
    const counter = (this.counter ??= new TokenCounter(c.model.modelName));
    if (!opts.force) {
      const request = [systemMessage(c.overhead.instruction), ...history, userMessage(opts.next ?? '')];
      if (!(await counter.exceeds(request, c.overhead.tools, (c.options.threshold ?? DEFAULT_COMPACT_THRESHOLD) * c.window!))) return undefined;
    }
    const usage: UsageEvent[] = [];
    const agent = this.team.rootName ?? this.team.agent.name;
    const onReply = (reply: Message) => {
      if (reply.usage) usage.push({ type: 'usage', model: c.model.modelName, agent, promptTokens: reply.usage.promptTokens, completionTokens: reply.usage.completionTokens, nested: true, ...(reply.usage.estimated ? { estimated: true } : {}) });
    };
    const instructions = [c.options.instructions, opts.instructions].filter(Boolean).join('; ') || undefined;
    const result = await compactMessages(history, {
      onReply,
      // Its calls are checked against and counted in the coming turn's budget and today's caps
      // (`/compact`, outside a turn: today's caps only). A cap reached leaves the context as it is.
      model: underBudget(c.model, { budget: opts.force ? this.dailyOnly() : this.budgetForRun(), address: [], turn: false }),
      // PreCompact hooks, once it is settled that something is compacted.
      beforeSummary: () => this.team.hooks?.preCompact(opts.force ? 'manual' : 'auto', opts.instructions ?? '', opts.signal) ?? Promise.resolve(),
      counter,
      // An unknown window only sizes the summary requests of a `/compact`.
      window: c.window ?? UNKNOWN_WINDOW,
      keepTurns: opts.force ? 0 : (c.options.keepTurns ?? DEFAULT_KEEP_TURNS),
      instructions,
      signal: opts.signal,
      secrets: this.stores.secrets?.(),
    });
    if (!result) return undefined;
    // A failed summary changes nothing here: `/compact` says so, and between turns the in-run
    // middleware still keeps the request inside the window (dropping the oldest turns only for that run).
    if (result.error || result.summary === undefined) {
      if (opts.force) throw result.error ?? new Error('the model wrote no summary');
      return undefined;
    }
    const r = this.record;
    const hadSummary = r.contextSummary ? 1 : 0;
    r.contextStart = (r.contextStart ?? 0) + result.cut - hadSummary;
    r.contextSummary = { text: result.summary, summarized: result.summarized, at: new Date().toISOString() };
    await this.save();
    // What the summary requests used is counted with the turn that follows (see usage-meter.ts).
    this.compactionUsage.push(...usage);
    return { summarized: result.summarized };
  }

  /** A budget with today's shared caps only (a `/compact` between turns), or undefined without daily caps. */
  private dailyOnly(): RunBudget | undefined {
    const daily = this.team.dailyBudget;
    if (!hasDailyLimit(daily)) return undefined;
    const budget = new RunBudget({});
    budget.daily = { limits: daily, counter: dailyCounter(this.stores.kv, daily.scope) };
    return budget;
  }

  private counter?: TokenCounter | undefined;
  /** Usage of summary requests made outside a turn (compaction, `/compact`), reported with the next turn. */
  private readonly compactionUsage: UsageEvent[] = [];

  /** Where the turn `turnId` stands: a worker that picks up a job asks before running it. */
  turnState(turnId: string): TurnState {
    if (this.record.turnId !== turnId) return 'new';
    return this.record.status === 'active' ? 'running' : 'ended';
  }

  /**
   * Starts a new turn. The user's message is saved before the model is called; the context is
   * compacted first if it must be. A turn id that is already running (its process died) runs
   * again from the saved message, its journal replaying what the first attempt did.
   */
  async startTurn(input: UserInput, signal: AbortSignal, inbox?: RunInbox, opts: TurnStart = {}): Promise<AsyncIterable<AgentEvent>> {
    const { text } = splitInput(input);
    if (!this.budgetSetByFace) this.runBudget = this.team.budget ? new RunBudget(this.team.budget) : undefined;
    const again = opts.turnId !== undefined && this.turnState(opts.turnId) === 'running';
    let compacted: ContextCompaction | undefined;
    let prior: HistoryEntry[];
    if (again) {
      // The message was saved by the first attempt: it is the last one, and it is this turn's input.
      prior = this.contextHistory().slice(0, -1);
    } else {
      await this.abandonStoppedTurn();
      compacted = await this.compact({ next: text, signal });
      prior = this.contextHistory();
      this.record.messages.push(userMessage(input));
      this.record.status = 'active';
      this.record.pendingInterrupts = [];
      this.record.turnId = opts.turnId;
      await this.save();
    }
    const events = this.explained(
      // The session's record decides what is pending: a checkpoint it does not know (a crash between the two saves) is given up.
      this.runner().run([userMessage(input)], { ...this.runOptions(signal, inbox, opts), history: prior, checkpointId: this.id, replaceCheckpoint: true }),
    );
    const root = this.team.rootName ?? this.team.agent.name;
    let out = compacted ? withFirst(compactionEvent(root, compacted), events) : events;
    for (const u of this.compactionUsage.splice(0)) out = withFirst({ agentName: root, runPath: [], output: { custom: u } }, out);
    return out;
  }

  /**
   * One turn: iterate the result for its events and/or await `result`. The turn is saved when it
   * ends (its messages join the history; interrupts wait for `answer`); `result` settles after that.
   */
  send(input: UserInput, options: TurnOptions = {}): RunStream {
    const signal = options.signal ?? new AbortController().signal;
    return this.recorded(() => this.startTurn(input, signal, options.inbox, options));
  }

  /** Answers the waiting interrupts by id (approval `{ approved }`, a question's text, …) and goes on with the turn. */
  answer(targets: Record<string, unknown>, options: TurnOptions = {}): RunStream {
    const signal = options.signal ?? new AbortController().signal;
    return this.recorded(() => this.resumeTurn(targets, signal, options.inbox, options));
  }

  /** The saved messages of the conversation as loaded (user turns have no agentName). */
  get history(): readonly HistoryMessage[] {
    return this.record.messages as HistoryMessage[];
  }

  /** The end of the last turn that started: a turn begins only after it (one turn at a time). */
  private lastTurn: Promise<void> = Promise.resolve();

  /**
   * A turn's events through a RunStream, finished (saved) once they end. Turns run one at a time: a
   * `send` while another turn runs waits for it to be saved, then sees it in its history (two at once
   * lost an answer). A turn takes its place when it is first read, so a stream nobody reads holds
   * nothing up.
   */
  private recorded(start: () => Promise<AsyncIterable<AgentEvent>>): RunStream {
    const conv = this;
    let todos: Todo[] | undefined;
    let inner: RunStream | undefined;
    async function* events(): AsyncIterable<AgentEvent> {
      const previous = conv.lastTurn;
      let done!: () => void;
      conv.lastTurn = new Promise<void>((resolve) => (done = resolve));
      try {
        await previous;
        inner = new RunStream(await start(), conv.id);
        for await (const e of inner) {
          const custom = e.output?.custom;
          if (isTodosEvent(custom)) todos = custom.todos;
          yield e;
        }
        await conv.finishTurn(outcomeOf(await inner.result, todos));
      } finally {
        done();
      }
    }
    return new RunStream(events(), this.id);
  }

  /**
   * Starts the model's context afresh: later turns do not carry the earlier ones. Nothing is deleted;
   * a stopped turn is closed first, as a new message would close it.
   */
  async clearContext(): Promise<void> {
    await this.abandonStoppedTurn();
    this.record.contextStart = messageTotal(this.record);
    this.record.contextSummary = undefined;
    this.record.pendingInterrupts = [];
    await this.save();
  }

  /**
   * Adds something the person did outside a turn (a `!command` and its output) to the conversation
   * as a user message: the next turn's model sees it. A stopped turn is closed first.
   */
  async addContext(text: string): Promise<void> {
    await this.abandonStoppedTurn();
    this.record.messages.push(userMessage(text));
    this.record.pendingInterrupts = [];
    await this.save();
  }

  /** The model's context as prior history: the summary of what came before, then the messages since. */
  private contextHistory(): HistoryEntry[] {
    const r = this.record;
    const from = (r.contextStart ?? 0) - (r.messagesFrom ?? 0);
    if (from < 0) throw new Error(`session ${r.id}: its context starts at message ${r.contextStart}, before the ${r.messagesFrom} loaded`);
    const recent = toHistory(r.messages.slice(from) as HistoryMessage[]);
    return r.contextSummary ? [{ isUserInput: true, agentName: '', message: summaryMessage(r.contextSummary) }, ...recent] : recent;
  }

  /** Continues the interrupted (or cancelled) turn, answering the targeted interrupt points. */
  async resumeTurn(targets: Record<string, unknown>, signal: AbortSignal, inbox?: RunInbox, opts: TurnStart = {}): Promise<AsyncIterable<AgentEvent>> {
    const checkpointId = this.record.checkpointId ?? this.id;
    if (opts.turnId === undefined || this.turnState(opts.turnId) !== 'running') {
      this.record.status = 'active';
      this.record.turnId = opts.turnId;
      await this.save();
    }
    return this.explained(
      this.runner().resume(checkpointId, { targets }, this.runOptions(signal, inbox, opts)),
    );
  }

  get pending(): PendingInterrupt[] {
    return this.record.pendingInterrupts;
  }

  /** Saves the waiting questions before anyone sees them, so quitting at a prompt loses nothing. */
  async markInterrupted(contexts: InterruptContext[]): Promise<void> {
    this.record.status = 'interrupted';
    this.record.checkpointId = this.id;
    this.record.pendingInterrupts = contexts.filter((c) => !c.cancelled).map(toPending);
    await this.save();
  }

  /** Records how the turn ended. A finished turn's messages join the history; an interrupted one waits. */
  async finishTurn(summary: TurnOutcome): Promise<void> {
    const r = this.record;
    r.budget = this.runBudget?.state();
    r.usage.promptTokens += summary.usage.promptTokens;
    r.usage.completionTokens += summary.usage.completionTokens;
    r.status = summary.status;
    if (summary.todos) r.todos = summary.todos;
    const resumable = summary.status === 'interrupted' || !!summary.cancelledAtCheckpoint;
    r.pendingInterrupts = resumable ? summary.interrupts.map(toPending) : [];
    if (resumable) {
      r.checkpointId = this.id;
      // A resume makes the stopped call again; a new message instead keeps what was shown of it.
      r.pendingTurn = [...(await this.turnMessages()), ...this.cancelledAnswer(summary)];
      await this.save();
      return;
    }
    const finishedCheckpoint = r.checkpointId;
    r.checkpointId = undefined;
    r.pendingTurn = undefined;
    r.messages.push(...closeDanglingCalls(await this.turnMessages()));
    await this.save();
    // A finished turn's checkpoint must not be resumable again: that would re-run approved tools.
    if (finishedCheckpoint) await this.stores.checkpoints.delete(finishedCheckpoint);
  }

  /**
   * A new message after a turn that stopped (a cancel, or questions left unanswered): the stopped
   * turn joins the history as far as it got, each call that never finished answered "cancelled",
   * and its checkpoint is dropped, so the history stays a valid conversation for the model.
   */
  private async abandonStoppedTurn(): Promise<void> {
    const r = this.record;
    if (!r.checkpointId && !r.pendingTurn) return;
    r.messages.push(...closeDanglingCalls((r.pendingTurn ?? []) as HistoryMessage[]));
    const checkpoint = r.checkpointId;
    r.pendingTurn = undefined;
    r.checkpointId = undefined;
    r.pendingInterrupts = [];
    if (checkpoint) await this.stores.checkpoints.delete(checkpoint);
  }

  /** The partial answer of a turn cancelled mid-stream, as an assistant message of its agent. */
  private cancelledAnswer(summary: TurnOutcome): HistoryMessage[] {
    if (summary.status !== 'cancelled' || !this.session) return [];
    const partial = cancelledText(this.session);
    return partial ? [{ role: 'assistant', content: partial.text, agentName: partial.agentName }] : [];
  }

  private async turnMessages(): Promise<HistoryMessage[]> {
    if (!this.session) return [];
    const events = await this.session.materialize();
    return events.filter((e) => e.message).map((e) => ({ ...e.message!, agentName: e.agentName }));
  }

  /**
   * Saves the record. A store that is unreachable (Redis restarting) is tried again with backoff
   * for a few seconds; a lock (SQLite) has already been waited on by the store itself.
   */
  async save(): Promise<void> {
    // The lease went to another process (this one stalled past its ttl): its record is not ours to overwrite.
    if (this.lease.signal.aborted) throw new Error(`session ${this.id} was taken over by another process; this copy of it was not saved there`);
    let attempt = 0;
    this.record = await withRetry(() => this.stores.sessions.save(this.record, { rewrite: attempt++ > 0 }), {
      attempts: SAVE_ATTEMPTS,
      baseDelayMs: 250,
      maxDelayMs: 2000,
      what: `saving session ${this.id}`,
      retryable: (e) => e instanceof StoreError && e.code === 'store_unavailable',
      onRetry: this.onSaveRetry,
    });
  }
}

export const CANCELLED_CALL_RESULT = 'cancelled: this call did not finish because the turn was stopped';

/** Answers every tool call that has no result, right after the message that made it. */
export function closeDanglingCalls(messages: HistoryMessage[]): HistoryMessage[] {
  const answered = new Set(messages.filter((m) => m.role === 'tool').map((m) => `${m.agentName ?? ''}\u0000${m.toolCallId}`));
  const out: HistoryMessage[] = [];
  for (const m of messages) {
    out.push(m);
    for (const c of m.role === 'assistant' ? (m.toolCalls ?? []) : []) {
      if (answered.has(`${m.agentName ?? ''}\u0000${c.id}`)) continue;
      out.push({ role: 'tool', content: CANCELLED_CALL_RESULT, toolCallId: c.id, toolName: c.function.name, isError: true, agentName: m.agentName });
    }
  }
  return out;
}

/** The custom event that tells the REPL and JSON Lines of a compaction between turns. */
export function compactionEvent(agent: string, c: ContextCompaction): AgentEvent {
  const custom: CompactionEvent = { type: 'compaction', agent, summarized: c.summarized };
  return { agentName: agent, runPath: [], output: { custom } };
}

async function* withFirst<T>(first: T, rest: AsyncIterable<T>): AsyncIterable<T> {
  yield first;
  yield* rest;
}

/** Messages in the session, loaded or not. */
export function messageTotal(r: SessionRecord): number {
  return (r.messagesFrom ?? 0) + r.messages.length;
}

const UNKNOWN_WINDOW = 32_000;

/** Attempts per save: the waits between them add up to 2-4 s. */
export const SAVE_ATTEMPTS = 5;

/** Stored messages as the Runner's prior history: user turns are user input; the rest keep their agent. */
export function toHistory(messages: HistoryMessage[]): HistoryEntry[] {
  return messages.map(({ agentName, ...message }) => ({
    isUserInput: !agentName,
    agentName: agentName ?? '',
    message,
  }));
}

function asTeam(agent: Agent | ConversationTeam): ConversationTeam {
  return 'agent' in agent && typeof (agent as ConversationTeam).agent?.run === 'function' ? (agent as ConversationTeam) : { agent: agent as Agent };
}

/** A RunResult as the turn's record needs it. */
function outcomeOf(r: RunResult, todos: Todo[] | undefined): TurnOutcome {
  return {
    status: r.status,
    usage: r.usage,
    interrupts: r.interrupts,
    cancelledAtCheckpoint: r.status === 'cancelled' && r.checkpointId !== undefined,
    ...(todos ? { todos } : {}),
  };
}

export function toPending(c: InterruptContext): PendingInterrupt {
  return describeInterrupt(c) as PendingInterrupt;
}

/** An agent's own mode from the agents file, as a policy (`default` adds nothing). */
function agentModePolicy(mode: 'default' | 'accept-edits' | 'plan' | undefined): ApprovalPolicy | undefined {
  return mode && mode !== 'default' ? permissionModePolicy(mode) : undefined;
}
