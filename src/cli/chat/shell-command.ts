import { spawn } from 'node:child_process';
import { shellEnvironment } from '../../core/tools/builtin/shell.js';
import { killProcessGroup, trackProcessGroup } from '../../core/tools/builtin/process-group.js';

/** Output kept of a `!command` (shown and added to the context): its head and tail. */
export const SHELL_OUTPUT_MAX_CHARS = 30_000;

export interface ShellResult {
  output: string;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * Runs a command the person typed after `!`: no approval (they typed it), in the workspace, with the
 * shell tool's allow-listed environment (never API keys or tokens). Stdout and stderr interleaved as
 * they come; stopping the signal kills the whole process group.
 */
export function runShellCommand(command: string, cwd: string, signal: AbortSignal, env: NodeJS.ProcessEnv = process.env): Promise<ShellResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], { cwd, env: shellEnvironment(env), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let dropped = 0;
    const take = (d: Buffer) => {
      const text = d.toString('utf8');
      // Head and tail: the middle of a huge output is dropped as it streams.
      if (out.length + text.length <= SHELL_OUTPUT_MAX_CHARS) out += text;
      else {
        const keep = SHELL_OUTPUT_MAX_CHARS / 2;
        const all = out + text;
        dropped += all.length - SHELL_OUTPUT_MAX_CHARS;
        out = all.slice(0, keep) + all.slice(all.length - keep);
      }
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    trackProcessGroup(child);
    const kill = () => killProcessGroup(child.pid);
    signal.addEventListener('abort', kill, { once: true });
    child.on('error', (e) => {
      signal.removeEventListener('abort', kill);
      reject(e);
    });
    child.on('close', (exitCode, sig) => {
      signal.removeEventListener('abort', kill);
      const half = SHELL_OUTPUT_MAX_CHARS / 2;
      const output = dropped ? `${out.slice(0, half)}\n… ${dropped} characters not shown …\n${out.slice(half)}` : out;
      resolve({ output, exitCode, signal: sig });
    });
  });
}

/** What the model is told of a `!command` the person ran (a user message in the conversation). */
export function shellContext(command: string, r: ShellResult): string {
  const status = r.signal ? `stopped (${r.signal})` : `exit code ${r.exitCode}`;
  return `I ran this shell command myself (${status}):\n$ ${command}\n${r.output.trimEnd() || '(no output)'}`;
}
