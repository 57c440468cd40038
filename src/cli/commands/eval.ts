import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { CliError, ExitCode } from '../exit-codes.js';
import { sanitizeText } from '../../ui/text/sanitize.js';
import { findTasks, type EvalTask } from '../eval/task.js';
import { runTrial, type EvalConfig, type TrialResult } from '../eval/trial.js';
import { formatSummary, summarize, type EvalResults } from '../eval/report.js';
import { htmlReport } from '../eval/html-report.js';

export interface EvalOptions {
  agents?: string[];
  agent?: string;
  trials?: string;
  concurrency?: string;
  out?: string;
  json?: boolean;
  maxCost?: string;
  maxModelCalls?: string;
  maxToolCalls?: string;
  maxTokens?: string;
  maxTurns?: string;
}

const write = (s: string) => process.stdout.write(s);
const say = (s: string) => process.stderr.write(s);

/** `adk eval run|check|show`: agents measured on task folders (docs/eval.md). */
export async function evalCommand(action: string, paths: string[], opts: EvalOptions): Promise<number> {
  switch (action) {
    case 'check':
      return check(paths);
    case 'run':
      return run(paths, opts);
    case 'show': {
      const r = readResults(paths[0]);
      write(opts.json ? `${JSON.stringify(r, null, 2)}\n` : formatSummary(r));
      return ExitCode.ok;
    }
    case 'compare': {
      if (paths.length !== 2) throw new CliError('usage: adk eval compare RESULTS_DIR1 RESULTS_DIR2', ExitCode.usage);
      const r = compareRuns(readResults(paths[0]), readResults(paths[1]), [basename(resolve(paths[0]!)), basename(resolve(paths[1]!))]);
      write(opts.json ? `${JSON.stringify(r, null, 2)}\n` : formatSummary(r));
      return ExitCode.ok;
    }
    default:
      throw new CliError(`adk eval ${action}: expected run, check, show or compare`, ExitCode.usage);
  }
}

function check(paths: string[]): number {
  if (!paths.length) throw new CliError('usage: adk eval check TASK_DIR…', ExitCode.usage);
  const tasks = findTasks(paths);
  let bad = 0;
  for (const t of tasks) {
    if (t.problems.length) {
      bad++;
      write(`✗ ${sanitizeText(t.name)}\n${t.problems.map((p) => `    ${sanitizeText(p)}\n`).join('')}`);
    } else write(`✓ ${sanitizeText(t.name)} (${t.format}${t.needsDocker ? ', needs docker' : ''}; agent ${t.agentTimeoutSec} s, verifier ${t.verifierTimeoutSec} s${t.solution ? ', has a solution' : ''})\n`);
  }
  write(`${tasks.length - bad} of ${tasks.length} tasks valid\n`);
  return bad ? ExitCode.usage : ExitCode.ok;
}

async function run(paths: string[], opts: EvalOptions): Promise<number> {
  if (!paths.length) throw new CliError('usage: adk eval run TASK_DIR… [--agents FILE]… [--agent NAME|oracle] [--trials K] [--concurrency N] [--out DIR]', ExitCode.usage);
  const tasks = findTasks(paths);
  const trials = positive(opts.trials ?? '1', '--trials');
  const concurrency = positive(opts.concurrency ?? '1', '--concurrency');
  const configs = evalConfigs(opts);
  // The solutions, the agents' work and the verifiers are the tasks' code: they run in the sandbox or not at all.
  if (process.env.ADK_SHELL_SANDBOX !== 'off') {
    const { sandboxStatus } = await import('../../core/tools/sandbox/bwrap.js');
    const status = await sandboxStatus(process.env, resolve('.'));
    if (!status.bwrap) throw new CliError(`adk eval runs tasks' code in the sandbox, and there is none here (${status.reason}); set ADK_SHELL_SANDBOX=off to run it unsandboxed`, ExitCode.runtimeError);
  }
  const outDir = resolve(opts.out ?? join('eval-results', new Date().toISOString().replace(/[:.]/g, '-')));
  mkdirSync(outDir, { recursive: true });
  const startedAt = new Date().toISOString();
  const jobs = configs.flatMap((c) => tasks.flatMap((t) => Array.from({ length: trials }, (_, i) => ({ config: c, task: t, trial: i + 1 }))));
  const results: TrialResult[] = [];
  const abort = new AbortController();
  const onSigint = () => abort.abort();
  process.once('SIGINT', onSigint);
  const progress = new Progress(jobs.length);
  try {
    let next = 0;
    const worker = async () => {
      while (next < jobs.length && !abort.signal.aborted) {
        const job = jobs[next++]!;
        const r = await runTrial(job.task, job.config, job.trial, outDir, abort.signal);
        results.push(r);
        progress.done(r);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, worker));
  } finally {
    process.removeListener('SIGINT', onSigint);
    progress.end();
  }
  const order = (r: TrialResult) => [configs.findIndex((c) => c.name === r.config), tasks.findIndex((t) => t.name === r.task), r.trial];
  results.sort((a, b) => order(a).reduce((d, x, i) => d || x - order(b)[i]!, 0));
  const report = { ...summarize(configs, tasks.map((t) => t.name), trials, results, startedAt), ...(abort.signal.aborted ? { interrupted: true } : {}) };
  writeFileSync(join(outDir, 'results.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(outDir, 'report.html'), htmlReport(report));
  write(opts.json ? `${JSON.stringify(report, null, 2)}\n` : formatSummary(report));
  say(`adk: results in ${join(outDir, 'results.json')}, report in ${join(outDir, 'report.html')}\n`);
  if (abort.signal.aborted) return ExitCode.interrupted;
  return ExitCode.ok;
}

/** The configurations: each `--agents` file (its `--agent`), or the oracle. */
function evalConfigs(opts: EvalOptions): EvalConfig[] {
  const budgetFlags = [
    ...(opts.maxCost ? ['--max-cost', opts.maxCost] : []),
    ...(opts.maxModelCalls ? ['--max-model-calls', opts.maxModelCalls] : []),
    ...(opts.maxToolCalls ? ['--max-tool-calls', opts.maxToolCalls] : []),
    ...(opts.maxTokens ? ['--max-tokens', opts.maxTokens] : []),
    ...(opts.maxTurns ? ['--max-turns', opts.maxTurns] : []),
  ];
  const files = opts.agents ?? [];
  if (opts.agent === 'oracle' && !files.length) return [{ name: 'oracle', oracle: true, budgetFlags }];
  if (!files.length) return [{ name: opts.agent ?? 'default', oracle: false, agent: opts.agent, budgetFlags }];
  const names = new Set<string>();
  return files.map((f) => {
    const file = resolve(f);
    if (!existsSync(file)) throw new CliError(`--agents ${f}: no such file`, ExitCode.usage);
    let name = basename(f).replace(/\.ya?ml$/, '');
    for (let i = 2; names.has(name); i++) name = `${basename(f).replace(/\.ya?ml$/, '')}-${i}`;
    names.add(name);
    return { name, oracle: false, agentsFile: file, agent: opts.agent, budgetFlags };
  });
}

/**
 * Two past runs as one: each configuration named after its run's folder, the first run's first
 * configuration the baseline, compared on the tasks both ran.
 */
function compareRuns(a: EvalResults, b: EvalResults, labels: [string, string]): EvalResults {
  const [la, lb] = labels[0] === labels[1] ? ['1', '2'] : labels;
  const rename = (r: EvalResults, label: string) => ({
    configs: r.configs.map((c) => ({ ...c, name: `${label}:${c.name}`, budgetFlags: [] })),
    results: r.results.map((x) => ({ ...x, config: `${label}:${x.config}` })),
  });
  const x = rename(a, la);
  const y = rename(b, lb);
  const tasks = a.tasks.filter((t) => b.tasks.includes(t));
  const results = [...x.results, ...y.results].filter((t) => tasks.includes(t.task));
  return summarize([...x.configs, ...y.configs], tasks, Math.min(a.trials, b.trials), results, a.startedAt);
}

function readResults(dir: string | undefined): EvalResults {
  if (!dir) throw new CliError('usage: adk eval show RESULTS_DIR', ExitCode.usage);
  const file = dir.endsWith('.json') ? resolve(dir) : join(resolve(dir), 'results.json');
  if (!existsSync(file)) throw new CliError(`${file}: no results here (adk eval run --out DIR writes them)`, ExitCode.usage);
  const r = JSON.parse(readFileSync(file, 'utf8')) as EvalResults;
  if (r.schema !== 'adk-eval/1') throw new CliError(`${file}: not adk eval results (schema ${String(r.schema)})`, ExitCode.usage);
  return r;
}

function positive(text: string, flag: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new CliError(`${flag} ${text}: expected a whole number of at least 1`, ExitCode.usage);
  return n;
}

/** `[12/40] ✓ 9 ✗ 3 · $0.84 · 03:12` on stderr: redrawn in place on a terminal, a line per trial otherwise. */
class Progress {
  private passed = 0;
  private failed = 0;
  private cost = 0;
  private readonly start = Date.now();
  private readonly tty = !!process.stderr.isTTY;

  constructor(private readonly total: number) {}

  done(r: TrialResult): void {
    if (r.status === 'passed') this.passed++;
    else this.failed++;
    this.cost += r.costUsd;
    const secs = Math.round((Date.now() - this.start) / 1000);
    const clock = `${String(Math.floor(secs / 60)).padStart(2, '0')}:${String(secs % 60).padStart(2, '0')}`;
    const line = `[${this.passed + this.failed}/${this.total}] ✓ ${this.passed} ✗ ${this.failed} · $${this.cost.toFixed(2)} · ${clock}`;
    say(this.tty ? `\r${line}` : `${line}  ${r.status === 'passed' ? '✓' : r.status === 'skipped' ? '–' : '✗'} ${sanitizeText(r.task)} #${r.trial} (${sanitizeText(r.config)})\n`);
  }

  end(): void {
    if (this.tty) say('\n');
  }
}

export type { EvalTask };
