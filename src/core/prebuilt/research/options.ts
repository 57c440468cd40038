import { callOptionsFor, type RunContext } from '../../agents/run-context.js';

/** DeerFlow's report styles (src/config/report_style.py). */
export const REPORT_STYLES = ['academic', 'popular_science', 'news', 'social_media', 'strategic_investment'] as const;
/** How the reporter writes (`report_style` of DeerFlow's request). */
export type ReportStyle = (typeof REPORT_STYLES)[number];

/**
 * A research run's settings, as DeerFlow's chat request names them. They reach the team as the run's
 * tool options under `research` (`toolOptions: { research: {…} }`), so every face can set them: the
 * DeerFlow route from the request, the library from `runner.query(…, { toolOptions })`.
 */
export interface ResearchOptions {
  /** Re-plans (edit_plan) allowed; past it the reporter writes from what there is (default 1). */
  maxPlanIterations: number;
  /** The most steps a plan may have (default 3). */
  maxStepNum: number;
  /** The plan runs without review (no interrupt). */
  autoAcceptedPlan: boolean;
  /** A search before planning, when the team has a background investigator (default true). */
  backgroundInvestigation: boolean;
  /** The language the team writes in until the coordinator detects the user's (default en-US). */
  locale: string;
  reportStyle: ReportStyle;
  /** Local resources the user attached (DeerFlow's RAG resources): titles and URIs for the researcher. */
  resources: Array<{ uri: string; title: string; description?: string | undefined }>;
}

/** DeerFlow's own defaults for a chat request that sets nothing. */
export const DEFAULT_RESEARCH_OPTIONS: ResearchOptions = {
  maxPlanIterations: 1,
  maxStepNum: 3,
  autoAcceptedPlan: false,
  backgroundInvestigation: true,
  locale: 'en-US',
  reportStyle: 'academic',
  resources: [],
};

/** This run's settings: the defaults with whatever `toolOptions.research` sets over them (bad values ignored). */
export function researchOptions(ctx: Pick<RunContext, 'callOptions'>, agentName: string): ResearchOptions {
  const raw = callOptionsFor(ctx, agentName).toolOptions.research;
  const o = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const count = (v: unknown, d: number) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : d);
  const d = DEFAULT_RESEARCH_OPTIONS;
  return {
    maxPlanIterations: count(o.maxPlanIterations, d.maxPlanIterations),
    maxStepNum: Math.max(1, count(o.maxStepNum, d.maxStepNum)),
    autoAcceptedPlan: typeof o.autoAcceptedPlan === 'boolean' ? o.autoAcceptedPlan : d.autoAcceptedPlan,
    backgroundInvestigation: typeof o.backgroundInvestigation === 'boolean' ? o.backgroundInvestigation : d.backgroundInvestigation,
    locale: typeof o.locale === 'string' && /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(o.locale) ? o.locale : d.locale,
    reportStyle: (REPORT_STYLES as readonly unknown[]).includes(o.reportStyle) ? (o.reportStyle as ReportStyle) : d.reportStyle,
    resources: Array.isArray(o.resources)
      ? o.resources.filter((r): r is ResearchOptions['resources'][number] => !!r && typeof r === 'object' && typeof (r as { uri?: unknown }).uri === 'string').map((r) => ({ uri: r.uri, title: String(r.title ?? r.uri), ...(r.description ? { description: String(r.description) } : {}) }))
      : d.resources,
  };
}
