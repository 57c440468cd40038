/**
 * The session values the research team keeps, by the names its roles' instructions use as
 * `{placeholders}` (agents.yaml's research block names them).
 */
export const RESEARCH_KEYS = {
  locale: 'locale',
  topic: 'research_topic',
  maxStepNum: 'max_step_num',
  reportStyle: 'report_style',
  resources: 'resources',
  background: 'background_investigation_results',
  /** The plan object (ResearchPlan), with each step's execution_res. */
  plan: 'research_plan',
  /** The plan as JSON, for instructions. */
  planText: 'current_plan',
  /** The step being worked (title and description). */
  step: 'current_step',
  /** The finished steps' results. */
  findings: 'observations',
  iterations: 'plan_iterations',
} as const;

/** The coordinator's tool that starts research (DeerFlow's handoff_to_planner). */
export const HANDOFF_TOOL = 'handoff_to_planner';
