import type { InterruptPendingEvent } from './interrupt-pending.js';
import { generate } from '../async-queue.js';
import { toError } from '../errors.js';
import { interruptAction, makeSignal, type InterruptSignal, type ResumeInfo } from '../interrupt.js';
import { agentWithOptions, setSubAgents, type FlowAgent } from './flow.js';
import { createRunContext, type RunContext } from './run-context.js';
import { checkOptions, checkTypes, requireAgentList, requireName, who } from './options-check.js';
import type { RecordedEvent } from './session.js';
import { errorEvent, type Agent, type AgentEvent, type AgentInput } from './types.js';

/** Settings of a SequentialAgent or ParallelAgent: its name and the children it runs. */
export interface WorkflowConfig {
  name: string;
  description?: string | undefined;
  subAgents: Agent[];
}

/** Settings of a LoopAgent; `maxIterations` counts passes over all the children. */
export interface LoopConfig extends WorkflowConfig {
  /** 0 means no limit. */
  maxIterations?: number | undefined;
}

type Emit = (e: AgentEvent) => void;

const WORKFLOW_OPTIONS = { name: true, description: true, subAgents: true } satisfies Record<keyof WorkflowConfig, true>;
const LOOP_OPTIONS = { ...WORKFLOW_OPTIONS, maxIterations: true } satisfies Record<keyof LoopConfig, true>;

/** Eino's NewSequentialAgent / NewParallelAgent / NewLoopAgent configs: Name, Description, SubAgents (, MaxIterations). */
function checkWorkflowConfig(kind: string, config: unknown, loop: boolean): void {
  const known = Object.keys(loop ? LOOP_OPTIONS : WORKFLOW_OPTIONS);
  const o = checkOptions(who(kind, config), config, { known, aliases: { agents: 'subAgents' } });
  requireName(kind, 'name', o.name);
  const label = who(kind, o);
  requireAgentList(label, 'subAgents', o.subAgents, true);
  checkTypes(label, o, { description: 'string', ...(loop ? { maxIterations: 'count' as const } : {}) });
}

/** What happened when a child finished: keep going, or stop the workflow. */
type Outcome = 'continue' | 'stop';

interface SequentialState {
  interruptIndex: number;
}
interface LoopState {
  iteration: number;
  subAgentIndex: number;
}
interface ParallelState {
  lanes: Record<number, RecordedEvent[]>;
}

abstract class WorkflowAgent implements Agent {
  abstract readonly type: string;
  readonly name: string;
  readonly description: string;
  protected readonly children: FlowAgent[];

  constructor(config: WorkflowConfig) {
    const is = (c: abstract new (...a: never[]) => WorkflowAgent) => new.target === c || new.target.prototype instanceof c;
    const kind = is(LoopAgent) ? 'LoopAgent' : is(ParallelAgent) ? 'ParallelAgent' : 'SequentialAgent';
    checkWorkflowConfig(kind, config, kind === 'LoopAgent');
    this.name = config.name;
    this.description = config.description ?? '';
    // Children of a workflow never transfer back to it; their order is fixed.
    const subs = config.subAgents.map((a) => agentWithOptions(a, { disallowTransferToParent: true }));
    setSubAgents(this, subs);
    this.children = subs;
  }

  run(input: AgentInput, ctx: RunContext = createRunContext()): AsyncIterable<AgentEvent> {
    return generate<AgentEvent>((emit) => this.execute(input, ctx, emit), (e) => errorEvent(toError(e), this.name));
  }

  resume(info: ResumeInfo, ctx: RunContext = createRunContext()): AsyncIterable<AgentEvent> {
    return generate<AgentEvent>((emit) => this.execute({ messages: [] }, ctx, emit, info), (e) => errorEvent(toError(e), this.name));
  }

  protected abstract execute(input: AgentInput, ctx: RunContext, emit: Emit, resume?: ResumeInfo): Promise<void>;

  /**
   * Runs (or resumes) one child. Action events are held until the next event arrives, so the action
   * of a child's last event is handled here: an interrupt is wrapped with `state`, exit stops.
   * `onAction` sees every action event as it is released (a break-loop may stop the loop).
   */
  protected async step(
    child: FlowAgent,
    ctx: RunContext,
    emit: Emit,
    resuming: boolean,
    wrap: (sub: InterruptSignal) => InterruptSignal,
    onAction?: (e: AgentEvent) => Outcome | undefined,
  ): Promise<Outcome> {
    const events = resuming ? child.resume(undefined, ctx) : child.run({ messages: [] }, ctx);
    let held: AgentEvent | undefined;
    let outcome: Outcome = 'continue';
    const release = (): void => {
      const e = held;
      held = undefined;
      if (!e) return;
      const action = e.action!;
      if (action.interrupted) {
        emit({ ...e, action: { interrupted: interruptAction(wrap(action.interrupted.signal)) } });
        outcome = 'stop';
        return;
      }
      if (onAction?.(e) === 'stop') outcome = 'stop';
      emit(e);
    };
    for await (const e of events) {
      // A cancelled child interrupts and then fails: its interrupt is still wrapped, before the error.
      release();
      if (e.error) {
        emit(e);
        return 'stop';
      }
      if (e.action) held = e;
      else emit(e);
    }
    const last = held;
    release();
    if (last?.action?.exit) return 'stop';
    return outcome;
  }
}

/** Runs its children one after another; each sees the history the earlier ones recorded. */
export class SequentialAgent extends WorkflowAgent {
  readonly type = 'Sequential';

  protected async execute(_input: AgentInput, ctx: RunContext, emit: Emit, resume?: ResumeInfo): Promise<void> {
    const start = (resume?.state as SequentialState | undefined)?.interruptIndex ?? 0;
    for (let i = start; i < this.children.length; i++) {
      const childCtx = { ...ctx, runPath: [...ctx.runPath, ...this.children.slice(0, i).map((c) => c.name)] };
      const wrap = (sub: InterruptSignal) =>
        makeSignal(ctx.address, { kind: 'custom', message: 'Sequential workflow interrupted' }, { interruptIndex: i } satisfies SequentialState, [sub]);
      if ((await this.step(this.children[i], childCtx, emit, !!resume && i === start, wrap)) === 'stop') return;
    }
  }
}

/** Runs its children in order, repeatedly, until exit, a break-loop action, or maxIterations. */
export class LoopAgent extends WorkflowAgent {
  readonly type = 'Loop';
  private readonly maxIterations: number;

  constructor(config: LoopConfig) {
    super(config);
    this.maxIterations = config.maxIterations ?? 0;
  }

  protected async execute(_input: AgentInput, ctx: RunContext, emit: Emit, resume?: ResumeInfo): Promise<void> {
    const saved = resume?.state as LoopState | undefined;
    const names = this.children.map((c) => c.name);
    // The run path keeps every sibling and iteration already run: [loop, a1, a2, a1, a2, ...].
    const path = (iteration: number, index: number) => [...ctx.runPath, ...Array.from({ length: iteration }, () => names).flat(), ...names.slice(0, index)];
    for (let it = saved?.iteration ?? 0; this.maxIterations === 0 || it < this.maxIterations; it++) {
      const first = saved && it === saved.iteration ? saved.subAgentIndex : 0;
      for (let j = first; j < this.children.length; j++) {
        const resuming = !!saved && it === saved.iteration && j === saved.subAgentIndex;
        const wrap = (sub: InterruptSignal) =>
          makeSignal(ctx.address, { kind: 'custom', message: 'Loop workflow interrupted' }, { iteration: it, subAgentIndex: j } satisfies LoopState, [sub]);
        const onAction = (e: AgentEvent): Outcome | undefined => {
          const b = e.action?.breakLoop;
          if (!b || b.done) return undefined;
          e.action = { ...e.action, breakLoop: { ...b, done: true, currentIterations: it } };
          return 'stop';
        };
        if ((await this.step(this.children[j], { ...ctx, runPath: path(it, j) }, emit, resuming, wrap, onAction)) === 'stop') return;
      }
    }
  }
}

/** Runs its children at the same time, each in its own history lane; lanes merge in time order. */
export class ParallelAgent extends WorkflowAgent {
  readonly type = 'Parallel';

  protected async execute(_input: AgentInput, ctx: RunContext, emit: Emit, resume?: ResumeInfo): Promise<void> {
    const saved = resume?.state as ParallelState | undefined;
    const lanes = this.children.map((_, i) => ctx.session.fork(saved?.lanes[i] ?? []));
    const interrupts: Array<{ index: number; signal: InterruptSignal }> = [];
    await Promise.all(
      this.children.map(async (child, i) => {
        const resuming = !!saved && !!ctx.resume?.leadsTo([...ctx.address, { type: 'agent', id: child.name }]);
        if (saved && !resuming) return; // finished before the interrupt; not run again
        const events = resuming ? child.resume(undefined, { ...ctx, session: lanes[i] }) : child.run({ messages: [] }, { ...ctx, session: lanes[i] });
        for await (const e of events) {
          const stopped = e.action?.interrupted;
          if (!stopped) {
            emit(e);
            continue;
          }
          interrupts.push({ index: i, signal: stopped.signal });
          // The siblings still run; whoever shows the questions can ask them now.
          const contexts = stopped.contexts.filter((c) => !c.cancelled);
          if (contexts.length) emit({ agentName: e.agentName, runPath: e.runPath, output: { custom: { type: 'interrupt_pending', contexts } satisfies InterruptPendingEvent } });
        }
      }),
    );
    if (interrupts.length) {
      const state: ParallelState = { lanes: {} };
      for (const [i, lane] of lanes.entries()) state.lanes[i] = await lane.materializeLane();
      const signal = makeSignal(ctx.address, { kind: 'custom', message: 'Parallel workflow interrupted' }, state, interrupts.map((x) => x.signal));
      emit({ agentName: this.name, runPath: ctx.runPath, action: { interrupted: interruptAction(signal) } });
      return;
    }
    ctx.session.join(lanes);
  }
}
