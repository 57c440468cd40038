import { messageEvent, type AgentEvent, type RunInbox } from '../../core/index.js';
import { runShellCommand, shellContext } from './shell-command.js';
import { withMentions } from './mentions.js';
import { MentionPicker } from './mention-picker.js';
import { expandMcpPrompt, withResourceMentions } from './mcp-mentions.js';
import { customCommandInvocation, expandLocalCommand } from './local-commands.js';
import { CommandTurn, type CommandGrant, type CommandTurnHost } from './command-turn.js';
import { ActiveCommand } from './active-command.js';
import { withCommandGrants } from './command-allowed-tools.js';
import { TrustStore, trustFile } from '../trust.js';
import { attachedParts } from './part-mentions.js';
import type { UserInput } from '../../core/schema/content-part.js';
import type { AdkStores, SessionRecord } from '../../core/store/index.js';
import type { ChatUi } from '../../ui/index.js';
import { Conversation, messageTotal } from '../../core/conversation/conversation.js';
import { withSummary } from '../../core/conversation/drain-run.js';
import { lockedNewId, lockedSession, sessionTeamOptions } from '../session-access.js';
import { loadTeam, type Team, type TeamOptions } from '../team.js';
import { sessionItems } from './history-items.js';
import { compactionText } from '../../core/middlewares/summarize.js';
import { PermissionModes } from './permission-modes-state.js';
import type { PlanModeDecision } from '../../ui/index.js';
import { FileCheckpoints, withAfterRun } from '../rewind/file-checkpoints.js';
import type { SessionLease } from '../../core/store/index.js';

/** How long leaving waits for a team switch under way (an MCP server may take up to 30 s to start). */
const SWITCH_GRACE_MS = 3000;

/**
 * The REPL's link to the runtime: owns the current conversation (which `/new` and `/resume`
 * replace), runs turns and resumes through it, and keeps its session saved at every step.
 */
export class ChatHost {
  saved = true;
  onChange?: () => void;
  /** Turns whose final save has not finished yet. */
  private readonly saving = new Set<Promise<void>>();
  /** Aborted when adk must stop (SIGTERM, the terminal closed): every turn and `!command` ends with it. */
  private readonly stopping = new AbortController();
  /**
   * The `/model`, `/agents` or `/resume` still loading its team (an MCP server can take seconds to
   * start): a message sent meanwhile waits for it and goes to the team it brings, not to the one it
   * is about to close. Switches run one after another.
   */
  private switching: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(
    readonly stores: AdkStores,
    public conv: Conversation<Team>,
    private readonly teamOptions: TeamOptions,
  ) {}

  get team(): Team {
    return this.conv.team;
  }

  /** Opens text in $EDITOR with the terminal handed over (set by the REPL): `/memory`. */
  editInEditor?: (text: string) => string | undefined;

  /** Snapshots of the workspace's files around each turn: what `/rewind` restores. */
  readonly files = new FileCheckpoints();

  /** The permission mode (Shift-Tab) and a plan mode turn's plan waiting for review. */
  modes = new PermissionModes();

  /** Shift-Tab: the next mode; it applies from the next run on (a run under way keeps its own). */
  cycleMode = (): void => {
    this.modes.cycle();
    this.onChange?.();
  };

  /** The plan review's answer: what to send next, if anything. */
  decidePlan = async (decision: PlanModeDecision, ui: ChatUi): Promise<string | undefined> => {
    const next = await this.modes.decide(decision, (u) => this.clearContext(u), ui);
    this.onChange?.();
    return next;
  };

  /** A turn for what the person typed; `@path` mentions of workspace files are attached for the model. */
  runTurn = (text: string, signal: AbortSignal, inbox?: RunInbox): AsyncIterable<AgentEvent> => {
    const s = this.orStopping(signal);
    // A new message leaves a command that still waited for its approvals.
    this.command = undefined;
    // A command file with a model, allowed tools or `!`cmd`` lines: its own steps first (command-turn.ts).
    const custom = customCommandInvocation(text, this.team.workspace);
    if (custom && CommandTurn.needed(custom.command, custom.args)) {
      const command = (this.command = new CommandTurn(custom.command, custom.args, text, this.commandHost()));
      return this.commandEvents(() => command.start(s, inbox), s);
    }
    return this.turn(() => this.expand(text), s, inbox);
  };

  /** A turn of the current conversation; `command`: a custom command's, its grants begun (else an earlier command's turn ends first). */
  private turn(input: () => Promise<UserInput>, s: AbortSignal, inbox: RunInbox | undefined, command = false): AsyncIterable<AgentEvent> {
    let turn: Conversation<Team> | undefined;
    const run = this.track(
      async () => {
        const conv = (turn = this.conv);
        if (this.team.hooks) this.team.hooks.session.id = conv.id; // hooks get the session that runs
        try {
          const before = await this.files.snapshot(conv);
          const events = await conv.startTurn(await input(), s, this.mentioning(inbox));
          this.files.anchor(conv, messageTotal(conv.record) - 1, before);
          return events;
        } catch (e) {
          await this.activeCommand.end(); // the turn never started: the command's grants and model end here
          throw e;
        }
      },
      s,
      // An earlier command's turn left unanswered ends with the next message.
      command ? undefined : () => this.activeCommand.end(),
    );
    return withAfterRun(run, () => this.snapshotAfter(turn));
  }

  /** The custom command waiting for its approvals (its questions are answered through answerInterrupts). */
  private command: CommandTurn | undefined;

  /** The custom command whose turn runs: its allowed tools and model last as long as that turn. */
  private readonly activeCommand = new ActiveCommand();

  private async *commandEvents(start: () => AsyncIterable<AgentEvent>, signal: AbortSignal): AsyncIterable<AgentEvent> {
    if (!(await this.afterSwitch(signal))) return;
    yield* start();
  }

  /** The command's turn: its grants and model begin now (ending any earlier command's), and end with the turn. */
  private async *commandTurn(input: UserInput, s: AbortSignal, inbox: RunInbox | undefined, grant: CommandGrant): AsyncIterable<AgentEvent> {
    this.command = undefined;
    await this.activeCommand.begin(this.conv, grant);
    yield* this.turn(() => Promise.resolve(input), s, inbox, true);
  }

  /** What a custom command's steps use of this host. */
  private commandHost(): CommandTurnHost {
    const env = this.teamOptions.env ?? process.env;
    const host = this;
    return {
      get team() {
        return host.team;
      },
      // The person's own rules, grants and mode decide a `!`cmd``, never the command file's allowed tools.
      policy: (rules = []) => {
        this.conv.mode = withCommandGrants(this.modes.policy, rules, this.team.workspace);
        return this.conv.approvalPolicy;
      },
      loadModelTeam: (model) => this.loadForSwitch(this.sessionTeam(this.conv.record, model)),
      expand: (prompt, typed) => this.withAttachments(prompt, typed),
      startTurn: (input, signal, inbox, grant) => this.commandTurn(input, signal, inbox, grant),
      trust: this.teamOptions.trust ?? new TrustStore(trustFile(env)),
      env,
      // A `!`cmd`` runs outside any run: its output is redacted of what the run's tool results are.
      secrets: this.stores.secrets,
    };
  }

  /**
   * Once a run has ended and been saved: where the files stand (`/rewind` compares). In the
   * background (the prompt is free at once; the next snapshot waits for it); the session's next save
   * keeps it, or leaving it does (saveFileCheckpoints).
   */
  private snapshotAfter(conv: Conversation<Team> | undefined): Promise<void> {
    if (conv) void this.files.after(conv).then((changed) => changed && this.afterUnsaved.add(conv));
    return Promise.resolve();
  }

  /** Sessions whose last file snapshot is not saved yet. */
  private readonly afterUnsaved = new WeakSet<Conversation<Team>>();

  /** Saves the last file snapshot of a session being left, once the snapshot is taken. */
  private async saveFileCheckpoints(conv: Conversation<Team>): Promise<void> {
    await this.files.idle();
    if (this.afterUnsaved.delete(conv)) await conv.save().catch(() => {});
  }

  /**
   * What the model gets for what was typed: an MCP prompt's text, mentioned files and resources
   * attached, and the images and PDFs it names (`@shot.png`, a pasted path) as parts.
   */
  private async expand(text: string): Promise<UserInput> {
    const prompt = (await expandLocalCommand(text, this.team.workspace, this.team)) ?? (await expandMcpPrompt(text, this.team.mcp));
    return this.withAttachments(prompt ?? text, text);
  }

  /** The prompt with its mentioned files and resources attached, and the parts `typed` names. */
  private async withAttachments(prompt: string, typed: string): Promise<UserInput> {
    const full = await withResourceMentions(await withMentions(prompt, this.team.workspace), this.team.mcp);
    const parts = await attachedParts(typed, this.team.workspace);
    return parts.length ? { text: full, parts } : full;
  }

  /**
   * Cancels whatever runs now or starts later, and stops the background jobs at once (nothing may
   * outlive adk even if it is then killed while saving): adk is stopping and leaves through close().
   */
  stop(reason: string): void {
    this.stopping.abort(new Error(reason));
    this.team.stopJobs();
  }

  private orStopping(signal: AbortSignal): AbortSignal {
    return AbortSignal.any([signal, this.stopping.signal]);
  }

  /**
   * Messages sent into the running turn get their `@path` files attached like any other; the
   * transcript shows them as typed (`typed` maps what the model got back to it).
   */
  private mentioning(inbox: RunInbox | undefined): RunInbox | undefined {
    if (!inbox) return undefined;
    return {
      take: async () => {
        const sent: string[] = [];
        for (const text of await inbox.take()) {
          const full = await withResourceMentions(await withMentions(text, this.team.workspace), this.team.mcp);
          this.typed.set(full, text);
          sent.push(full);
        }
        return sent;
      },
    };
  }

  private readonly typed = new Map<string, string>();

  private readonly picker = new MentionPicker(() => this.team);

  /** The live `@` picker: workspace paths and MCP resources matching what follows `@`, best first (fuzzy, like fzf). */
  completePath = (query: string): string[] => this.picker.search(query);

  /** The `@` picker searches again when what it searches grew (MCP resources that arrived later). */
  onMentionsChanged = (listener: () => void): (() => void) => this.picker.onChange(listener);

  /** `!command`: runs it in the workspace, shows it as a shell row, and adds it to the conversation. */
  runShell = (command: string, signal: AbortSignal): AsyncIterable<AgentEvent> => this.shellEvents(command, this.orStopping(signal));

  private async *shellEvents(command: string, signal: AbortSignal): AsyncIterable<AgentEvent> {
    if (!(await this.afterSwitch(signal))) return;
    const id = `bang_${Date.now().toString(36)}`;
    const call = { id, type: 'function' as const, function: { name: 'shell', arguments: JSON.stringify({ command }) } };
    yield { ...messageEvent({ role: 'assistant', content: '', toolCalls: [call] }), agentName: 'you' };
    const done = this.beginSaving();
    try {
      const r = await runShellCommand(command, this.team.workspace, signal);
      // Saved before the row settles, so leaving right after (or being stopped) does not close the store under it.
      await this.conv.addContext(shellContext(command, r));
      // Killed (Esc, a stop): exitCode is null, which is no success.
      const failed = r.exitCode !== 0 || r.signal !== null;
      const shown = r.signal ? `${r.output ? `${r.output.trimEnd()}\n` : ''}stopped (${r.signal})` : r.output || '(no output)';
      const result = messageEvent({ role: 'tool', content: shown, toolCallId: id, toolName: 'shell', ...(failed ? { isError: true } : {}) });
      yield { ...result, agentName: 'you' };
    } finally {
      done();
    }
  }

  answerInterrupts = (answers: Record<string, unknown>, signal: AbortSignal, inbox?: RunInbox): AsyncIterable<AgentEvent> => {
    const s = this.orStopping(signal);
    const command = this.command;
    if (command?.answers(Object.keys(answers))) return this.commandEvents(() => command.answer(answers, s, inbox), s);
    let turn: Conversation<Team> | undefined;
    const run = this.track(async () => (turn = this.conv).resumeTurn(answers, s, this.mentioning(inbox)), s);
    return withAfterRun(run, () => this.snapshotAfter(turn));
  };

  /** Saves the session when the run stops for a person (before the prompt shows) and when it ends. */
  private async *track(start: () => Promise<AsyncIterable<AgentEvent>>, signal: AbortSignal, prepare?: () => Promise<void>): AsyncIterable<AgentEvent> {
    if (!(await this.afterSwitch(signal))) return;
    await prepare?.();
    const conv = this.conv;
    // The mode as it is when the run starts (and when it resumes after a question), with a command's grants during its turn.
    conv.mode = this.activeCommand.policy(conv, this.modes.policy);
    const mode = this.modes.mode;
    this.setSaved(false);
    const done = this.beginSaving();
    try {
      const { events, summary } = withSummary(await start(), signal);
      try {
        for await (const e of events) {
          const i = e.action?.interrupted;
          if (i && !i.cancelled) await conv.markInterrupted(i.contexts);
          yield this.asTyped(e);
        }
      } finally {
        const s = await summary;
        await conv.finishTurn(s);
        // A command's turn is over unless it waits for a person: its grants and model end with it.
        if (s.status !== 'interrupted') await this.activeCommand.end();
        this.modes.turnEnded(mode, s.status, s.output);
        this.setSaved(true);
      }
    } finally {
      done();
    }
  }

  /** Marks work that ends in a save: close() waits for it (see settle()). Returns the call that ends it. */
  private beginSaving(): () => void {
    let done!: () => void;
    const saving = new Promise<void>((resolve) => (done = resolve));
    this.saving.add(saving);
    return () => {
      this.saving.delete(saving);
      done();
    };
  }

  /** A message sent into the turn, as the person typed it (without the attached files). */
  private asTyped(e: AgentEvent): AgentEvent {
    const v = e.output?.message;
    const typed = v?.role === 'user' && v.message ? this.typed.get(v.message.content) : undefined;
    if (typed === undefined) return e;
    this.typed.delete(v!.message!.content);
    return { ...e, output: { ...e.output, message: { ...v!, message: { ...v!.message!, content: typed } } } };
  }

  /**
   * Waits (at most `timeoutMs`) for the turns still finishing to be saved: exiting right after a
   * cancel must not close the store under the last save.
   */
  async settle(timeoutMs = 5000): Promise<void> {
    if (!this.saving.size) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
    await Promise.race([Promise.all(this.saving), timeout]);
    clearTimeout(timer);
  }

  private setSaved(saved: boolean): void {
    this.saved = saved;
    this.onChange?.();
  }

  /** "Always allow" for the current session only; it is saved with the session, so resuming it keeps the grant. */
  grant = (tool: string): void => {
    void this.conv.grant(tool).catch(() => {}); // a failed save is reported by the next turn's save
    this.onChange?.();
  };

  /** Waits for a team switch under way; false when the work was cancelled (or adk began leaving) meanwhile. */
  private async afterSwitch(signal: AbortSignal): Promise<boolean> {
    await this.switching;
    return !signal.aborted && !this.closed;
  }

  /** Runs a team switch after the ones before it; turns and `!commands` started meanwhile wait for it. */
  private switchingTo<T>(work: () => Promise<T>): Promise<T> {
    // A command's turn ends before a switch: its model's team must not become the session's.
    const done = this.switching.then(async () => {
      await this.activeCommand.end();
      return work();
    });
    this.switching = done.catch(() => {});
    return done;
  }

  /** A team loaded for a switch, unless adk is leaving meanwhile (then it is closed and the switch stops). */
  private async loadForSwitch(options: TeamOptions): Promise<Team> {
    const team = await loadTeam(options);
    if (!this.closed) return team;
    await team.close();
    throw new Error('adk is leaving');
  }

  switchModel = (model: string, ui: ChatUi): Promise<void> => this.switchingTo(() => this.switchModelNow(model, ui));

  private async switchModelNow(model: string, ui: ChatUi): Promise<void> {
    try {
      const team = await this.loadForSwitch(this.sessionTeam(this.conv.record, model));
      await this.conv.team.close();
      this.conv.team = team;
      this.conv.record.model = team.modelName;
      await this.conv.save();
      ui.info(`Model: ${team.modelName}.`, 'success');
      this.onChange?.();
    } catch (e) {
      ui.error((e as Error).message);
    }
  }

  /** `/agents` and a pick: a new session on another team of the same agents file. */
  switchTeam = (name: string, ui: ChatUi): Promise<void> => this.switchingTo(() => this.switchTeamNow(name, ui));

  private async switchTeamNow(name: string, ui: ChatUi): Promise<void> {
    let team: Team | undefined;
    try {
      team = await this.loadForSwitch({ ...this.sessionTeam(this.conv.record, this.teamOptions.model), agentName: name });
      await this.startFresh(team);
    } catch (e) {
      if (team && this.conv.team !== team) await team.close();
      return ui.error((e as Error).message);
    }
    ui.clear({ promptTokens: 0, completionTokens: 0 });
    ui.info(`Team ${team.rootName}: new session ${this.conv.id}.`, 'success');
    this.onChange?.();
  }


  /** `/clear`: a new screen (scrollback kept) and a fresh model context; the session keeps its history. */
  async clearContext(ui: ChatUi): Promise<void> {
    try {
      await this.conv.clearContext();
    } catch (e) {
      return ui.error((e as Error).message);
    }
    ui.clear(ui.usage(), { screen: true });
    ui.info("Cleared: the model starts afresh; this session's earlier messages stay saved.", 'muted');
    await this.team.hooks?.sessionStart('clear', this.conv.id);
    this.onChange?.();
  }

  /** `/compact [instructions]`: the conversation so far becomes a summary in the model's context; the screen and the session's log stay. */
  async compactContext(instructions: string, ui: ChatUi): Promise<void> {
    ui.info('Compacting: the model is summarising the conversation…', 'muted');
    try {
      // PreCompact (`manual`) is fired by the conversation, once there is something to compact.
      const c = await this.conv.compact({ force: true, instructions: instructions || undefined, signal: AbortSignal.timeout(300_000) });
      if (!c) ui.info('Nothing to compact yet.', 'muted');
      else ui.info(compactionText(c), 'success');
    } catch (e) {
      ui.error(`Could not compact: ${(e as Error).message}`);
    }
    this.onChange?.();
  }

  async newSession(ui: ChatUi): Promise<void> {
    await this.switchingTo(() => this.startFresh(this.team));
    ui.clear({ promptTokens: 0, completionTokens: 0 });
    ui.info(`New session ${this.conv.id}.`, 'success');
    this.onChange?.();
  }

  /** A new session on `team` in place of the current one (which is left, and not kept if nothing was said in it). */
  private async startFresh(team: Team): Promise<void> {
    const { lease } = await lockedNewId(this.stores);
    const previous = this.conv;
    try {
      this.conv = await Conversation.create(this.stores, team, lease);
    } catch (e) {
      await lease.release();
      throw e;
    }
    await this.leave(previous);
    if (previous.team !== team) await previous.team.close();
  }

  async openSession(id: string, ui: ChatUi): Promise<void> {
    // Its waiting questions are answered after the switch (a turn: it waits for the switch itself).
    const resume = await this.switchingTo(() => this.openSessionNow(id, ui));
    if (resume) await ui.run(this.answerInterrupts({}, new AbortController().signal));
  }

  /** Switches to session `id`; true when it has a checkpoint to resume. */
  private async openSessionNow(id: string, ui: ChatUi): Promise<boolean> {
    try {
      const resolved = await this.stores.sessions.resolveId(id);
      if (resolved === this.conv.id) {
        if (!this.conv.record.checkpointId) ui.info(`Session ${resolved} is already open.`);
        return !!this.conv.record.checkpointId;
      }
      const { record, lease } = await lockedSession(this.stores, resolved);
      let team: Team;
      try {
        const cur = this.conv.record;
        const sameTeam =
          record.rootAgent === this.team.rootName && record.agentsFile === cur.agentsFile && record.agentsHash === cur.agentsHash && record.workspace === cur.workspace;
        team = sameTeam ? this.team : await this.loadForSwitch(this.sessionTeam(record, this.teamOptions.model));
      } catch (e) {
        await lease.release();
        throw e;
      }
      const previous = this.conv;
      this.conv = Conversation.open(this.stores, team, record, lease);
      await this.leave(previous);
      if (previous.team !== team) await previous.team.close();
      ui.clear(record.usage);
      ui.info(`Resumed session ${record.id}: ${record.title || '(untitled)'}`, 'success');
      for (const item of sessionItems(record)) ui.append(item);
      this.onChange?.();
      return !!record.checkpointId;
    } catch (e) {
      ui.error((e as Error).message);
      return false;
    }
  }

  /** `/fork`: the forked session (leased by `lease`, on this team and workspace) takes the current one's place. */
  async openForked(record: SessionRecord, lease: SessionLease): Promise<void> {
    await this.switchingTo(async () => {
      const previous = this.conv;
      this.conv = Conversation.open(this.stores, this.team, record, lease);
      await this.leave(previous);
    });
    this.onChange?.();
  }

  /** Gives a conversation up; one nothing was ever said in is not kept (no empty "untitled" sessions). */
  private async leave(conv: Conversation<Team>): Promise<void> {
    await this.saveFileCheckpoints(conv);
    const r = conv.record;
    if (messageTotal(r) === 0 && !r.pendingTurn?.length && !r.checkpointId) await this.stores.sessions.delete(r.id).catch(() => false);
    await conv.close();
  }

  /** A saved session's own team (its file, hash and workspace), with this REPL's environment and trust. */
  private sessionTeam(record: SessionRecord, model: string | undefined): TeamOptions {
    return { ...this.teamOptions, ...sessionTeamOptions(record, { model }) };
  }

  /** Saves what is still being saved, then gives the session up. */
  async close(): Promise<void> {
    this.closed = true;
    try {
      // A switch still loading gets a moment to finish; one that comes later closes the team it loaded (loadForSwitch).
      await Promise.race([this.switching, new Promise((resolve) => setTimeout(resolve, SWITCH_GRACE_MS).unref())]);
      await this.settle();
      await this.leave(this.conv);
    } finally {
      await this.activeCommand.end();
      // The background jobs are this REPL's (shared by the teams it loaded), not the last team's.
      this.team.stopJobs();
      await this.conv.team.close();
    }
  }
}
