import { RequestError, type AgentContext, type ClientCapabilities, type ContentBlock, type PromptResponse, type SessionConfigOption, type SessionUpdate, type StopReason } from '@agentclientprotocol/sdk';
import type { AgentEvent } from '../../core/index.js';
import type { Conversation } from '../../core/conversation/conversation.js';
import { drainRun, type RunSummary } from '../../core/conversation/drain-run.js';
import { describeInterrupt } from '../../core/conversation/describe-interrupt.js';
import { targetsFromFlags } from '../../core/conversation/answers.js';
import type { InterruptContext } from '../../core/interrupt.js';
import { redactSecrets, secretsFromEnv } from '../../core/store/redact.js';
import { EDITOR_OPTION } from '../../core/tools/editor-access.js';
import { configSecretValues } from '../secrets.js';
import { contentPartFromBase64, type ContentPart, type UserInput } from '../../core/schema/content-part.js';
import { loadTeam, type Team } from '../team.js';
import { sessionTeamOptions } from '../session-access.js';
import { clientEditor } from './client-editor.js';
import { isModeId, modePolicy, MODES, type ModeId } from './modes.js';
import { answerFor, isChoice, permissionRequest, type Waiting } from './permission.js';
import { runSlashCommand, SLASH_COMMANDS } from './slash-commands.js';
import { AcpUpdates, type SendUpdate } from './update-sink.js';

/** How a person's answers to waiting interrupts came back: resume data, or nothing to resume with now. */
type Answers = { targets: Record<string, unknown> } | { stop: 'cancelled' | 'later'; note?: string };

/**
 * One adk session seen from an editor: its conversation (leased by this process), the mode the
 * editor chose, and the turn running now. A prompt runs a turn; interrupts are asked as
 * permission requests (or elicitation) and the turn resumed with the answers, until it ends.
 */
export class AcpSession {
  private mode: ModeId = 'ask';
  /** Tools the person chose "always reject" for. */
  private readonly neverRun = new Set<string>();
  private running: AbortController | undefined;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    readonly conv: Conversation<Team>,
    private readonly client: AgentContext,
    private readonly caps: ClientCapabilities | undefined,
    private readonly log: (line: string) => void,
  ) {
    this.applyMode();
  }

  get id(): string {
    return this.conv.id;
  }

  get busy(): boolean {
    return !!this.running;
  }

  /** Sends updates in order; a failed notification (the editor went away) is logged, never thrown into the run. */
  readonly send: SendUpdate = (update) => {
    this.queue = this.queue
      .then(async () => {
        const u = typeof update === 'function' ? await update() : update;
        if (u) await this.client.notify('session/update', { sessionId: this.id, update: redactSecrets(u, secrets()) });
      })
      .catch((e: unknown) => this.log(`session/update failed: ${(e as Error).message}`));
  };

  /** Everything sent so far has been written. */
  flushed(): Promise<void> {
    return this.queue;
  }

  setMode(mode: string): void {
    if (!isModeId(mode)) throw RequestError.invalidParams(undefined, `unknown mode '${mode}'; modes: ${MODES.map((m) => m.id).join(', ')}`);
    this.mode = mode;
    this.applyMode();
    this.send({ sessionUpdate: 'current_mode_update', currentModeId: mode });
  }

  get currentMode(): ModeId {
    return this.mode;
  }

  private applyMode(): void {
    this.conv.mode = modePolicy(this.mode, this.neverRun);
  }

  /** The session's choices an editor shows: its mode and its model (models: of agents.yaml). */
  configOptions(): SessionConfigOption[] {
    const team = this.conv.team;
    // Model ids, as /model and --model take them (each agent's endpoint then serves that id): the
    // one in use and those agents.yaml names.
    const ids = [...new Set([team.modelName, ...team.modelConfigs.map((m) => m.model).filter((m): m is string => !!m)])];
    const options = ids.map((id) => ({ value: id, name: id, description: team.modelConfigs.filter((m) => m.model === id).map((m) => `models: ${m.name}`).join(', ') || null }));
    return [
      { id: 'mode', name: 'Mode', category: 'mode', type: 'select', currentValue: this.mode, options: MODES.map((m) => ({ value: m.id, name: m.name, description: m.description ?? null })) },
      { id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: team.modelName, options },
    ];
  }

  /** Rebuilds the team on another model for the next turns (as the REPL's /model does). */
  async setModel(model: string): Promise<void> {
    if (this.running) throw RequestError.invalidRequest(undefined, 'a turn is running; change the model after it ends');
    const team = await loadTeam(sessionTeamOptions(this.conv.record, { model }));
    await this.conv.team.close();
    this.conv.team = team;
    this.conv.record.model = team.modelName;
    await this.conv.save();
  }

  /** session/cancel: stops the running turn now; the prompt answers `cancelled` once it is saved. */
  cancel(): void {
    this.running?.abort();
  }

  /** Stops a running turn (saved as cancelled), then gives the session and its team back. */
  async close(): Promise<void> {
    this.cancel();
    const deadline = Date.now() + 5_000;
    while (this.running && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await this.flushed();
    await this.conv.close().catch(() => {});
    await this.conv.team.close().catch(() => {});
  }

  /** Tells the editor which of adk's commands it can offer (typed as `/name` in a prompt). */
  announceCommands(): void {
    this.send({ sessionUpdate: 'available_commands_update', availableCommands: SLASH_COMMANDS });
  }

  /** Replays history updates (session/load). */
  replay(updates: SessionUpdate[]): void {
    for (const u of updates) this.send(u);
  }

  async prompt(blocks: ContentBlock[]): Promise<PromptResponse> {
    if (this.running) throw RequestError.invalidRequest(undefined, 'this session is already running a prompt; cancel it first');
    const text = promptText(blocks, this.conv.team.workspace);
    // Images and PDFs the editor attached: checked (type, size) before anything runs.
    let parts: ContentPart[];
    try {
      parts = promptParts(blocks);
    } catch (e) {
      throw RequestError.invalidParams(undefined, (e as Error).message);
    }
    const controller = new AbortController();
    this.running = controller;
    try {
      const command = await runSlashCommand(this, text);
      if (command !== undefined) {
        this.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: command } });
        await this.flushed();
        return { stopReason: 'end_turn' };
      }
      return await this.turn(parts.length ? { text, parts } : text, controller.signal);
    } finally {
      this.running = undefined;
    }
  }

  private async turn(input: UserInput, signal: AbortSignal): Promise<PromptResponse> {
    const text = typeof input === 'string' ? input : input.text;
    const conv = this.conv;
    const editor = clientEditor(this.client, this.id, this.caps, this.send);
    const opts = editor ? { toolOptions: { [EDITOR_OPTION]: editor } } : {};
    const updates = new AcpUpdates(this.send, conv.team.workspace);
    // A question asked in an earlier prompt (no elicitation there) is answered by this one.
    const waiting = conv.record.status === 'interrupted' ? conv.pending : [];
    const answersQuestion = waiting.length > 0 && waiting.every((p) => p.kind === 'input');
    let events = answersQuestion ? await conv.resumeTurn(targetsFromFlags(waiting, { input: text }), signal, undefined, opts) : await conv.startTurn(input, signal, undefined, opts);
    for (;;) {
      const summary = await drainRun(withLiveOutput(events, updates), updates, signal);
      await conv.finishTurn(summary);
      if (summary.status !== 'interrupted') return this.ended(summary, updates);
      const answers = await this.ask(summary.interrupts, signal);
      if ('stop' in answers) {
        if (answers.note) this.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: answers.note } });
        await this.flushed();
        return { stopReason: answers.stop === 'cancelled' ? 'cancelled' : 'end_turn' };
      }
      events = await conv.resumeTurn(answers.targets, signal, undefined, opts);
    }
  }

  /** The prompt's answer for how the turn ended; a failure is the request's error, after what it streamed. */
  private async ended(summary: RunSummary, updates: AcpUpdates): Promise<PromptResponse> {
    if (summary.status !== 'completed') updates.closeOpen();
    await this.flushed();
    const reason = STOP[summary.status]?.(summary);
    if (reason) return { stopReason: reason };
    throw RequestError.internalError({ sessionId: this.id }, redactSecrets(summary.error?.message ?? 'the run failed', secrets()));
  }

  /** Asks the person about each waiting interrupt the editor can show, and gathers the answers. */
  private async ask(interrupts: InterruptContext[], signal: AbortSignal): Promise<Answers> {
    const targets: Record<string, unknown> = {};
    const later: string[] = [];
    for (const c of interrupts) {
      if (c.cancelled) continue;
      const w = describeInterrupt(c);
      if (w.kind === 'approval' || w.kind === 'plan_review' || (w.kind === 'budget' && w.budget)) {
        const request = await permissionRequest(this.id, w, this.conv.team.workspace);
        await this.flushed();
        const res = await this.client.request('session/request_permission', request, { cancellationSignal: signal, stopWaitingOnCancel: true }).catch((e: unknown) => {
          if (signal.aborted) return { outcome: { outcome: 'cancelled' as const } };
          throw e;
        });
        if (res.outcome.outcome === 'cancelled' || signal.aborted) return { stop: 'cancelled' };
        const choice = res.outcome.optionId;
        if (!isChoice(choice)) throw RequestError.invalidParams(undefined, `unknown permission option '${choice}'`);
        if (choice === 'allow_always' && w.tool) await this.conv.grant(w.tool);
        if (choice === 'reject_always' && w.tool) this.neverRun.add(w.tool);
        targets[w.id] = answerFor(w, choice);
      } else if (w.kind === 'input') {
        const answer = await this.elicit(w, signal);
        if (answer === 'cancelled') return { stop: 'cancelled' };
        if (answer === undefined) later.push(`${w.message}\n\n(Answer in your next message.)`);
        else targets[w.id] = answer;
      } else {
        later.push(`The run waits for data this editor cannot give (${w.message || w.kind}). Answer it with: adk resume ${this.id} --targets '{"${w.id}": …}'`);
      }
    }
    if (Object.keys(targets).length) return { targets };
    return { stop: 'later', note: later.join('\n\n') };
  }

  /**
   * An ask_user question, or an MCP server's own form, as an elicitation form when the editor offers
   * forms (the server's form is passed on as it asked it; its answer goes back whole).
   */
  private async elicit(w: Waiting, signal: AbortSignal): Promise<unknown> {
    if (!this.caps?.elicitation?.form) return undefined;
    await this.flushed();
    const form = (w.data as { elicitation?: { message: string; schema?: Record<string, unknown> } } | undefined)?.elicitation;
    const requestedSchema = form?.schema ?? { type: 'object', properties: { answer: { type: 'string', title: 'Your answer' } }, required: ['answer'] };
    const res = await this.client.request(
      'elicitation/create',
      { mode: 'form', sessionId: this.id, ...(w.callId ? { toolCallId: w.callId } : {}), message: form?.message ?? (w.message || 'The agent has a question.'), requestedSchema: requestedSchema as never },
      { cancellationSignal: signal, stopWaitingOnCancel: true },
    ).catch((e: unknown) => {
      if (signal.aborted) return { action: 'cancel' as const };
      throw e;
    });
    const content = (res as { content?: Record<string, unknown> }).content;
    if (form) return res.action === 'cancel' ? 'cancelled' : { action: res.action, content };
    if (res.action !== 'accept') return 'cancelled';
    const answer = content?.answer;
    return typeof answer === 'string' ? answer : String(answer ?? '');
  }
}

const STOP: Partial<Record<RunSummary['status'], (s: RunSummary) => StopReason>> = {
  completed: () => 'end_turn',
  cancelled: () => 'cancelled',
  // A reply cut off by its token limit; a budget reached (ACP's "maximum number of model requests in
  // a single turn"); a content filter or a refusal is the model declining.
  incomplete: (s) => (s.incompleteReason === 'length' ? 'max_tokens' : s.incompleteReason === 'budget' ? 'max_turn_requests' : s.incompleteReason ? 'refusal' : 'end_turn'),
};

const secrets = () => [...secretsFromEnv(), ...configSecretValues()];

/**
 * A prompt's content as the text of a turn: text blocks as they are, files the editor attached
 * (resource links, embedded resources) as adk's `@path` mentions or their text, in order.
 */
export function promptText(blocks: ContentBlock[], workspace: string): string {
  const parts: string[] = [];
  for (const b of blocks) {
    if (b.type === 'text') parts.push(b.text);
    else if (b.type === 'resource_link') parts.push(mention(b.uri, workspace) ?? b.uri);
    else if (b.type === 'resource' && 'text' in b.resource) parts.push(`<file uri="${b.resource.uri}">\n${b.resource.text}\n</file>`);
  }
  return parts.join('\n');
}

/** The prompt's images and PDFs (image blocks, embedded resources with bytes) as adk's content parts. */
export function promptParts(blocks: ContentBlock[]): ContentPart[] {
  const parts: ContentPart[] = [];
  for (const b of blocks) {
    if (b.type === 'image') parts.push(contentPartFromBase64(b.data, { mimeType: b.mimeType, name: b.uri ? b.uri.split('/').pop() : undefined }));
    else if (b.type === 'resource' && 'blob' in b.resource) parts.push(contentPartFromBase64(b.resource.blob, { mimeType: b.resource.mimeType ?? undefined, name: b.resource.uri.split('/').pop() }));
  }
  return parts;
}

/** A file:// URI inside the workspace as `@relative/path`. */
function mention(uri: string, workspace: string): string | undefined {
  if (!uri.startsWith('file://')) return undefined;
  const path = decodeURIComponent(new URL(uri).pathname);
  return path.startsWith(`${workspace}/`) ? `@${path.slice(workspace.length + 1)}` : undefined;
}

/** The run's events, with each running command's live output sent as it comes. */
async function* withLiveOutput(events: AsyncIterable<AgentEvent>, updates: AcpUpdates): AsyncIterable<AgentEvent> {
  for await (const e of events) {
    const custom = e.output?.custom as { type?: string; callId?: string; tail?: string } | undefined;
    if (custom?.type === 'tool_output' && custom.callId && custom.tail) updates.output(custom.callId, custom.tail);
    yield e;
  }
}
