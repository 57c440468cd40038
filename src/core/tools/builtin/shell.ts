import { spawn } from 'node:child_process';
import { outputTail, type ToolOutputEvent } from './tool-output.js';
import { JOB_ENV, killJob, newJobMark, reapOrphanedJobs, trackProcessGroup } from './process-group.js';
import { realpath } from 'node:fs/promises';
import { constants } from 'node:os';
import * as z from 'zod';
import { bwrapArgs, sandboxStatus, spawnSandboxed, type SandboxMode } from '../sandbox/bwrap.js';
import type { Tool, ToolContext } from '../tool.js';
import { editorAccess, type EditorAccess } from '../editor-access.js';
import { OutputCapture } from './output-capture.js';
import type { ShellJobs } from './shell-jobs.js';
import type { RunningShell, ShellResult } from './running-shell.js';

export type { RunningShell, ShellResult } from './running-shell.js';

export const DEFAULT_SHELL_TIMEOUT_MS = 60_000;
export const SHELL_MAX_OUTPUT_CHARS = 30_000;
/** After the shell exits, background children may still hold the pipes; we stop waiting after this. */
const DRAIN_MS = 200;

export interface ShellToolOptions {
  workspaceRoot: string;
  timeoutMs?: number | undefined;
  maxOutputChars?: number | undefined;
  /** Names of further environment variables commands may see (beyond SHELL_BASE_ENV). */
  env?: readonly string[] | undefined;
  /** `auto` (default): inside bwrap when it works here; `off`: never. */
  sandbox?: SandboxMode | undefined;
  /** Whether sandboxed commands may use the network (default: no). */
  network?: boolean | undefined;
  /** Paths outside the workspace that sandboxed commands may read (the rest of $HOME is hidden). */
  readPaths?: readonly string[] | undefined;
  /** Where commands the person moves to the background (Ctrl-B) go on running; without it they cannot be. */
  jobs?: ShellJobs | undefined;
}

const parameters = z.object({
  command: z.string().min(1).describe('The command line, run with /bin/sh -c in the workspace root'),
});


/**
 * `shell`. Approval is not decided here: the agent's `approval` list stops the run before this
 * executes (see DEFAULT_APPROVAL_TOOLS), and nothing in the arguments can skip that.
 */
export function shellTool(options: ShellToolOptions): Tool<z.infer<typeof parameters>> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_SHELL_TIMEOUT_MS;
  let toldUnsandboxed = false;
  return {
    name: 'shell',
    description: `Run a shell command (/bin/sh -c) in the workspace root. Stdin is closed; stdout and stderr are returned together (capped at ${options.maxOutputChars ?? SHELL_MAX_OUTPUT_CHARS} characters) with the exit code. Times out after ${Math.round(timeoutMs / 1000)} s.`,
    parameters,
    // Leave room for our own timeout to kill the process group and report it.
    timeoutMs: timeoutMs + 5_000,
    async execute({ command }, ctx) {
      // The last lines so far, for whoever shows the running call (the REPL's row).
      const notify = (event: Omit<ToolOutputEvent, 'type' | 'callId'>) => ctx.emit({ agentName: ctx.agentName, runPath: [], output: { custom: { type: 'tool_output', callId: ctx.callId, ...event } satisfies ToolOutputEvent } });
      const editor = editorAccess(ctx.options)?.runCommand;
      if (editor && !(await runsSandboxed(options))) return runInEditor(editor, command, options, timeoutMs, ctx);
      const live = outputTail((tail) => notify({ tail }));
      const shell = await startShell(command, { ...options, timeoutMs }, ctx.signal, (chunk) => live.append(chunk));
      const moved = options.jobs?.watch(ctx.callId, shell);
      // Only now would Ctrl-B find the command: the REPL offers it from this notice, not from the call's row.
      if (moved) notify({ tail: '', background: true });
      const outcome = await (moved ? Promise.race([shell.result, moved]) : shell.result);
      options.jobs?.unwatch(ctx.callId);
      live.flush();
      if (typeof outcome === 'string') {
        const soFar = shell.output().replace(/\n$/, '');
        return `${soFar || '(no output yet)'}\n[The person moved this command to the background as job ${outcome}; it is still running. Read its further output and exit code with shell_output {"job": "${outcome}"}; stop it with shell_output {"job": "${outcome}", "stop": true}.]`;
      }
      const r = outcome;
      let status = `exit code: ${r.exitCode}`;
      if (r.killed === 'timeout') status += ` (killed after the ${formatSeconds(timeoutMs)} timeout)`;
      if (r.killed === 'cancelled') status += ' (killed: the run was cancelled)';
      // Said once per tool: the person should know commands are not contained, without a note on every result.
      if (r.unsandboxed && !toldUnsandboxed) {
        toldUnsandboxed = true;
        status += `\n[adk: shell commands run without a sandbox: ${r.unsandboxed}. Set "sandbox: off" in the shell's options to say this is intended.]`;
      }
      return { content: `${r.output || '(no output)'}\n${status}`, isError: r.killed !== undefined };
    },
  };
}

/** Whether startShell would put the command inside bwrap. */
async function runsSandboxed(options: ShellToolOptions): Promise<boolean> {
  return (options.sandbox ?? 'auto') !== 'off' && !!(await sandboxStatus(process.env, options.workspaceRoot)).bwrap;
}

/**
 * An unsandboxed command in the editor's terminal (`adk acp` with a client that offers terminals):
 * the person watches it there. Same environment, timeout and result text as a local run.
 */
async function runInEditor(run: NonNullable<EditorAccess['runCommand']>, command: string, options: ShellToolOptions, timeoutMs: number, ctx: ToolContext) {
  const timeout = AbortSignal.timeout(timeoutMs);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(shellEnvironment(process.env, options.env))) if (v !== undefined) env[k] = v;
  const r = await run({ command, cwd: options.workspaceRoot, callId: ctx.callId, env, outputByteLimit: options.maxOutputChars ?? SHELL_MAX_OUTPUT_CHARS, signal: AbortSignal.any([ctx.signal, timeout]) });
  let status = `exit code: ${r.exitCode ?? `none (signal ${r.signal ?? 'unknown'})`}`;
  if (timeout.aborted) status += ` (killed after the ${formatSeconds(timeoutMs)} timeout)`;
  else if (ctx.signal.aborted) status += ' (killed: the run was cancelled)';
  const output = r.truncated ? `[earlier output cut]\n${r.output}` : r.output;
  return { content: `${output.replace(/\n$/, '') || '(no output)'}\n${status}`, isError: timeout.aborted || ctx.signal.aborted };
}

/**
 * Runs `command` in its own process group, so a timeout or cancel kills everything it started;
 * inside bwrap unless the sandbox is off or cannot work here.
 */
export async function runShell(command: string, options: ShellToolOptions, signal?: AbortSignal, onOutput?: (chunk: string) => void): Promise<ShellResult> {
  return (await startShell(command, options, signal, onOutput)).result;
}

/** Starts `command` as runShell does and hands back the running process (see RunningShell). */
export async function startShell(command: string, options: ShellToolOptions, signal?: AbortSignal, onOutput?: (chunk: string) => void): Promise<RunningShell> {
  const out = new OutputCapture(options.maxOutputChars ?? SHELL_MAX_OUTPUT_CHARS);
  let argv = ['/bin/sh', '-c', command];
  let sandboxed = false;
  let unsandboxed: string | undefined;
  if ((options.sandbox ?? 'auto') !== 'off') {
    const status = await sandboxStatus(process.env, options.workspaceRoot);
    if (status.bwrap) {
      const spec = { workspace: await realpath(options.workspaceRoot), network: options.network ?? false, readPaths: options.readPaths, hidden: process.env.ADK_HOME ? [process.env.ADK_HOME] : [] };
      argv = [status.bwrap, ...bwrapArgs(spec, command)];
      sandboxed = true;
    } else unsandboxed = status.reason;
  }
  let release = () => {};
  let kill = () => {};
  reapOnce();
  const mark = newJobMark();
  const result = new Promise<ShellResult>((resolve) => {
    let killed: ShellResult['killed'];
    const spawnOptions = { cwd: options.workspaceRoot, env: { ...shellEnvironment(process.env, options.env), [JOB_ENV]: mark }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] as ['ignore', 'pipe', 'pipe'] };
    const child = sandboxed ? spawnSandboxed(argv[0], argv.slice(1), spawnOptions) : spawn(argv[0], argv.slice(1), spawnOptions);
    trackProcessGroup(child, mark);
    const killGroup = (why: NonNullable<ShellResult['killed']>) => {
      killed ??= why;
      killJob(child.pid, mark);
    };
    const timer = setTimeout(() => killGroup('timeout'), options.timeoutMs ?? DEFAULT_SHELL_TIMEOUT_MS);
    const onAbort = () => killGroup('cancelled');
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    release = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    kill = () => killGroup('stopped');

    for (const stream of [child.stdout, child.stderr]) {
      stream.setEncoding('utf8');
      stream.on('data', (s: string) => {
        out.append(s);
        onOutput?.(s);
      });
    }
    let settled = false;
    const finish = (exitCode: number) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      // What it left behind ends with it, as in the sandbox (whose pid namespace ends with the command).
      killJob(child.pid, mark);
      child.stdout.destroy();
      child.stderr.destroy();
      resolve({ output: out.toString().replace(/\n$/, ''), exitCode, ...(killed ? { killed } : {}), ...(unsandboxed ? { unsandboxed } : {}) });
    };
    child.on('error', (e) => {
      out.append(`failed to start ${argv[0]}: ${e.message}`);
      finish(127);
    });
    child.on('exit', (code, sig) => {
      const exitCode = code ?? 128 + (sig ? (constants.signals[sig] ?? 0) : 0);
      // Let buffered output arrive; don't wait for background children holding the pipes.
      const drain = setTimeout(() => finish(exitCode), DRAIN_MS);
      child.on('close', () => {
        clearTimeout(drain);
        finish(exitCode);
      });
    });
  });
  return { command, result, output: () => out.toString(), release: () => release(), kill: () => kill() };
}

let reaped = false;
/** Once per process: commands a SIGKILLed adk (a worker killed mid-command) left running are ended. */
function reapOnce(): void {
  if (reaped) return;
  reaped = true;
  reapOrphanedJobs();
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** What every command sees of adk's environment: enough to find programs and format text, no credentials. */
export const SHELL_BASE_ENV = ['PATH', 'HOME', 'LANG', 'LANGUAGE', 'LC_ALL', 'LC_CTYPE', 'LC_MESSAGES', 'TERM', 'USER', 'LOGNAME', 'SHELL', 'TMPDIR', 'TZ'];

/**
 * The environment of the commands a model runs: an allow-list (SHELL_BASE_ENV plus the names the
 * person listed), never the rest. Tokens such as GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY or
 * ANTHROPIC_AUTH_TOKEN would otherwise be one `env` away from the transcript and the model.
 */
export function shellEnvironment(env: NodeJS.ProcessEnv, extra: readonly string[] = []): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const name of [...SHELL_BASE_ENV, ...extra]) if (env[name] !== undefined) out[name] = env[name];
  return out;
}
