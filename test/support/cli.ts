import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ADK_BIN = fileURLToPath(new URL('../../bin/adk.js', import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON Lines (non-JSON lines are kept as strings). */
  lines: any[];
}

export interface CliOptions {
  env?: Record<string, string | undefined>;
  input?: string | Buffer;
  cwd?: string;
  /** Called for each complete stdout line as it arrives. */
  onLine?: (line: string, child: ChildProcess) => void;
  timeoutMs?: number;
}

/** A fresh ADK_HOME so tests never touch the user's sessions. */
export const tempHome = () => mkdtempSync(join(tmpdir(), 'adk-test-home-'));

/** Runs the built CLI (`bin/adk.js`, which needs `npm run build`) as a real child process. */
export function runCli(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, ADK_HOME: tempHome(), ...opts.env })) if (v !== undefined) env[k] = v;
  // Never let a developer's real key reach a test.
  if (!opts.env || !('OPENAI_API_KEY' in opts.env)) delete env.OPENAI_API_KEY;
  if (!opts.env || !('OPENAI_BASE_URL' in opts.env)) delete env.OPENAI_BASE_URL;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [ADK_BIN, ...args], { env, cwd: opts.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let pending = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`adk ${args.join(' ')} timed out; stdout so far:\n${stdout}\nstderr:\n${stderr}`));
    }, opts.timeoutMs ?? 20_000);
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      pending += d;
      let nl: number;
      while ((nl = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        opts.onLine?.(line, child);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, lines: jsonLines(stdout) });
    });
    if (opts.input !== undefined) child.stdin.end(opts.input);
    else child.stdin.end();
  });
}

/** Parses JSON Lines, keeping non-JSON lines as strings. */
export function jsonLines(stdout: string): any[] {
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      try {
        return JSON.parse(l);
      } catch {
        return l;
      }
    });
}

/**
 * Allows tools without asking in one project folder, as `adk config set allow …` run there would
 * (the settings file under `home`). For tests whose subject is not the approval of file writes.
 */
export function allowInProject(home: string, workspace: string, rules: string[]): void {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  writeFileSync(join(home, 'config.json'), JSON.stringify({ projects: { [realpathSync(workspace)]: { allow: rules } } }), { mode: 0o600 });
}
