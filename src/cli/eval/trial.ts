import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runShell } from '../../core/tools/builtin/shell.js';
import type { EvalTask } from './task.js';
import { ownBin } from '../own-bin.js';

/** A configuration under test: an agents file and its agent, or the oracle (the task's own solution). */
export interface EvalConfig {
  /** Its name in the report (the agents file's name, or `oracle`). */
  name: string;
  oracle: boolean;
  agentsFile?: string | undefined;
  agent?: string | undefined;
  /** Budget flags every trial's run gets (`--max-cost 0.5`, …). */
  budgetFlags: readonly string[];
}

/** Why a trial did not pass. */
export type FailureKind = 'verifier_failed' | 'budget' | 'timeout' | 'error' | 'refused' | 'needs_docker' | 'invalid_task' | 'interrupted';

/** One trial of one task under one configuration: what results.json holds per trial. */
export interface TrialResult {
  task: string;
  config: string;
  trial: number;
  status: 'passed' | 'failed' | 'skipped';
  /** The verifier's reward (1 passes; Harbor's reward.txt may hold a fraction). */
  reward?: number | undefined;
  failure?: FailureKind | undefined;
  /** What happened, in a line (the run's error, the verifier's last output). */
  note?: string | undefined;
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
  modelCalls: number;
  toolCalls: number;
  wallMs: number;
  /** What the judge's model cost (a `judge:` task), apart from the agent's. */
  judgeCostUsd?: number | undefined;
  /** The trial's ATIF trajectory, relative to the output folder. */
  trajectory?: string | undefined;
  sessionId?: string | undefined;
}

/** The folder inside a trial's workspace where the verifier's files go once the agent has stopped. */
const VERIFY_DIR = '.adk-eval';

/**
 * One trial: a fresh copy of the task's starting files, the agent (an unattended `adk run`:
 * accept-edits, other approvals denied, the task's time limit and the budgets) or the oracle (the
 * task's solution, in the sandbox), then the verifier, in the sandbox, after the agent has stopped.
 * The agent never sees `tests/` or `solution/`: they are not in its workspace while it runs.
 */
export async function runTrial(task: EvalTask, config: EvalConfig, trial: number, outDir: string, signal: AbortSignal): Promise<TrialResult> {
  const base: TrialResult = { task: task.name, config: config.name, trial, status: 'skipped', costUsd: 0, inputTokens: 0, outputTokens: 0, modelCalls: 0, toolCalls: 0, wallMs: 0 };
  if (task.problems.length) return { ...base, failure: 'invalid_task', note: task.problems[0] };
  if (task.needsDocker) return { ...base, failure: 'needs_docker', note: 'needs docker: its environment is a container image (run with --env docker where a container engine runs)' };
  const started = Date.now();
  const ws = mkdtempSync(join(tmpdir(), 'adk-eval-trial-'));
  try {
    if (task.workspace) cpSync(task.workspace, ws, { recursive: true });
    const ran = config.oracle ? await runOracle(task, ws, signal) : await runAgent(task, config, ws, trial, outDir, signal);
    // Ctrl-C: the trial did not finish; it is not a failure of the configuration.
    if (signal.aborted) return { ...base, ...ran.metrics, failure: 'interrupted', note: 'the eval was interrupted', wallMs: Date.now() - started };
    const result: TrialResult = { ...base, ...ran.metrics, status: 'failed' };
    if (ran.failure) return { ...result, failure: ran.failure, note: ran.note, wallMs: Date.now() - started };
    const verdict: { passed: boolean; reward: number; note?: string | undefined; judgeCostUsd?: number | undefined } = task.verifier?.kind === 'judge' ? await judge(task, task.verifier, ws, ran.answer ?? '', outDir, `${safe(task.name)}.${config.name}.${trial}`, signal) : await verify(task, ws, ran.answer ?? '', signal);
    return {
      ...result,
      status: verdict.passed ? 'passed' : 'failed',
      reward: verdict.reward,
      ...(verdict.judgeCostUsd !== undefined ? { judgeCostUsd: verdict.judgeCostUsd } : {}),
      ...(verdict.passed ? {} : { failure: 'verifier_failed' as const, note: verdict.note }),
      wallMs: Date.now() - started,
    };
  } catch (e) {
    return { ...base, status: 'failed', failure: 'error', note: (e as Error).message.split('\n')[0], wallMs: Date.now() - started };
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
}

interface Ran {
  answer?: string | undefined;
  failure?: FailureKind | undefined;
  note?: string | undefined;
  metrics?: Partial<TrialResult> | undefined;
}

/** Harbor's oracle agent: the task's solution, run in the sandbox in the trial's workspace. */
async function runOracle(task: EvalTask, ws: string, signal: AbortSignal): Promise<Ran> {
  if (!task.solution) return { failure: 'error', note: 'the task has no solution for the oracle agent' };
  let command: string;
  if ('dir' in task.solution) {
    cpSync(task.solution.dir, join(ws, VERIFY_DIR, 'solution'), { recursive: true });
    command = `bash ${VERIFY_DIR}/solution/solve.sh`;
  } else command = task.solution.command;
  const r = await sandboxed(command, ws, task.agentTimeoutSec, signal);
  rmSync(join(ws, VERIFY_DIR), { recursive: true, force: true });
  if (r.timedOut) return { failure: 'timeout', note: `the solution ran past ${task.agentTimeoutSec} s` };
  return { answer: r.output, ...(r.exitCode === 0 ? {} : { note: `solve exited ${r.exitCode}` }) };
}

/** The configuration's agent as `adk run` would run it in CI, its trajectory kept as ATIF. */
async function runAgent(task: EvalTask, config: EvalConfig, ws: string, trial: number, outDir: string, signal: AbortSignal): Promise<Ran> {
  const rel = join('trajectories', config.name, `${safe(task.name)}.${trial}.json`);
  mkdirSync(join(outDir, 'trajectories', config.name), { recursive: true });
  const args = [
    ownBin(),
    'run',
    '--json',
    '--permission-mode',
    'accept-edits',
    '--on-approval',
    'deny',
    '--max-time',
    `${Math.ceil(task.agentTimeoutSec)}s`,
    '--trajectory',
    join(outDir, rel),
    ...(config.agentsFile ? ['--agents', config.agentsFile] : []),
    ...(config.agent ? ['--agent', config.agent] : []),
    ...config.budgetFlags,
    // Integrity: the task's own pages (its tests and solution are there) are not fetched.
    ...task.sourceUrls.flatMap((u) => ['--deny', `fetch_url(${u.replace(/\/+$/, '')}*)`]),
    '--',
    task.instruction,
  ];
  const out = await child(process.execPath, args, ws, (task.agentTimeoutSec + 30) * 1000, signal);
  const lines = out.stdout.split('\n').flatMap((l) => {
    try {
      return [JSON.parse(l) as Record<string, unknown>];
    } catch {
      return [];
    }
  });
  const done = lines.findLast((l) => l.type === 'done');
  const metrics: Partial<TrialResult> = { ...trajectoryMetrics(join(outDir, rel)), ...(existsSync(join(outDir, rel)) ? { trajectory: rel } : {}), ...(typeof done?.sessionId === 'string' ? { sessionId: done.sessionId } : {}) };
  if (out.timedOut) return { failure: 'timeout', note: `the agent ran past ${task.agentTimeoutSec} s`, metrics };
  if (!done) return { failure: 'error', note: lastLine(out.stderr) || `adk run exited ${out.code} without finishing`, metrics };
  // The task's time limit is the run's --max-time: reaching it is a timeout, not a budget of the configuration's.
  if (done.status === 'incomplete' && done.reason === 'budget') return { failure: /max_time/.test(out.stderr) ? 'timeout' : 'budget', note: lastLine(out.stderr), metrics };
  if (done.status === 'incomplete' && done.reason === 'approval_needed') return { failure: 'refused', note: lastLine(out.stderr), metrics };
  if (done.status !== 'completed') return { failure: 'error', note: lastLine(out.stderr) || `the run ended ${String(done.status)}`, metrics };
  return { answer: typeof done.output === 'string' ? done.output : '', metrics };
}

/** Counts and cost from the trial's ATIF trajectory (what the run spent, as it recorded it). */
function trajectoryMetrics(file: string): Partial<TrialResult> {
  if (!existsSync(file)) return {};
  const t = JSON.parse(readFileSync(file, 'utf8')) as { steps?: Array<{ source?: string; tool_calls?: unknown[]; metrics?: { prompt_tokens?: number; completion_tokens?: number; cost_usd?: number } }>; final_metrics?: { total_prompt_tokens?: number; total_completion_tokens?: number; total_cost_usd?: number } };
  const agentSteps = (t.steps ?? []).filter((s) => s.source === 'agent');
  return {
    modelCalls: agentSteps.length,
    toolCalls: agentSteps.reduce((n, s) => n + (s.tool_calls?.length ?? 0), 0),
    inputTokens: t.final_metrics?.total_prompt_tokens ?? 0,
    outputTokens: t.final_metrics?.total_completion_tokens ?? 0,
    costUsd: t.final_metrics?.total_cost_usd ?? 0,
  };
}

/**
 * The verifier, after the agent has stopped: Harbor's tests (copied in only now, run in the sandbox;
 * `TESTS_DIR` and `LOGS_DIR` say where they and `verifier/reward.txt` are), a check command, or the
 * answer matched against the expected pattern.
 */
async function verify(task: EvalTask, ws: string, answer: string, signal: AbortSignal): Promise<{ passed: boolean; reward: number; note?: string | undefined }> {
  const v = task.verifier!;
  if (v.kind === 'expect') {
    const passed = new RegExp(v.pattern).test(answer);
    return { passed, reward: passed ? 1 : 0, ...(passed ? {} : { note: `the answer does not match ${v.pattern}` }) };
  }
  let command = v.kind === 'check' ? v.command : '';
  if (v.kind === 'script') {
    rmSync(join(ws, VERIFY_DIR), { recursive: true, force: true });
    cpSync(v.testsDir, join(ws, VERIFY_DIR, 'tests'), { recursive: true });
    mkdirSync(join(ws, VERIFY_DIR, 'logs', 'verifier'), { recursive: true });
    command = `TESTS_DIR="$PWD/${VERIFY_DIR}/tests" LOGS_DIR="$PWD/${VERIFY_DIR}/logs" bash ${VERIFY_DIR}/tests/test.sh`;
  }
  const r = await sandboxed(command, ws, task.verifierTimeoutSec, signal);
  if (r.timedOut) return { passed: false, reward: 0, note: `the verifier ran past ${task.verifierTimeoutSec} s` };
  const rewardFile = join(ws, VERIFY_DIR, 'logs', 'verifier', 'reward.txt');
  const written = v.kind === 'script' && existsSync(rewardFile) ? Number(readFileSync(rewardFile, 'utf8').trim()) : undefined;
  const reward = written !== undefined && Number.isFinite(written) ? written : r.exitCode === 0 ? 1 : 0;
  const passed = reward >= 1;
  const why = written !== undefined ? `reward ${reward}` : `exit ${r.exitCode}`;
  return { passed, reward, ...(passed ? {} : { note: `${why}${lastLine(r.output) ? `: ${lastLine(r.output)}` : ''}` }) };
}

const JUDGE_TEAM = `version: 1
default: judge
agents:
  judge:
    description: Grades an agent's work against a rubric.
    instruction: You grade the work of another agent against a rubric. Answer PASS or FAIL on the first line, then say why in one line. Judge only by the rubric.
    tools: []
`;

/**
 * A model grades the trial (`judge: {rubric, model?}`): an `adk run` of a team with no tools, told
 * the task, the rubric, the agent's final answer and the files the trial left, answering PASS or
 * FAIL first. Its cost is the judge's, apart from the agent's.
 */
async function judge(task: EvalTask, v: Extract<NonNullable<EvalTask['verifier']>, { kind: 'judge' }>, ws: string, answer: string, outDir: string, name: string, signal: AbortSignal): Promise<{ passed: boolean; reward: number; note?: string | undefined; judgeCostUsd: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'adk-eval-judge-'));
  try {
    writeFileSync(join(dir, 'agents.yaml'), JUDGE_TEAM);
    const files = listFiles(ws).slice(0, 200);
    const prompt = [
      '# Task the agent was given',
      task.instruction.trim(),
      '# Rubric',
      v.rubric.trim(),
      "# The agent's final answer",
      answer.trim() || '(none)',
      '# Files in its workspace afterwards',
      files.length ? files.join('\n') : '(none)',
    ].join('\n\n');
    const traj = join(outDir, 'trajectories', 'judge', `${name}.json`);
    mkdirSync(join(outDir, 'trajectories', 'judge'), { recursive: true });
    const args = [ownBin(), 'run', '--json', '--agents', join(dir, 'agents.yaml'), '--trajectory', traj, ...(v.model ? ['--model', v.model] : []), '--', prompt];
    const out = await child(process.execPath, args, dir, task.verifierTimeoutSec * 1000, signal);
    const done = out.stdout.split('\n').flatMap((l) => {
      try {
        const e = JSON.parse(l) as Record<string, unknown>;
        return e.type === 'done' ? [e] : [];
      } catch {
        return [];
      }
    })[0];
    const cost = trajectoryMetrics(traj).costUsd ?? 0;
    const text = typeof done?.output === 'string' ? done.output.trim() : '';
    const passed = /^\W*PASS\b/i.test(text);
    return { passed, reward: passed ? 1 : 0, judgeCostUsd: cost, ...(passed ? {} : { note: `the judge: ${text.split('\n').slice(0, 2).join(' ').slice(0, 300) || lastLine(out.stderr) || 'no verdict'}` }) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function listFiles(root: string, rel = ''): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(root, rel), { withFileTypes: true })) {
    if (e.name === '.git' || e.name === 'node_modules' || e.name === VERIFY_DIR) continue;
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...listFiles(root, p));
    else out.push(p);
  }
  return out.sort();
}

/** A command in the shell's sandbox, in the trial's workspace (the workspace's code: never on the host). */
async function sandboxed(command: string, ws: string, timeoutSec: number, signal: AbortSignal): Promise<{ exitCode: number; output: string; timedOut: boolean }> {
  const sandbox = process.env.ADK_SHELL_SANDBOX === 'off' ? 'off' : 'auto';
  const r = await runShell(command, { workspaceRoot: ws, sandbox, timeoutMs: timeoutSec * 1000 }, signal);
  return { exitCode: r.exitCode ?? 1, output: r.output, timedOut: r.killed === 'timeout' };
}

function child(cmd: string, args: string[], cwd: string, timeoutMs: number, signal: AbortSignal): Promise<{ code: number | null; stdout: string; stderr: string; timedOut: boolean }> {
  if (signal.aborted) return Promise.resolve({ code: null, stdout: '', stderr: '', timedOut: false });
  return new Promise((resolve) => {
    // Its own process group: the terminal's Ctrl-C reaches adk eval alone, which then asks the run to stop once.
    const p = spawn(cmd, args, { cwd, env: process.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const group = (sig: NodeJS.Signals) => {
      try {
        process.kill(-p.pid!, sig);
      } catch {
        // already gone
      }
    };
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    p.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    p.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-8_000)));
    const stop = () => group('SIGINT');
    const timer = setTimeout(() => {
      timedOut = true;
      group('SIGKILL');
    }, timeoutMs);
    signal.addEventListener('abort', stop, { once: true });
    p.on('close', (code) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', stop);
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}

const lastLine = (s: string) => s.trim().split('\n').at(-1)?.replace(/^adk: /, '').slice(0, 300) ?? '';
const safe = (name: string) => name.replace(/[^A-Za-z0-9._-]+/g, '_');
