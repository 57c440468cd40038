import type { EvalConfig, TrialResult } from './trial.js';
import { mean, median, pairedBootstrap, passAtK } from './stats.js';
import { sanitizeText } from '../../ui/text/sanitize.js';

/** What results.json holds (schema `adk-eval/1`, docs/eval.md). */
export interface EvalResults {
  schema: 'adk-eval/1';
  startedAt: string;
  finishedAt: string;
  /** Trials per task and configuration. */
  trials: number;
  tasks: string[];
  configs: Array<Pick<EvalConfig, 'name' | 'oracle' | 'agentsFile' | 'agent'>>;
  results: TrialResult[];
  summary: Record<string, ConfigSummary>;
  /** Each configuration against the first, on the tasks both ran. */
  comparisons: Comparison[];
  /** Ctrl-C stopped the run: trials it cut short are skipped (`interrupted`), the rest never ran. */
  interrupted?: boolean | undefined;
}

export interface ConfigSummary {
  /** Trials that ran (skipped ones are not counted). */
  ran: number;
  passed: number;
  skipped: number;
  passAt1: number;
  /** pass@k for k = the trials per task. */
  passAtK: number;
  k: number;
  meanCostUsd: number;
  medianCostUsd: number;
  /** What the judges of `judge:` tasks cost in all (not part of the agent's cost). */
  judgeCostUsd: number;
  meanInputTokens: number;
  meanOutputTokens: number;
  meanModelCalls: number;
  meanToolCalls: number;
  meanWallMs: number;
  failures: Record<string, number>;
  /** Per task: trials passed of trials run. */
  byTask: Record<string, { passed: number; ran: number }>;
}

export interface Comparison {
  baseline: string;
  config: string;
  /** Mean over tasks of (this pass rate − the baseline's), with a 95% paired bootstrap interval. */
  difference: number;
  low: number;
  high: number;
  /** The interval holds 0: the two cannot be told apart on these tasks and trials. */
  withinNoise: boolean;
}

export function summarize(configs: readonly EvalConfig[], tasks: readonly string[], trials: number, results: readonly TrialResult[], startedAt: string): EvalResults {
  const summary: Record<string, ConfigSummary> = {};
  for (const c of configs) {
    const mine = results.filter((r) => r.config === c.name);
    const ran = mine.filter((r) => r.status !== 'skipped');
    const byTask: ConfigSummary['byTask'] = {};
    for (const t of tasks) {
      const rs = ran.filter((r) => r.task === t);
      if (rs.length) byTask[t] = { passed: rs.filter((r) => r.status === 'passed').length, ran: rs.length };
    }
    const per = Object.values(byTask);
    const failures: Record<string, number> = {};
    for (const r of mine) if (r.failure) failures[r.failure] = (failures[r.failure] ?? 0) + 1;
    summary[c.name] = {
      ran: ran.length,
      passed: ran.filter((r) => r.status === 'passed').length,
      skipped: mine.length - ran.length,
      passAt1: mean(per.map((p) => passAtK(p.ran, p.passed, 1))),
      passAtK: mean(per.map((p) => passAtK(p.ran, p.passed, Math.min(trials, p.ran)))),
      k: trials,
      meanCostUsd: mean(ran.map((r) => r.costUsd)),
      medianCostUsd: median(ran.map((r) => r.costUsd)),
      judgeCostUsd: ran.reduce((sum, r) => sum + (r.judgeCostUsd ?? 0), 0),
      meanInputTokens: mean(ran.map((r) => r.inputTokens)),
      meanOutputTokens: mean(ran.map((r) => r.outputTokens)),
      meanModelCalls: mean(ran.map((r) => r.modelCalls)),
      meanToolCalls: mean(ran.map((r) => r.toolCalls)),
      meanWallMs: mean(ran.map((r) => r.wallMs)),
      failures,
      byTask,
    };
  }
  const comparisons: Comparison[] = [];
  const [first, ...rest] = configs;
  for (const c of first ? rest : []) {
    const a = summary[first!.name]!.byTask;
    const b = summary[c.name]!.byTask;
    const both = Object.keys(a).filter((t) => b[t]);
    const ci = pairedBootstrap(both.map((t) => b[t]!.passed / b[t]!.ran - a[t]!.passed / a[t]!.ran));
    comparisons.push({ baseline: first!.name, config: c.name, difference: ci.mean, low: ci.low, high: ci.high, withinNoise: !(ci.low > 0 || ci.high < 0) });
  }
  return {
    schema: 'adk-eval/1',
    startedAt,
    finishedAt: new Date().toISOString(),
    trials,
    tasks: [...tasks],
    configs: configs.map((c) => ({ name: c.name, oracle: c.oracle, ...(c.agentsFile ? { agentsFile: c.agentsFile } : {}), ...(c.agent ? { agent: c.agent } : {}) })),
    results: [...results],
    summary,
    comparisons,
  };
}

// NaN (nothing ran) is saved as null in results.json: both read as "—".
const none = (x: number | null) => x === null || Number.isNaN(x);
const pct = (x: number | null) => (none(x) ? '—' : `${(x! * 100).toFixed(0)}%`);
const usd = (x: number | null) => (none(x) ? '—' : `$${x!.toFixed(x! < 1 ? 4 : 2)}`);
const num = (x: number | null) => (none(x) ? '—' : x! >= 100 ? x!.toFixed(0) : x!.toFixed(1));

/**
 * The terminal summary: one row per configuration, the tasks each failed, and the comparisons.
 * Task names, notes (a verifier's or a judge's words) and configuration names are the tasks' text:
 * shown through the sanitiser, as everything else adk prints.
 */
export function formatSummary(r: EvalResults): string {
  return sanitizeText(rawSummary(r));
}

function rawSummary(r: EvalResults): string {
  const k = r.trials > 1;
  const head = ['config', 'passed', 'pass@1', ...(k ? [`pass@${r.trials}`] : []), 'mean cost', 'tokens in/out', 'model calls', 'tool calls', 'time'];
  const rows = r.configs.map((c) => {
    const s = r.summary[c.name]!;
    return [c.name, `${s.passed}/${s.ran}${s.skipped ? ` (+${s.skipped} skipped)` : ''}`, pct(s.passAt1), ...(k ? [pct(s.passAtK)] : []), usd(s.meanCostUsd), `${num(s.meanInputTokens)}/${num(s.meanOutputTokens)}`, num(s.meanModelCalls), num(s.meanToolCalls), `${num(s.meanWallMs / 1000)} s`];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  const out = [line(head), line(widths.map((w) => '─'.repeat(w))), ...rows.map(line)];
  for (const c of r.configs) {
    const failed = r.results.filter((x) => x.config === c.name && x.status !== 'passed');
    if (!failed.length) continue;
    out.push('', `${c.name}: not passed`);
    for (const f of failed) out.push(`  ${f.status === 'skipped' ? '–' : '✗'} ${f.task} #${f.trial} ${f.failure ?? ''}${f.note ? `: ${f.note}` : ''}`);
  }
  for (const cmp of r.comparisons) {
    const sign = (x: number | null) => (none(x) ? '—' : `${x! >= 0 ? '+' : ''}${(x! * 100).toFixed(0)}`);
    out.push('', `${cmp.config} vs ${cmp.baseline}: ${sign(cmp.difference)} points of pass rate (95% interval ${sign(cmp.low)} to ${sign(cmp.high)})${cmp.withinNoise ? ' — within noise: these trials cannot tell them apart' : ''}`);
  }
  return `${out.join('\n')}\n`;
}
