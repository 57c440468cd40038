import { generate } from '../../async-queue.js';
import { toError } from '../../errors.js';
import { interruptAction, makeSignal, type InterruptDetails, type InterruptSignal, type ResumeInfo } from '../../interrupt.js';
import { agentWithOptions, setSubAgents, type FlowAgent } from '../../agents/flow.js';
import { checkOptions, requireAgent, requireName } from '../../agents/options-check.js';
import { createRunContext, type RunContext } from '../../agents/run-context.js';
import { nextEventSeq, recordedMessage } from '../../agents/session.js';
import { errorEvent, type Agent, type AgentEvent, type AgentInput } from '../../agents/types.js';
import { researchOptions, type ResearchOptions } from './options.js';
import type { TodosEvent } from '../deep/todos.js';
import { findings, nextStep, parseResearchPlan, PlanParseError, planLines, planTodos, type PlanStep, type ResearchPlan } from './plan.js';
import { HANDOFF_TOOL, RESEARCH_KEYS } from './session-keys.js';

/** The agents of Deer-Go's graph, each a role (DeerFlow's node names in the comments). */
export interface ResearchTeamConfig {
  name: string;
  description?: string | undefined;
  /** `coordinator`: answers small talk; calls `handoff_to_planner` to start research. */
  coordinator: Agent;
  /** `background_investigator`: searches before planning (when the run enables it). */
  backgroundInvestigator?: Agent | undefined;
  /** `planner`: replies with the plan as JSON (`{locale, has_enough_context, thought, title, steps}`). */
  planner: Agent;
  /** `researcher`: works one `research` step. */
  researcher: Agent;
  /** `coder`: works one `processing` step (the researcher does when there is none). */
  coder?: Agent | undefined;
  /** `reporter`: writes the report from the plan and the steps' findings. */
  reporter: Agent;
}

type Node = 'coordinator' | 'background_investigator' | 'planner' | 'human_feedback' | 'research_team' | 'reporter' | 'end';
type Emit = (e: AgentEvent) => void;

/** What the team saves when it stops: where it was, who had run, and whether the stop is its own (plan review). */
interface TeamState {
  node: Node;
  ran: string[];
  own: boolean;
}

/** The plan review's answer: `{ accept: true }`, or `{ accept: false, feedback }` (review_plan's shape). */
interface Review {
  accept?: unknown;
  feedback?: unknown;
}

/**
 * Deer-Go's research graph (DeerFlow's coordinator → background investigator → planner → human
 * feedback → research team → reporter) as one agent: the routing is code, as in DeerFlow's nodes,
 * and each role is an agent of the team. The plan and the steps' results live in session values,
 * so an interrupted run (the plan review, a coder's approval) resumes where it stopped.
 */
export class ResearchTeamAgent implements Agent {
  readonly type = 'ResearchTeam';
  readonly name: string;
  readonly description: string;
  private readonly roles: Record<Exclude<Node, 'human_feedback' | 'research_team' | 'end'> | 'coder' | 'researcher', FlowAgent | undefined>;

  constructor(config: ResearchTeamConfig) {
    const label = `researchTeam '${String((config as { name?: unknown })?.name)}'`;
    const o = checkOptions(label, config, { known: ['name', 'description', 'coordinator', 'backgroundInvestigator', 'planner', 'researcher', 'coder', 'reporter'] });
    requireName('researchTeam', 'name', o.name);
    for (const k of ['coordinator', 'planner', 'researcher', 'reporter']) requireAgent(label, k, o[k]);
    this.name = config.name;
    this.description = config.description ?? '';
    const all = [config.coordinator, config.backgroundInvestigator, config.planner, config.researcher, config.coder, config.reporter];
    // The team routes between its roles; none transfers back to it.
    const subs = all.map((a) => (a ? agentWithOptions(a, { disallowTransferToParent: true }) : undefined));
    setSubAgents(this, subs.filter((a): a is FlowAgent => !!a));
    const [coordinator, background_investigator, planner, researcher, coder, reporter] = subs;
    this.roles = { coordinator, background_investigator, planner, researcher, coder, reporter };
  }

  run(input: AgentInput, ctx: RunContext = createRunContext()): AsyncIterable<AgentEvent> {
    return generate<AgentEvent>((emit) => this.execute(ctx, emit), (e) => errorEvent(toError(e), this.name));
  }

  resume(info: ResumeInfo, ctx: RunContext = createRunContext()): AsyncIterable<AgentEvent> {
    return generate<AgentEvent>((emit) => this.execute(ctx, emit, info), (e) => errorEvent(toError(e), this.name));
  }

  private async execute(ctx: RunContext, emit: Emit, resume?: ResumeInfo): Promise<void> {
    const opts = researchOptions(ctx, this.name);
    const v = ctx.session.values;
    const saved = resume?.state as TeamState | undefined;
    const ran = [...(saved?.ran ?? [])];
    if (!saved) seedValues(v, opts);
    let node: Node = saved?.node ?? 'coordinator';
    let resumingChild = !!saved && !saved.own;
    let review: ResumeInfo | undefined = saved?.own ? resume : undefined;

    /** Runs (or resumes) a role; false when it stopped the team (an interrupt, a failure). */
    const runRole = async (role: FlowAgent): Promise<{ ok: boolean; text: string; calls: Array<{ name: string; arguments: string }> }> => {
      const from = ctx.session.events().length;
      const childCtx = { ...ctx, runPath: [...ctx.runPath, ...ran] };
      const wrap = (sub: InterruptSignal) => makeSignal(ctx.address, { kind: 'custom', message: 'Research team interrupted' }, { node, ran: [...ran], own: false } satisfies TeamState, [sub]);
      const ok = await this.step(role, childCtx, emit, resumingChild, wrap);
      resumingChild = false;
      ran.push(role.name);
      const out = { ok, text: '', calls: [] as Array<{ name: string; arguments: string }> };
      for (const e of ctx.session.events().slice(from)) {
        if (e.agentName !== role.name || e.role !== 'assistant') continue;
        const m = await recordedMessage(e);
        if (!m) continue;
        if (m.content.trim()) out.text = m.content;
        for (const c of m.toolCalls ?? []) out.calls.push(c.function);
      }
      return out;
    };

    while (node !== 'end') {
      switch (node) {
        case 'coordinator': {
          const r = await runRole(this.roles.coordinator!);
          if (!r.ok) return;
          const handoff = r.calls.find((c) => c.name === HANDOFF_TOOL);
          if (!handoff) return; // small talk: the coordinator answered
          const args = parseArgs(handoff.arguments);
          if (typeof args.locale === 'string' && args.locale) v[RESEARCH_KEYS.locale] = args.locale;
          if (typeof args.research_topic === 'string' && args.research_topic) v[RESEARCH_KEYS.topic] = args.research_topic;
          node = opts.backgroundInvestigation && this.roles.background_investigator ? 'background_investigator' : 'planner';
          break;
        }
        case 'background_investigator': {
          const r = await runRole(this.roles.background_investigator!);
          if (!r.ok) return;
          v[RESEARCH_KEYS.background] = r.text;
          node = 'planner';
          break;
        }
        case 'planner': {
          const r = await runRole(this.roles.planner!);
          if (!r.ok) return;
          let plan: ResearchPlan;
          try {
            plan = parseResearchPlan(r.text, { locale: String(v[RESEARCH_KEYS.locale]), title: String(v[RESEARCH_KEYS.topic] ?? ''), maxSteps: opts.maxStepNum });
          } catch (e) {
            if (!(e instanceof PlanParseError)) throw e;
            // DeerFlow: no plan on the first try ends the run; after a plan, the reporter writes from it.
            if (!v[RESEARCH_KEYS.plan]) throw e;
            node = 'reporter';
            break;
          }
          setPlan(v, plan);
          node = plan.has_enough_context ? 'reporter' : 'human_feedback';
          break;
        }
        case 'human_feedback': {
          if (opts.autoAcceptedPlan) {
            node = 'research_team';
            break;
          }
          const answer = review?.hasData ? (review.data as Review | null) : undefined;
          if (!answer) {
            // Deer-Go's human node: anything but accepted or edit_plan asks again (the same point id).
            this.askForReview(ctx, emit, v[RESEARCH_KEYS.plan] as ResearchPlan, ran, review?.id);
            return;
          }
          review = undefined;
          if (answer.accept === true) {
            node = 'research_team';
            break;
          }
          const iterations = Number(v[RESEARCH_KEYS.iterations] ?? 0);
          // Past max_plan_iterations DeerFlow's planner hands over to the reporter instead of planning again.
          if (iterations >= opts.maxPlanIterations) {
            node = 'reporter';
            break;
          }
          v[RESEARCH_KEYS.iterations] = iterations + 1;
          const feedback = typeof answer.feedback === 'string' && answer.feedback.trim() ? answer.feedback.trim() : 'Please revise the plan.';
          ctx.session.record({ agentName: 'user', runPath: ctx.runPath, role: 'user', message: { role: 'user', content: `[EDIT_PLAN] ${feedback}` }, seq: nextEventSeq() });
          node = 'planner';
          break;
        }
        case 'research_team': {
          const plan = v[RESEARCH_KEYS.plan] as ResearchPlan;
          const step = nextStep(plan);
          this.showProgress(ctx, emit, plan, step);
          if (!step) {
            node = 'reporter';
            break;
          }
          v[RESEARCH_KEYS.step] = `## ${step.title}\n\n${step.description}`;
          v[RESEARCH_KEYS.findings] = findings(plan) || '(none yet)';
          const role = step.step_type === 'processing' && this.roles.coder ? this.roles.coder : this.roles.researcher!;
          const r = await runRole(role);
          if (!r.ok) return;
          step.execution_res = r.text || '(no result)';
          setPlan(v, plan);
          break;
        }
        case 'reporter': {
          const plan = v[RESEARCH_KEYS.plan] as ResearchPlan | undefined;
          v[RESEARCH_KEYS.findings] = (plan && findings(plan)) || '(none)';
          await runRole(this.roles.reporter!);
          node = 'end';
          break;
        }
      }
    }
  }

  /** Where the team is in the plan, as a todo list (see planTodos). */
  private showProgress(ctx: RunContext, emit: Emit, plan: ResearchPlan, current: PlanStep | undefined): void {
    const event: TodosEvent = { type: 'todos', agent: this.name, todos: planTodos(plan, current) };
    emit({ agentName: this.name, runPath: ctx.runPath, output: { custom: event } });
  }

  /** The plan review: the team's own interrupt point, answered like review_plan's. */
  private askForReview(ctx: RunContext, emit: Emit, plan: ResearchPlan, ran: string[], id?: string): void {
    const info: InterruptDetails & { data: { plan: ResearchPlan } } = {
      kind: 'plan_review',
      message: plan.title + (plan.thought ? `\n\n${plan.thought}` : ''),
      plan: planLines(plan),
      data: { plan },
    };
    const signal = makeSignal(ctx.address, info, { node: 'human_feedback', ran, own: true } satisfies TeamState, [], id);
    emit({ agentName: this.name, runPath: ctx.runPath, action: { interrupted: interruptAction(signal) } });
  }

  /** Runs or resumes one role, wrapping its interrupt with the team's state (as a workflow does). */
  private async step(child: FlowAgent, ctx: RunContext, emit: Emit, resuming: boolean, wrap: (sub: InterruptSignal) => InterruptSignal): Promise<boolean> {
    const events = resuming ? child.resume(undefined, ctx) : child.run({ messages: [] }, ctx);
    let held: AgentEvent | undefined;
    let ok = true;
    const release = (): void => {
      const e = held;
      held = undefined;
      if (!e) return;
      if (e.action?.interrupted) {
        emit({ ...e, action: { interrupted: interruptAction(wrap(e.action.interrupted.signal)) } });
        ok = false;
        return;
      }
      // A role's exit or transfer ends that role only: the team routes on.
      if (e.output || e.error) emit({ ...e, action: undefined });
    };
    for await (const e of events) {
      release();
      if (e.error) {
        emit(e);
        return false;
      }
      if (e.action) held = e;
      else emit(e);
    }
    release();
    return ok;
  }
}

/** Deer-Go's graph as one agent (see ResearchTeamAgent). */
export function researchTeam(config: ResearchTeamConfig): ResearchTeamAgent {
  return new ResearchTeamAgent(config);
}

/** The values every role's instruction may name, set before the first role runs. */
function seedValues(v: Record<string, unknown>, o: ResearchOptions): void {
  v[RESEARCH_KEYS.locale] = o.locale;
  v[RESEARCH_KEYS.maxStepNum] = o.maxStepNum;
  v[RESEARCH_KEYS.reportStyle] = o.reportStyle;
  v[RESEARCH_KEYS.resources] = o.resources.length ? o.resources.map((r) => `- ${r.title} (${r.uri})${r.description ? `: ${r.description}` : ''}`).join('\n') : '(none)';
  v[RESEARCH_KEYS.topic] = '';
  v[RESEARCH_KEYS.background] = '(none)';
  v[RESEARCH_KEYS.planText] = '(none yet)';
  v[RESEARCH_KEYS.step] = '(none)';
  v[RESEARCH_KEYS.findings] = '(none yet)';
  v[RESEARCH_KEYS.iterations] = 0;
}

function setPlan(v: Record<string, unknown>, plan: ResearchPlan): void {
  v[RESEARCH_KEYS.plan] = plan;
  v[RESEARCH_KEYS.planText] = JSON.stringify({ ...plan, steps: plan.steps.map(({ execution_res: _r, ...s }) => s) }, null, 2);
  v[RESEARCH_KEYS.locale] = plan.locale;
}

function parseArgs(text: string): Record<string, unknown> {
  try {
    const o = JSON.parse(text || '{}') as unknown;
    return o && typeof o === 'object' ? (o as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
