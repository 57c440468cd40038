import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('./pty-run.py', import.meta.url));

export interface PtyResult {
  /** What the process drew. */
  output: string;
  /** Its exit code; null when it was still running (then killed). */
  exit: number | null;
  /** From the Ctrl-C to the exit, when one was typed and the process ended. */
  ctrlCToExitMs: number | null;
}

/**
 * Runs `command` in a 30×100 pseudo-terminal (python's pty) until `until` shows, or types Ctrl-C
 * once `ctrlC` shows, or closes the terminal (SIGHUP) once `hangup` shows or `hangupFile` exists. Asynchronous, so a model server in the test's own process keeps answering.
 */
export function runInPty(command: string[], env: NodeJS.ProcessEnv, opts: { until?: string; ctrlC?: string; hangup?: string; hangupFile?: string; timeoutS?: number } = {}): Promise<PtyResult> {
  const args = [SCRIPT, JSON.stringify({ until: opts.until, ctrlC: opts.ctrlC, hangup: opts.hangup, hangupFile: opts.hangupFile, timeout: opts.timeoutS ?? 10 }), ...command];
  return new Promise((resolve, reject) => {
    const child = spawn('python3', args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as PtyResult) : reject(new Error(`pty-run failed: ${err}`))));
  });
}
