import { ConfigError } from '../errors.js';
import type { ConfigProblem, SourcePos } from './types.js';

export type PathSeg = string | number;

const PLAIN_KEY = /^[A-Za-z0-9_-]+$/;

/** `agents.coder.tools[2]`; keys that are not plain words are quoted: `env["A.B"]`. */
export function joinPath(parent: string, seg: PathSeg): string {
  if (typeof seg === 'number') return `${parent}[${seg}]`;
  if (!PLAIN_KEY.test(seg)) return `${parent}[${JSON.stringify(seg)}]`;
  return parent === '' ? seg : `${parent}.${seg}`;
}

export function formatPath(segs: readonly PathSeg[]): string {
  let out = '';
  for (const s of segs) out = joinPath(out, s);
  return out;
}

/** Where each path's key and value start in the source. */
export interface NodePos {
  key?: SourcePos | undefined;
  value: SourcePos;
}
export type PositionMap = Map<string, NodePos>;

export interface ReportOptions {
  hint?: string | undefined;
  /** Point at the key instead of the value (unknown keys, duplicates). */
  at?: 'key' | 'value' | undefined;
  /** Explicit position, e.g. inside a string for `${VAR}`. */
  pos?: SourcePos | undefined;
}

/** Collects problems and resolves their positions from the path (falling back to ancestors). */
export class ProblemCollector {
  readonly problems: ConfigProblem[] = [];

  constructor(
    readonly file: string,
    private readonly positions: PositionMap,
  ) {}

  private readonly suppressed = new Set<string>();

  /** Reports unless the path (or an ancestor) already has a problem that would only be repeated. */
  report(path: readonly PathSeg[], message: string, opts: ReportOptions = {}): void {
    if (this.suppressed.size > 0) {
      for (let n = path.length; n > 0; n--) if (this.suppressed.has(formatPath(path.slice(0, n)))) return;
    }
    this.reportAt(formatPath(path), message, { ...opts, pos: opts.pos ?? this.locate(path, opts.at ?? 'value') });
  }

  /** Reports at a formatted path, never suppressed. */
  reportAt(path: string, message: string, opts: ReportOptions = {}): void {
    const pos = opts.pos ?? this.positions.get(path)?.value ?? { line: 1, col: 1 };
    const problem: ConfigProblem = { file: this.file, line: pos.line, col: pos.col, path, message };
    if (opts.hint) problem.hint = opts.hint;
    this.problems.push(problem);
  }

  /** Later `report`s at or below this path are dropped (its value is known to be wrong already). */
  suppress(path: string): void {
    if (path !== '') this.suppressed.add(path);
  }

  get count(): number {
    return this.problems.length;
  }

  /** Position of `path`, or of its nearest ancestor that exists (e.g. for a missing key). */
  locate(path: readonly PathSeg[], at: 'key' | 'value' = 'value'): SourcePos {
    for (let n = path.length; n >= 0; n--) {
      const found = this.positions.get(formatPath(path.slice(0, n)));
      if (!found) continue;
      if (n === path.length) return (at === 'key' && found.key) || found.value;
      return found.key ?? found.value;
    }
    return { line: 1, col: 1 };
  }

  sorted(): ConfigProblem[] {
    return this.problems
      .map((p, i) => ({ p, i }))
      .sort((a, b) => a.p.line - b.p.line || a.p.col - b.p.col || a.i - b.i)
      .map((x) => x.p);
  }
}

/** `agents.yaml:12:7 agents.coder.tools[2]: unknown tool 'shel' (did you mean 'shell'?)` */
export function formatProblem(p: ConfigProblem): string {
  const where = p.line > 0 ? `${p.file}:${p.line}:${p.col}` : p.file;
  const head = p.path ? `${where} ${p.path}: ${p.message}` : `${where}: ${p.message}`;
  return p.hint ? `${head}\n  hint: ${p.hint}` : head;
}

/** Every problem formatted by formatProblem, one after another on separate lines. */
export function formatProblems(problems: readonly ConfigProblem[]): string {
  return problems.map(formatProblem).join('\n');
}

/** A configuration that does not validate. `message` lists every problem. */
export class ConfigValidationError extends ConfigError {
  constructor(readonly problems: ConfigProblem[]) {
    const n = problems.length;
    super(`${n} problem${n === 1 ? '' : 's'} in ${problems[0]?.file ?? 'agents.yaml'}:\n${formatProblems(problems)}`);
  }
}
