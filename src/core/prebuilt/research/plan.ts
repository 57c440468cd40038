import type { Todo } from '../deep/todos.js';

/**
 * DeerFlow's research plan (src/prompts/planner_model.py in bytedance/deer-flow): what the planner
 * writes as JSON, what the person reviews, and what the research team works through step by step.
 */
export type StepType = 'research' | 'processing';

/** One step of a plan: a research step goes to the researcher, a processing step to the coder. */
export interface PlanStep {
  need_search: boolean;
  title: string;
  description: string;
  step_type: StepType;
  /** What the researcher or coder found; a step without it is still to do. */
  execution_res?: string | undefined;
}

/** The planner's whole plan; `has_enough_context` sends it straight to the reporter. */
export interface ResearchPlan {
  locale: string;
  has_enough_context: boolean;
  thought: string;
  title: string;
  steps: PlanStep[];
}

/** The planner's reply was not a plan: nothing to review or work through. */
export class PlanParseError extends Error {}

/**
 * The plan in a planner's reply: its JSON object, also when fenced (```json) or surrounded by
 * words, normalised as DeerFlow's validate_and_fix_plan does (a missing step_type follows
 * need_search) and cut to `maxSteps`.
 */
export function parseResearchPlan(text: string, defaults: { locale: string; title: string; maxSteps: number }): ResearchPlan {
  const raw = jsonObject(text);
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new PlanParseError('the planner did not reply with a plan (a JSON object)');
  const o = raw as Record<string, unknown>;
  const steps = (Array.isArray(o.steps) ? o.steps : []).filter((s): s is Record<string, unknown> => !!s && typeof s === 'object').map(toStep);
  return {
    locale: typeof o.locale === 'string' && o.locale ? o.locale : defaults.locale,
    has_enough_context: o.has_enough_context === true,
    thought: typeof o.thought === 'string' ? o.thought : '',
    title: typeof o.title === 'string' && o.title ? o.title : defaults.title,
    steps: steps.slice(0, Math.max(0, defaults.maxSteps)),
  };
}

function toStep(s: Record<string, unknown>): PlanStep {
  const needSearch = s.need_search !== false;
  const type = s.step_type === 'processing' || s.step_type === 'research' ? s.step_type : needSearch ? 'research' : 'processing';
  const step: PlanStep = { need_search: needSearch, title: String(s.title ?? ''), description: String(s.description ?? ''), step_type: type };
  if (typeof s.execution_res === 'string' && s.execution_res) step.execution_res = s.execution_res;
  return step;
}

/**
 * The planner's reply as the person should see it: a plan of more than `maxSteps` steps is cut as
 * parseResearchPlan cuts it (the steps past the limit never run), kept otherwise as written.
 */
export function planTextWithin(text: string, maxSteps: number): string {
  const raw = jsonObject(text);
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return text;
  const o = raw as Record<string, unknown>;
  if (!Array.isArray(o.steps) || o.steps.length <= maxSteps) return text;
  return JSON.stringify({ ...o, steps: o.steps.slice(0, Math.max(0, maxSteps)) }, null, 2);
}

/** The first JSON object in `text`: the whole text, a fenced block, or the span from the first `{` to the last `}`. */
function jsonObject(text: string): unknown {
  const fenced = /```(?:json|ts|js)?\s*\n([\s\S]*?)```/.exec(text)?.[1];
  const first = text.indexOf('{');
  const last = text.lastIndexOf('}');
  for (const candidate of [text, fenced, first >= 0 && last > first ? text.slice(first, last + 1) : undefined]) {
    if (!candidate) continue;
    try {
      return JSON.parse(candidate);
    } catch {
      // the next form
    }
  }
  return undefined;
}

/** The first step still to do (DeerFlow's research team works them in order), or undefined. */
export function nextStep(plan: ResearchPlan): PlanStep | undefined {
  return plan.steps.find((s) => !s.execution_res);
}

/** The plan as the review screen lists it: one line per step, its kind first. */
export function planLines(plan: ResearchPlan): string[] {
  return plan.steps.map((s) => `[${s.step_type}] ${s.title}${s.description ? `: ${s.description}` : ''}`);
}

/** The steps done so far, as DeerFlow hands them to the next step and to the reporter. */
export function findings(plan: ResearchPlan): string {
  return plan.steps
    .filter((s) => s.execution_res)
    .map((s) => `## ${s.title}\n\n<finding>\n${s.execution_res}\n</finding>`)
    .join('\n\n');
}

/**
 * The plan as a todo list, for the person to follow the team step by step (the REPL's todo panel,
 * `todos` lines of `adk run --json`, ACP's plan): done steps completed, `current` in progress.
 */
export function planTodos(plan: ResearchPlan, current?: PlanStep): Todo[] {
  return plan.steps.map((s) => ({
    content: `[${s.step_type}] ${s.title}`,
    status: s.execution_res ? 'completed' : s === current ? 'in_progress' : 'pending',
    activeForm: `${s.step_type === 'processing' ? 'Computing' : 'Researching'}: ${s.title}`,
  }));
}
