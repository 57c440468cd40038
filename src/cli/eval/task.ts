import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { parse as parseYaml } from 'yaml';

/** How a trial is scored once the agent has stopped. */
export type Verifier =
  /** Harbor's `tests/test.sh`: the reward it writes (`reward.txt`), else its exit code. */
  | { kind: 'script'; testsDir: string }
  /** adk's light form: a command that passes with exit code 0. */
  | { kind: 'check'; command: string }
  /** adk's light form: a pattern the agent's final answer must match. */
  | { kind: 'expect'; pattern: string }
  /** adk's light form: a model grades the answer and the files against a rubric (its cost counted apart). */
  | { kind: 'judge'; rubric: string; model?: string | undefined };

/** One task: a Harbor task folder (Terminal-Bench 2.x) or adk's light `eval.yaml`. */
export interface EvalTask {
  name: string;
  dir: string;
  format: 'harbor' | 'light';
  instruction: string;
  /** The folder whose files a trial starts from (copied); undefined: an empty folder. */
  workspace?: string | undefined;
  verifier?: Verifier | undefined;
  /** What the oracle agent runs: Harbor's `solution/` folder (`solve.sh`), or the light form's command. */
  solution?: { dir: string } | { command: string } | undefined;
  agentTimeoutSec: number;
  verifierTimeoutSec: number;
  /** The task's environment is its Dockerfile (Terminal-Bench): it runs only with a container engine. */
  needsDocker: boolean;
  /**
   * Where the task comes from on the web (every http(s) URL in Harbor's `[metadata]`, and
   * `source_urls`): the agent's fetch_url is refused them and anything under them during a trial.
   */
  sourceUrls: string[];
  /** Why the task cannot run, as the person should fix it (empty: it can). */
  problems: string[];
}

/** Every http(s) URL among a table's values, nested tables and lists included. */
function urlsIn(v: unknown): string[] {
  if (typeof v === 'string') return /^https?:\/\/\S+$/i.test(v.trim()) ? [v.trim()] : [];
  if (Array.isArray(v)) return v.flatMap(urlsIn);
  if (v && typeof v === 'object') return Object.values(v).flatMap(urlsIn);
  return [];
}

const DEFAULT_AGENT_TIMEOUT_SEC = 600;
const DEFAULT_VERIFIER_TIMEOUT_SEC = 120;

/** The tasks at these paths: each a task folder, or a folder of task folders (sorted by name). */
export function findTasks(paths: readonly string[]): EvalTask[] {
  const out: EvalTask[] = [];
  for (const p of paths) {
    const dir = resolve(p);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) {
      out.push(broken(dir, `${p} is not a folder`));
      continue;
    }
    if (isTask(dir)) out.push(loadTask(dir));
    else {
      const inner = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory() && isTask(join(dir, e.name))).map((e) => join(dir, e.name)).sort();
      if (!inner.length) out.push(broken(dir, `${p} holds no task (a folder with task.toml and instruction.md, or eval.yaml)`));
      for (const t of inner) out.push(loadTask(t));
    }
  }
  // Names key the results and the trajectories: two tasks of one name would overwrite each other.
  const seen = new Map<string, number>();
  for (const t of out) {
    const n = (seen.get(t.name) ?? 0) + 1;
    seen.set(t.name, n);
    if (n > 1) t.name = `${t.name}-${n}`;
  }
  return out;
}

const isTask = (dir: string) => existsSync(join(dir, 'eval.yaml')) || (existsSync(join(dir, 'task.toml')) && existsSync(join(dir, 'instruction.md')));

export function loadTask(dir: string): EvalTask {
  try {
    return existsSync(join(dir, 'eval.yaml')) ? lightTask(dir) : harborTask(dir);
  } catch (e) {
    return broken(dir, (e as Error).message);
  }
}

/**
 * A Harbor task: `instruction.md`, `task.toml` (`[agent] timeout_sec`, `[verifier] timeout_sec`),
 * `environment/Dockerfile`, `tests/test.sh`, optional `solution/solve.sh`. Its environment is a
 * container image, so it needs Docker, unless its task.toml says `[metadata.adk] no_docker = true`:
 * then a trial starts from the files of `environment/workspace/` on this machine.
 */
function harborTask(dir: string): EvalTask {
  const problems: string[] = [];
  const tomlFile = join(dir, 'task.toml');
  let toml: Record<string, unknown> = {};
  try {
    toml = parseToml(readFileSync(tomlFile, 'utf8')) as Record<string, unknown>;
  } catch (e) {
    const err = e as Error & { line?: number; column?: number };
    problems.push(`${tomlFile}${err.line ? `:${err.line}:${err.column ?? 1}` : ''}: ${err.message.split('\n')[0]}`);
  }
  const section = (k: string) => (toml[k] && typeof toml[k] === 'object' ? (toml[k] as Record<string, unknown>) : {});
  const adk = section('metadata').adk && typeof section('metadata').adk === 'object' ? (section('metadata').adk as Record<string, unknown>) : {};
  const noDocker = adk.no_docker === true;
  if (!existsSync(join(dir, 'tests', 'test.sh'))) problems.push(`${join(dir, 'tests', 'test.sh')} is missing: the verifier Harbor runs`);
  if (!noDocker && !existsSync(join(dir, 'environment', 'Dockerfile')) && !existsSync(join(dir, 'environment', 'docker-compose.yaml'))) problems.push(`${join(dir, 'environment')} has no Dockerfile`);
  const workspace = join(dir, 'environment', 'workspace');
  return {
    name: typeof section('task').name === 'string' ? String(section('task').name) : basename(dir),
    dir,
    format: 'harbor',
    instruction: readFileSync(join(dir, 'instruction.md'), 'utf8'),
    ...(noDocker && existsSync(workspace) ? { workspace } : {}),
    verifier: { kind: 'script', testsDir: join(dir, 'tests') },
    ...(existsSync(join(dir, 'solution')) ? { solution: { dir: join(dir, 'solution') } } : {}),
    agentTimeoutSec: seconds(section('agent').timeout_sec, DEFAULT_AGENT_TIMEOUT_SEC),
    verifierTimeoutSec: seconds(section('verifier').timeout_sec, DEFAULT_VERIFIER_TIMEOUT_SEC),
    needsDocker: !noDocker,
    sourceUrls: [...new Set(urlsIn(section('metadata')))],
    problems,
  };
}

/**
 * adk's light form, `eval.yaml`: `instruction`, optional `workspace` (a folder beside it), and one
 * of `check` (a command, exit 0 passes) or `expect` (a pattern the final answer matches);
 * `solution` (a command) for the oracle; `timeout_sec`.
 */
function lightTask(dir: string): EvalTask {
  const file = join(dir, 'eval.yaml');
  const y = (parseYaml(readFileSync(file, 'utf8')) ?? {}) as Record<string, unknown>;
  const problems: string[] = [];
  const known = new Set(['name', 'instruction', 'workspace', 'check', 'expect', 'judge', 'solution', 'timeout_sec', 'verifier_timeout_sec', 'source_urls']);
  for (const k of Object.keys(y)) if (!known.has(k)) problems.push(`${file}: unknown key '${k}' (known: ${[...known].join(', ')})`);
  if (typeof y.instruction !== 'string' || !y.instruction.trim()) problems.push(`${file}: instruction is missing`);
  const judge = y.judge && typeof y.judge === 'object' ? (y.judge as { rubric?: unknown; model?: unknown }) : undefined;
  const verifier: Verifier | undefined =
    typeof y.check === 'string'
      ? { kind: 'check', command: y.check }
      : typeof y.expect === 'string'
        ? { kind: 'expect', pattern: y.expect }
        : judge && typeof judge.rubric === 'string' && judge.rubric.trim()
          ? { kind: 'judge', rubric: judge.rubric, ...(typeof judge.model === 'string' ? { model: judge.model } : {}) }
          : undefined;
  if (!verifier) problems.push(`${file}: give check (a command that passes), expect (a pattern the answer matches) or judge: {rubric, model?}`);
  if (verifier?.kind === 'expect') {
    try {
      new RegExp(verifier.pattern);
    } catch (e) {
      problems.push(`${file}: expect is not a pattern: ${(e as Error).message}`);
    }
  }
  const workspace = typeof y.workspace === 'string' ? resolve(dir, y.workspace) : undefined;
  if (workspace && !existsSync(workspace)) problems.push(`${file}: workspace ${y.workspace} does not exist`);
  return {
    name: typeof y.name === 'string' ? y.name : basename(dir),
    dir,
    format: 'light',
    instruction: typeof y.instruction === 'string' ? y.instruction : '',
    ...(workspace ? { workspace } : {}),
    ...(verifier ? { verifier } : {}),
    ...(typeof y.solution === 'string' ? { solution: { command: y.solution } } : {}),
    agentTimeoutSec: seconds(y.timeout_sec, DEFAULT_AGENT_TIMEOUT_SEC),
    verifierTimeoutSec: seconds(y.verifier_timeout_sec, DEFAULT_VERIFIER_TIMEOUT_SEC),
    needsDocker: false,
    sourceUrls: [...new Set(urlsIn(y.source_urls))],
    problems,
  };
}

function seconds(v: unknown, fallback: number): number {
  return typeof v === 'number' && v > 0 ? v : fallback;
}

function broken(dir: string, problem: string): EvalTask {
  return { name: basename(dir), dir, format: 'harbor', instruction: '', agentTimeoutSec: 0, verifierTimeoutSec: 0, needsDocker: false, sourceUrls: [], problems: [problem] };
}
