import { generate } from '../async-queue.js';
import { ConfigError, toError } from '../errors.js';
import { checkOptions, describeValue, requireAgent } from '../agents/options-check.js';
import { toFlowAgent, type FlowAgent } from '../agents/flow.js';
import { TRANSFER_TOOL_NAME } from '../agents/instruction.js';
import { genTransferMessages } from '../agents/transfer-messages.js';

export { genTransferMessages } from '../agents/transfer-messages.js';
import { createRunContext, type RunContext } from '../agents/run-context.js';
import { nextEventSeq, Session, type RecordedEvent } from '../agents/session.js';
import { errorEvent, messageEvent, type Agent, type AgentEvent, type AgentInput } from '../agents/types.js';
import { interruptAction, makeSignal, type InterruptSignal, type ResumeInfo } from '../interrupt.js';


/** Settings of agentWithDeterministicTransferTo: the agent to wrap and where control goes after it. */
export interface DeterministicTransferConfig {
  agent: Agent;
  /**
   * Transferred to in order once the agent finishes: each runs in turn, after the one before it.
   * Not after an interrupt (as in Eino) or a failure (adk's change, Eino issue #782); after an exit
   * too (the seed's appendTransferAction checks only the interrupt).
   */
  toAgentNames: string[];
}

/** What the wrapper saves when the team inside it is interrupted: that team's own history. */
interface IsolatedState {
  events: RecordedEvent[];
}

const INTERRUPTED_INFO = { kind: 'custom', message: 'deterministic transfer wrapper interrupted' } as const;

/** Eino's AgentWithDeterministicTransferTo: after the agent finishes, transfer to fixed agents. */
export class DeterministicTransferAgent implements Agent {
  /** Present when the wrapped agent can resume. */
  readonly resume?: (info: ResumeInfo, ctx?: RunContext) => AsyncIterable<AgentEvent>;

  constructor(
    readonly agent: Agent,
    readonly toAgentNames: string[],
  ) {
    if (agent.resume || teamOf(agent)) this.resume = (info, ctx) => this.resumeWrapped(info, ctx ?? createRunContext());
  }

  get name(): string {
    return this.agent.name;
  }
  get description(): string {
    return this.agent.description;
  }
  get type(): string {
    return this.agent.type ?? 'DeterministicTransfer';
  }

  run(input: AgentInput, ctx: RunContext = createRunContext()): AsyncIterable<AgentEvent> {
    const team = teamOf(this.agent);
    if (team) return this.runIsolated(ctx, [], (c) => team.run(input, c));
    return this.forward(this.agent.run(input, ctx));
  }

  private resumeWrapped(info: ResumeInfo, ctx: RunContext): AsyncIterable<AgentEvent> {
    const team = teamOf(this.agent);
    if (!team) return this.forward(this.agent.resume!(info, ctx));
    const events = (info.state as IsolatedState | undefined)?.events;
    if (!Array.isArray(events)) {
      return generate<AgentEvent>(async () => {
        throw new Error('invalid interrupt state for flowAgent resume in deterministic transfer');
      }, (e) => errorEvent(toError(e), this.name));
    }
    return this.runIsolated(ctx, events, (c) => team.resume(undefined, c));
  }

  /** Forwards every event, then the transfer messages unless the run ended in an interrupt or an error. */
  private forward(events: AsyncIterable<AgentEvent>): AsyncIterable<AgentEvent> {
    return generate<AgentEvent>(
      async (emit) => {
        let last: AgentEvent | undefined;
        for await (const e of events) {
          emit(e);
          last = e;
        }
        if (!endsRun(last)) emitTransfers(this.toAgentNames, emit);
      },
      (e) => errorEvent(toError(e), this.name),
    );
  }

  /**
   * A team of its own (a FlowAgent with sub-agents) runs with a separate history that shares the
   * session values; its events are copied into the caller's history. An interrupt inside is wrapped
   * with that separate history so a resume restores it.
   */
  private runIsolated(ctx: RunContext, seed: RecordedEvent[], start: (c: RunContext) => AsyncIterable<AgentEvent>): AsyncIterable<AgentEvent> {
    return generate<AgentEvent>(
      async (emit) => {
        const session = new Session(ctx.session.values, [...seed]);
        let pending: InterruptSignal | undefined;
        let last: AgentEvent | undefined;
        const afterInterrupt: AgentEvent[] = [];
        for await (const e of start({ ...ctx, session })) {
          last = e;
          if (e.action?.interrupted) {
            pending = e.action.interrupted.signal;
            continue;
          }
          if (pending) {
            // A cancelled run fails right after interrupting; the wrapped interrupt must come first.
            afterInterrupt.push(e);
            continue;
          }
          record(ctx.session, e);
          emit(e);
        }
        if (pending) {
          const state: IsolatedState = { events: await session.materialize() };
          const signal = makeSignal(ctx.address, INTERRUPTED_INFO, state, [pending]);
          emit({ agentName: '', runPath: [], action: { interrupted: interruptAction(signal) } });
          afterInterrupt.forEach(emit);
          return;
        }
        if (!endsRun(last)) emitTransfers(this.toAgentNames, emit);
      },
      (e) => errorEvent(toError(e), this.name),
    );
  }
}

/** Wraps `config.agent` so that, once it finishes normally, control transfers to `toAgentNames` in order. */
export function agentWithDeterministicTransferTo(config: DeterministicTransferConfig): DeterministicTransferAgent {
  const label = 'agentWithDeterministicTransferTo';
  const o = checkOptions(label, config, { known: Object.keys({ agent: true, toAgentNames: true } satisfies Record<keyof DeterministicTransferConfig, true>) });
  requireAgent(label, 'agent', o.agent);
  const names = o.toAgentNames;
  if (names === undefined) throw new ConfigError(`${label}: option 'toAgentNames' is required: the agents to transfer to, in order`);
  if (!Array.isArray(names) || !names.every((n) => typeof n === 'string' && n.trim())) {
    throw new ConfigError(`${label}: option 'toAgentNames' must be a list of agent names, got ${describeValue(names)}`);
  }
  return new DeterministicTransferAgent(config.agent, [...config.toAgentNames]);
}

/** The FlowAgent behind `agent` when it leads a team of sub-agents (set before or after wrapping). */
function teamOf(agent: Agent): FlowAgent | undefined {
  const flow = toFlowAgent(agent);
  return flow.subAgents.length ? flow : undefined;
}

/** No transfer after an interrupt (Eino) or an error (issue #782); an exit still hands over (the seed's rule). */
const endsRun = (e: AgentEvent | undefined): boolean => !!(e?.error || e?.action?.interrupted);

function emitTransfers(names: string[], emit: (e: AgentEvent) => void): void {
  for (const dest of names) {
    const [call, result] = genTransferMessages(dest);
    emit(messageEvent(call));
    const e = messageEvent(result, TRANSFER_TOOL_NAME);
    e.action = { transferToAgent: { destAgentName: dest } };
    emit(e);
  }
}

function record(session: Session, e: AgentEvent): void {
  const v = e.output?.message;
  if (!v) return;
  session.record({
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
