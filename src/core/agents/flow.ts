import { generate } from '../async-queue.js';
import { AdkError, TransferError, toError } from '../errors.js';
import type { ResumeInfo } from '../interrupt.js';
import { defaultHistoryRewriter, historyEntries, type HistoryRewriter } from './history.js';
import { createRunContext, enterAgent, type AgentRunInfo, type RunContext } from './run-context.js';
import { fire } from '../callbacks.js';
import { nextEventSeq } from './session.js';
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
        for await (const e of next.resume(undefined, c)) emit(e);
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

  /** Forwards the inner agent's events, records its own messages, then acts on its last action. */
  private async drive(events: AsyncIterable<AgentEvent>, c: RunContext, emit: Emit): Promise<void> {
    let lastAction: AgentAction | undefined;
    let failure: Error | undefined;
    for await (const e of events) {
      if (e.runPath.length === 0) {
        e.agentName = this.name;
        e.runPath = c.runPath;
      }
      if (sameRunPath(e.runPath, c.runPath)) {
        lastAction = e.action;
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
    }
    if (failure) fire(c.callbacks, 'onError', this.info(c), failure);
    else fire(c.callbacks, 'onEnd', this.info(c));
    const dest = lastAction?.transferToAgent?.destAgentName;
    if (!dest || lastAction?.interrupted || lastAction?.exit) return;
    await this.transfer(dest, c, emit);
  }

  /** A sub-agent, or the parent unless transfer to it is disallowed. */
  transferTarget(dest: string): FlowAgent | undefined {
    const sub = this.subAgents.find((a) => a.name === dest);
    if (sub) return sub;
    return this.parent?.name === dest && !this.options.disallowTransferToParent ? this.parent : undefined;
  }

  private async transfer(dest: string, c: RunContext, emit: Emit): Promise<void> {
    const target = this.transferTarget(dest);
    const fail = (error: Error) => emit({ agentName: this.name, runPath: c.runPath, error });
    if (!target) return fail(new TransferError(dest, this.name));
    if (++c.transfers.count > c.transfers.max) return fail(new TooManyTransfersError(c.transfers.max));
    for await (const e of target.run({ messages: [] }, c)) emit(e);
  }
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
  const parent = toFlowAgent(agent);
  if (parent.subAgents.length) throw new Error(`agent '${parent.name}' already has sub-agents`);
  const subs = subAgents.map((s) => toFlowAgent(s));
  for (const s of subs) {
    if (s === parent) throw new Error(`agent '${s.name}' cannot be its own sub-agent`);
    if (s.parent) throw new Error(`agent '${s.name}' already has a parent ('${s.parent.name}'); an agent may have only one parent`);
  }
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
