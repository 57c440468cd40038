import { randomUUID } from 'node:crypto';
import { relative } from 'node:path';
import { messageEvent, type AgentEvent, type RunInbox } from '../../core/index.js';
import { formatRule, ruleAllows, type AllowRule } from '../../core/agents/allow-rules.js';
import type { ApprovalPolicy } from '../../core/agents/run-context.js';
import type { InterruptContext, InterruptDetails } from '../../core/interrupt.js';
import type { UserInput } from '../../core/schema/content-part.js';
import { redactSecrets, secretsFromEnv } from '../../core/store/redact.js';
import { configSecretValues } from '../secrets.js';
import type { Team } from '../team.js';
import type { TrustStore } from '../trust.js';
import { allowedToolRules } from './command-allowed-tools.js';
import { bangCommands, bangOutputText, replaceBangs, runBang } from './command-bang.js';
import { resolveCommandModel } from './command-model.js';
import { expandCustomCommand, type CustomCommand } from './custom-commands.js';

/** What a command's turn needs of the REPL's host. */
export interface CommandTurnHost {
  readonly team: Team;
  /**
   * The session's approval policy as it stands now (mode, grants, allow and deny rules), with
   * `rules` (the command's allowed tools, once granted) on top; a tool that must always ask still asks.
   */
  policy(rules?: readonly AllowRule[]): ApprovalPolicy;
  /** The team on another model, loaded as `/model` loads one. */
  loadModelTeam(model: string): Promise<Team>;
  /** `@path` mentions and attachments of the prompt (the command's text as typed gives the attachments). */
  expand(prompt: string, typed: string): Promise<UserInput>;
  /** Starts the command's turn: `grant.rules` run unasked and `grant.team` answers until the turn ends. */
  startTurn(input: UserInput, signal: AbortSignal, inbox: RunInbox | undefined, grant: CommandGrant): AsyncIterable<AgentEvent>;
  trust: TrustStore;
  env: NodeJS.ProcessEnv;
  /** The values the run's tool results are redacted of; default: the environment's secrets and the agents file's. */
  secrets?: (() => readonly string[]) | undefined;
}

/** What one command's turn gets beyond the session's own: its allowed tools, its model's team. */
export interface CommandGrant {
  rules: AllowRule[];
  team?: Team | undefined;
}

/**
 * A custom command with a model, allowed tools or `` !`cmd` `` lines, run as Claude Code runs them:
 * the model checked first (an unknown one is said and the session's model used), the `` !`cmd` `` lines approved by the
 * person (or a rule) and run before anything is sent, their output in the prompt; then one turn with
 * the command's model and its allowed tools. A question (approval, trust) ends the event stream as an
 * interrupt the REPL shows with its usual prompts; `answer` goes on from there. A rejection ends the
 * command: nothing reaches the model.
 */
export class CommandTurn {
  /** The rows' agent: the command (`:` would end the agent's name in an interrupt address). */
  private readonly agent: string;
  private readonly body: string;
  private readonly bangs: string[];
  private readonly callIds: string[];
  private model: string | undefined;
  private modelChecked = false;
  private rules: AllowRule[] = [];
  private rulesDecided = false;
  private bangsDecided = false;
  /** Interrupt ids waiting for an answer, and what each asks. */
  private readonly asked = new Map<string, { kind: 'trust' } | { kind: 'bang'; index: number }>();
  private readonly notices: string[] = [];

  constructor(
    readonly command: CustomCommand,
    private readonly args: string,
    private readonly typed: string,
    private readonly host: CommandTurnHost,
  ) {
    this.agent = command.name.replace(/:/g, '/');
    this.body = expandCustomCommand(command, args);
    this.bangs = bangCommands(this.body);
    const turn = randomUUID().slice(0, 8);
    this.callIds = this.bangs.map((_, i) => `cmd_${turn}_${i}`);
  }

  /** Whether this invocation needs more than its text sent: a model, allowed tools or `` !`cmd` `` lines. */
  static needed(command: CustomCommand, args: string): boolean {
    return !!command.problem || !!command.model || !!command.allowedTools?.length || bangCommands(expandCustomCommand(command, args)).length > 0;
  }

  /** Whether these answers are this command's (the REPL answers every waiting question at once). */
  answers(ids: readonly string[]): boolean {
    return ids.length > 0 && ids.every((id) => this.asked.has(id));
  }

  start(signal: AbortSignal, inbox?: RunInbox): AsyncIterable<AgentEvent> {
    return this.go(signal, inbox, {});
  }

  answer(answers: Record<string, unknown>, signal: AbortSignal, inbox?: RunInbox): AsyncIterable<AgentEvent> {
    return this.go(signal, inbox, answers);
  }

  private async *go(signal: AbortSignal, inbox: RunInbox | undefined, answers: Record<string, unknown>): AsyncIterable<AgentEvent> {
    if (this.command.problem) return yield this.error(`${this.command.name} was not run: its front matter is not valid YAML: ${this.command.problem}`);
    const stop = this.take(answers);
    if (stop) return yield* this.stopped(stop);
    if (!this.modelChecked) {
      this.modelChecked = true;
      // As Claude Code does: a model the endpoints do not serve is said, and the session's model answers.
      const error = await this.checkModel(signal);
      if (error) this.notices.push(`${this.command.name}: ${error}; this turn uses ${this.host.team.modelName}.`);
    }
    if (!this.rulesDecided) {
      const question = this.grantQuestion();
      if (question) return yield* this.ask([question]);
    }
    if (!this.bangsDecided) {
      this.bangsDecided = true;
      const decided = this.decideBangs();
      if (typeof decided === 'string') return yield this.error(decided);
      // The rows of the commands: the person sees each before it runs.
      if (this.bangs.length) yield { ...messageEvent({ role: 'assistant', content: '', toolCalls: this.bangs.map((command, i) => shellCall(this.callIds[i]!, command)) }), agentName: this.agent };
      if (decided.length) return yield* this.ask(decided);
    }
    for (const n of this.notices.splice(0)) yield notice(this.agent, n);
    const outputs: string[] = [];
    for (const [i, command] of this.bangs.entries()) {
      const shell = this.host.team.shell;
      const r = shell ? await runBang(shell, command, this.callIds[i]!, signal) : { content: 'this team has no shell tool to run it with', isError: true };
      // Outside any run, so not redacted by the agent layer: redacted here, before the row shows it or the prompt holds it.
      const content = redactSecrets(r.content, this.secrets());
      yield { ...messageEvent({ role: 'tool', content: content || '(no output)', toolCallId: this.callIds[i]!, toolName: 'shell', ...(r.isError ? { isError: true } : {}) }), agentName: this.agent };
      if (signal.aborted) return;
      outputs.push(bangOutputText(content));
    }
    let team: Team | undefined;
    if (this.model && this.model !== this.host.team.modelName) {
      try {
        team = await this.host.loadModelTeam(this.model);
      } catch (e) {
        return yield this.error(`${this.command.name} was not run: model ${this.model}: ${(e as Error).message}`);
      }
      yield notice(this.agent, `${this.command.name} runs on ${team.modelName} for this turn.`);
    }
    // Mentions are found in the command's own text, not in what its commands printed.
    const marks = this.bangs.map((_, i) => `\u27e6adk-output-${i}\u27e7`);
    const input = await this.host.expand(replaceBangs(this.body, (i) => marks[i]!), this.typed).catch(async (e: unknown) => {
      await team?.close(); // loaded for a turn that does not start
      throw e;
    });
    const fill = (text: string) => marks.reduce((t, mark, i) => t.replace(mark, () => outputs[i] ?? ''), text);
    const filled: UserInput = typeof input === 'string' ? fill(input) : { ...input, text: fill(input.text) };
    yield* this.host.startTurn(filled, signal, inbox, { rules: this.rules, team });
  }

  /** The model the command names, resolved now; an unknown one is said (the person's to fix) and not used. */
  private async checkModel(signal: AbortSignal): Promise<string | undefined> {
    const name = this.command.model;
    if (!name) return undefined;
    const team = this.host.team;
    const r = await resolveCommandModel(name, team.modelName, team.modelConfigs ?? [], this.host.env, AbortSignal.any([signal, AbortSignal.timeout(15_000)])).catch((e: unknown) => ({ error: (e as Error).message }));
    if ('error' in r) return r.error;
    this.model = r.model;
    return undefined;
  }

  /**
   * The allowed tools as rules. A project's command file comes with the repository, so what it lets
   * run unasked applies only once the person trusted the file as it is (asked here, once per version);
   * the person's own files (ADK_HOME/commands) are theirs.
   */
  private grantQuestion(): InterruptContext | undefined {
    const { rules, ignored } = allowedToolRules(this.command.allowedTools ?? []);
    if (ignored.length) this.notices.push(`${this.command.name}: allowed-tools entries adk does not know were left out: ${ignored.join(', ')}`);
    this.rulesDecided = true;
    if (!rules.length) return undefined;
    // The hash of the bytes the rules were parsed from (one read: custom-commands), never a new read of the file.
    const hash = this.command.sha256;
    if (this.command.scope === 'user' || this.host.trust.isTrusted(this.command.file, hash)) {
      this.rules = rules;
      return undefined;
    }
    this.rulesDecided = false;
    this.pendingRules = { rules, hash };
    const id = `cmd_trust_${randomUUID().slice(0, 8)}`;
    const file = relative(this.host.team.workspace, this.command.file);
    const info: InterruptDetails = {
      kind: 'input',
      message:
        `${this.command.name} comes with this folder (${file}) and lets the model run these without asking during its turn: ${rules.map(formatRule).join(', ')}. ` +
        'Type y to allow that and trust this file as it is now (asked again if it changes); anything else runs the command with every call asking as usual.',
    };
    this.asked.set(id, { kind: 'trust' });
    return { id, address: `agent:${this.agent}`, info };
  }

  private pendingRules: { rules: AllowRule[]; hash: string } | undefined;

  /** Each `` !`cmd` ``: refused (a deny rule, plan mode), allowed by a rule or grant, or asked. */
  private decideBangs(): InterruptContext[] | string {
    // As in Claude Code, the command's own allowed tools (granted: the person's file, or one they trusted) cover its `!` lines.
    const policy = this.host.policy(this.rules);
    const out: InterruptContext[] = [];
    for (const [i, command] of this.bangs.entries()) {
      const call = { tool: 'shell', arguments: { command }, agentName: this.agent };
      const refused = policy.refuses?.({ ...call, readOnly: false });
      if (refused) return `${this.command.name} was not run: \`${command}\` may not run (${refused.replace(/\.? Do without it or ask the user\.$/, '')}). Nothing was sent to the model.`;
      if (policy.allows(call)) {
        this.notices.push(`✓ \`${command}\` runs without asking (${this.rules.some((r) => ruleAllows(r, 'shell', call.arguments, this.host.team.workspace)) ? "the command's allowed-tools allow it" : 'a permission rule or grant allows it'})`);
        continue;
      }
      const id = `cmd_run_${this.callIds[i]}`;
      // Shell without its sandbox: said as the core says it (and marked, so no grant answers it in the REPL).
      const why = this.host.team.alwaysAsk?.includes('shell') ? (this.host.team.alwaysAskReason ?? 'shell commands run without a sandbox here') : undefined;
      const info: InterruptDetails = { kind: 'approval', message: `Allow shell: ${command}?${why ? ` (${why}.)` : ''}`, tool: 'shell', arguments: { command }, callId: this.callIds[i], ...(why ? { alwaysAsks: true as const } : {}) };
      this.asked.set(id, { kind: 'bang', index: i });
      out.push({ id, address: `agent:${this.agent};tool:shell:${this.callIds[i]}`, info });
    }
    return out;
  }

  /** Applies the person's answers; a reason to stop when one was a rejection. */
  private take(answers: Record<string, unknown>): { text: string; index?: number } | undefined {
    for (const [id, data] of Object.entries(answers)) {
      const q = this.asked.get(id);
      if (!q) continue;
      this.asked.delete(id);
      if (q.kind === 'trust') {
        const yes = typeof data === 'string' && /^\s*y(es)?\s*$/i.test(data);
        if (yes && this.pendingRules) {
          this.rules = this.pendingRules.rules;
          this.host.trust.trust(this.command.file, this.pendingRules.hash);
        } else this.notices.push(`${this.command.name}: its allowed-tools are not applied; every call asks as usual.`);
        this.rulesDecided = true;
        continue;
      }
      const d = data && typeof data === 'object' ? (data as { approved?: unknown; arguments?: unknown; reason?: unknown }) : {};
      if (d.approved !== true) {
        const reason = typeof d.reason === 'string' && d.reason.trim() ? `: ${d.reason.trim()}` : '';
        return { text: `${this.command.name} was not run: you rejected \`${this.bangs[q.index]}\`${reason}. Nothing was sent to the model.`, index: q.index };
      }
      // An edited command is what was approved.
      const edited = editedCommand(d.arguments);
      if (edited) this.bangs[q.index] = edited;
    }
    return undefined;
  }

  /** The command's rows closed (none of its commands ran), then why it stopped. */
  private *stopped(stop: { text: string; index?: number }): Iterable<AgentEvent> {
    for (const [i] of this.bangs.entries()) {
      const content = i === stop.index ? 'rejected: not run' : 'not run: the command was stopped';
      yield { ...messageEvent({ role: 'tool', content, toolCallId: this.callIds[i]!, toolName: 'shell', isError: true }), agentName: this.agent };
    }
    yield this.error(stop.text);
  }

  private *ask(contexts: InterruptContext[]): Iterable<AgentEvent> {
    const [first] = contexts;
    const signal = { id: `cmd_${randomUUID()}`, address: first!.address, info: first!.info, isRootCause: false, subs: contexts.map((c) => ({ id: c.id, address: c.address, info: c.info, isRootCause: true, subs: [] })) };
    yield { agentName: this.agent, runPath: [], action: { interrupted: { contexts, signal } } };
  }

  private secrets(): readonly string[] {
    return this.host.secrets?.() ?? [...secretsFromEnv(this.host.env), ...configSecretValues()];
  }

  private error(text: string): AgentEvent {
    return { agentName: this.agent, runPath: [], error: new Error(text) };
  }
}

function shellCall(id: string, command: string) {
  return { id, type: 'function' as const, function: { name: 'shell', arguments: JSON.stringify({ command }) } };
}

/** A line for the person between the command's rows (shown as the REPL shows a model notice). */
function notice(agent: string, text: string): AgentEvent {
  return { agentName: agent, runPath: [], output: { custom: { type: 'model_notice', kind: 'command', text } } };
}

function editedCommand(args: unknown): string | undefined {
  const a = typeof args === 'string' ? safeJson(args) : args;
  const command = a && typeof a === 'object' ? (a as { command?: unknown }).command : undefined;
  return typeof command === 'string' && command.trim() ? command.trim() : undefined;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
