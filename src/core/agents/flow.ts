import { generate } from '../async-queue.js';
import { AdkError, ConfigError, TransferError, toError } from '../errors.js';
import { CANCELLED_INFO, toInterruptAction, type ResumeInfo } from '../interrupt.js';
import { defaultHistoryRewriter, historyEntries, type HistoryRewriter } from './history.js';
import { createRunContext, enterAgent, type AgentRunInfo, type RunContext } from './run-context.js';
import { fire } from '../callbacks.js';
import { nextEventSeq, type RecordedEvent } from './session.js';
import { describeValue, hasDescription, isAgent } from './options-check.js';
import { TRANSFER_TOOL_NAME } from '../tools/control-tools.js';
import {
  errorEvent,
  isSubAgentAware,
  sameRunPath,
  type Agent,
  type AgentAction,
  type AgentEvent,
  type AgentInput,
} from './types.js';

/** How a FlowAgent treats its history and its parent. */
export interface FlowOptions {
  disallowTransferToParent?: boolean | undefined;
  historyRewriter?: HistoryRewriter | undefined;
}

/** Thrown when a run passes `maxTransfers` (agents handing the question back and forth); the run ends with this error. */
export class TooManyTransfersError extends AdkError {
  constructor(readonly max: number) {
    super('too_many_transfers', `too many transfers in one run (max ${max}); agents may be transferring in a loop`);
  }
}

type Emit = (e: AgentEvent) => void;

/**
 * Eino's flowAgent: wraps every agent run by a Runner or another agent. It owns the cross-cutting
 * work: run path, recording history, rebuilding each agent's input, callbacks and transfers.
 */
export class FlowAgent implements Agent {
  readonly subAgents: FlowAgent[] = [];
  parent?: FlowAgent | undefined;

  constructor(
    readonly inner: Agent,
    readonly options: FlowOptions = {},
  ) {}

  get name(): string {
    return this.inner.name;
  }
  get description(): string {
    return this.inner.description;
  }
  get type(): string {
    return this.inner.type ?? 'Custom';
  }

  run(input: AgentInput, ctx: RunContext = createRunContext()): AsyncIterable<AgentEvent> {
    return generate<AgentEvent>(
      async (emit) => {
        const c = enterAgent(ctx, this.name, input);
        const rebuilt: AgentInput = { messages: await this.buildInput(c), enableStreaming: c.enableStreaming };
        fire(c.callbacks, 'onStart', { ...this.info(c), input: rebuilt });
        await this.drive(this.inner.run(rebuilt, c), c, emit);
      },
      // A failure is this agent's, at its own run path (not its parent's, which an empty path would mean).
      (e) => ({ ...errorEvent(toError(e), this.name), runPath: [...ctx.runPath, this.name] }),
    );
  }

  resume(_info: ResumeInfo | undefined, ctx: RunContext): AsyncIterable<AgentEvent> {
    return generate<AgentEvent>(
      async (emit) => {
        const c = enterAgent(ctx, this.name);
        const own = c.resume!.take(c.address);
        if (own.wasInterrupted) {
          if (!this.inner.resume) {
            throw new Error(`failed to resume agent: agent '${this.name}' is an interrupt point but is not a resumable agent`);
          }
          fire(c.callbacks, 'onStart', { ...this.info(c), input: { messages: [] } });
          await this.drive(this.inner.resume(own, c), c, emit);
          return;
        }
        const next = [...this.subAgents, this.parent].find(
          (a) => a && c.resume!.leadsTo([...c.address, { type: 'agent', id: a.name }]),
        );
        if (!next) throw new Error(`failed to resume agent '${this.name}': no child agents leading to the interrupted agent were found`);
        // Interrupted in the middle of transfers to several agents in turn: once that one finishes, the rest follow.
        const pending = pendingTransfers(c.session.events().filter((r) => sameRunPath(r.runPath, c.runPath)));
        const at = pending.indexOf(next.name);
        const ended = await forwardTarget(next.resume(undefined, c), emit);
        if (at >= 0 && !ended) await this.transfer(pending.slice(at + 1), c, emit);
      },
      // A failure is this agent's, at its own run path (not its parent's, which an empty path would mean).
      (e) => ({ ...errorEvent(toError(e), this.name), runPath: [...ctx.runPath, this.name] }),
    );
  }

  private info(c: RunContext): AgentRunInfo {
    return { agentName: this.name, agentType: this.type, runPath: c.runPath };
  }

  private async buildInput(c: RunContext) {
    const entries = [...(c.priorHistory ?? []), ...(await historyEntries(c.rootInput?.messages ?? [], c.session.events()))];
    return (this.options.historyRewriter ?? defaultHistoryRewriter)(entries, this.name);
  }

  /**
   * Forwards the inner agent's events, records its own messages, then acts on its last action. As
   * in Eino, an event of its own without an action cancels an earlier transfer, except the call half
   * of a transfer pair: so transfers to several agents in a row (a deterministic transfer to
   * `[A, B]`) all stand, and run in order.
   */
  private async drive(events: AsyncIterable<AgentEvent>, c: RunContext, emit: Emit): Promise<void> {
    let lastAction: AgentAction | undefined;
    let transfers: string[] = [];
    let failure: Error | undefined;
    for await (const e of events) {
      if (e.runPath.length === 0) {
        e.agentName = this.name;
        e.runPath = c.runPath;
      }
      const own = sameRunPath(e.runPath, c.runPath);
      // Eino's Go form (`{ interrupted: { data } }`) becomes a point of this agent before anyone reads it.
      if (own && e.action?.interrupted) e.action = { ...e.action, interrupted: toInterruptAction(e.action.interrupted, c.address) };
      if (own) {
        lastAction = e.action;
        const dest = e.action?.transferToAgent?.destAgentName;
        if (dest) transfers.push(dest);
        else if (e.action || !isTransferCall(e)) transfers = [];
        if (e.error) failure = e.error;
        const v = e.output?.message;
        if (v && !e.action?.interrupted) {
          c.session.record({
            agentName: e.agentName,
            runPath: e.runPath,
            role: v.role,
            toolName: v.toolName,
            message: v.message,
            stream: v.stream,
            transferTo: e.action?.transferToAgent?.destAgentName,
            seq: nextEventSeq(),
          });
        }
      }
      emit(e);
      // As in Eino, the agent's stream ends at its interrupt; a cancel's CancelledError still follows its safe point.
      if (own && e.action?.interrupted && e.action.interrupted.signal.info !== CANCELLED_INFO) break;
    }
    if (failure) fire(c.callbacks, 'onError', this.info(c), failure);
    else fire(c.callbacks, 'onEnd', this.info(c));
    if (!lastAction?.transferToAgent || lastAction.interrupted || lastAction.exit) return;
    await this.transfer(transfers, c, emit);
  }

  /** A sub-agent, or the parent unless transfer to it is disallowed. */
  transferTarget(dest: string): FlowAgent | undefined {
    const sub = this.subAgents.find((a) => a.name === dest);
    if (sub) return sub;
    return this.parent?.name === dest && !this.options.disallowTransferToParent ? this.parent : undefined;
  }

  /**
   * Runs each destination in turn, from this agent's context (run paths `[…, this, A]`, then
   * `[…, this, B]`); B sees what A did. One that is interrupted, fails or exits stops the rest.
   */
  private async transfer(dests: string[], c: RunContext, emit: Emit): Promise<void> {
    const fail = (error: Error) => emit({ agentName: this.name, runPath: c.runPath, error });
    const targets: FlowAgent[] = [];
    for (const dest of dests) {
      const target = this.transferTarget(dest);
      if (!target) return fail(new TransferError(dest, this.name));
      targets.push(target);
    }
    for (const target of targets) {
      if (++c.transfers.count > c.transfers.max) return fail(new TooManyTransfersError(c.transfers.max));
      if (await forwardTarget(target.run({ messages: [] }, c), emit)) return;
    }
  }
}

/** Forwards a transfer target's events; true when its run ended the chain (interrupt, error or exit). */
async function forwardTarget(events: AsyncIterable<AgentEvent>, emit: Emit): Promise<boolean> {
  let stopped = false;
  let last: AgentEvent | undefined;
  for await (const e of events) {
    if (e.error || e.action?.interrupted) stopped = true;
    last = e;
    emit(e);
  }
  return stopped || !!last?.action?.exit;
}

/** The call half of a transfer pair: an assistant message that only calls `transfer_to_agent`. */
function isTransferCall(e: AgentEvent): boolean {
  const v = e.output?.message;
  if (!v || v.role !== 'assistant' || v.isStreaming || !v.message) return false;
  const calls = v.message.toolCalls ?? [];
  return !v.message.content && calls.length > 0 && calls.every((t) => t.function.name === TRANSFER_TOOL_NAME);
}

/** The transfers an agent's own recorded events end with (as `drive` collects them), for a resume. */
function pendingTransfers(own: RecordedEvent[]): string[] {
  let out: string[] = [];
  for (const r of own) {
    if (r.transferTo) out.push(r.transferTo);
    else if (!(r.role === 'assistant' && !r.stream && r.message && !r.message.content && r.message.toolCalls?.length && r.message.toolCalls.every((t) => t.function.name === TRANSFER_TOOL_NAME))) out = [];
  }
  return out;
}

/** An agent that is only a named face of a FlowAgent (e.g. a supervisor team); it runs as that FlowAgent. */
export interface FlowAgentView extends Agent {
  toFlowAgent(): FlowAgent;
}

/** Whether `a` can show itself as a FlowAgent (takes part in transfers). */
export const isFlowAgentView = (a: unknown): a is FlowAgentView => typeof (a as FlowAgentView)?.toFlowAgent === 'function';

const wrappers = new WeakMap<Agent, FlowAgent>();

/** The one FlowAgent for `agent`, so parent links survive being wrapped more than once. */
export function toFlowAgent(agent: Agent, options?: FlowOptions): FlowAgent {
  if (!isAgent(agent)) throw new ConfigError(`the agent must be an agent (an object with a name and run()), got ${describeValue(agent)}`);
  if (!(agent instanceof FlowAgent) && isFlowAgentView(agent)) agent = agent.toFlowAgent();
  if (agent instanceof FlowAgent) {
    if (options) Object.assign(agent.options, options);
    return agent;
  }
  let fa = wrappers.get(agent);
  if (!fa) {
    fa = new FlowAgent(agent, options);
    wrappers.set(agent, fa);
  } else if (options) Object.assign(fa.options, options);
  return fa;
}

/** Eino's AgentWithOptions. */
export function agentWithOptions(agent: Agent, options: FlowOptions): FlowAgent {
  return toFlowAgent(agent, options);
}

/** Makes `subAgents` transfer targets of `agent`; each may have only one parent. */
export function setSubAgents(agent: Agent, subAgents: Agent[]): FlowAgent {
  if (!isAgent(agent)) throw new ConfigError(`setSubAgents: the agent must be an agent (an object with a name and run()), got ${describeValue(agent)}`);
  if (!Array.isArray(subAgents)) throw new ConfigError(`setSubAgents: the sub-agents of '${agent.name}' must be a list of agents, got ${describeValue(subAgents)}`);
  subAgents.forEach((s, i) => {
    if (!isAgent(s)) throw new ConfigError(`setSubAgents: sub-agent ${i} of '${agent.name}' must be an agent (an object with a name and run()), got ${describeValue(s)}`);
  });
  const parent = toFlowAgent(agent);
  if (parent.subAgents.length) throw new Error(`agent '${parent.name}' already has sub-agents`);
  const subs = subAgents.map((s) => toFlowAgent(s));
  for (const s of subs) {
    if (s === parent) throw new Error(`agent '${s.name}' cannot be its own sub-agent`);
    if (s.parent) throw new Error(`agent '${s.name}' already has a parent ('${s.parent.name}'); an agent may have only one parent`);
  }
  checkRouteDescriptions(parent, subs);
  if (isSubAgentAware(parent.inner)) parent.inner.onSetSubAgents(subs);
  for (const s of subs) {
    s.parent = parent;
    if (isSubAgentAware(s.inner)) {
      s.inner.onSetAsSubAgent(parent);
      if (s.options.disallowTransferToParent) s.inner.onDisallowTransferToParent();
    }
    parent.subAgents.push(s);
  }
  return parent;
}

/**
 * An agent that takes part in transfers (Eino's OnSubAgents: a ChatModelAgent) is told the name and
 * description of each agent it may transfer to, and decides by the description: its sub-agents, and
 * its parent unless it may not transfer back. Those need a description (Eino's "required").
 */
function checkRouteDescriptions(parent: FlowAgent, subs: FlowAgent[]): void {
  if (isSubAgentAware(parent.inner)) {
    const missing = subs.find((s) => !hasDescription(s));
    if (missing) {
      throw new ConfigError(`setSubAgents: sub-agent '${missing.name}' of '${parent.name}' has no description: '${parent.name}' reads it to decide when to transfer to '${missing.name}'`);
    }
  }
  const back = subs.find((s) => isSubAgentAware(s.inner) && !s.options.disallowTransferToParent);
  if (back && !hasDescription(parent)) {
    throw new ConfigError(
      `setSubAgents: '${parent.name}' has no description: its sub-agent '${back.name}' reads it to decide when to transfer back (give '${parent.name}' a description, or disallow transfer to the parent)`,
    );
  }
}
