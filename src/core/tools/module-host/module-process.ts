import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { bwrapArgs, spawnSandboxed, type SandboxSpec } from '../sandbox/bwrap.js';
import { childBootSource, MODULE_DATA_ENV, MODULE_PINS_ENV } from './child-boot.js';
import type { PinnedFiles } from './pinned-code.js';

/** Where the checked copies of module code are shown inside the sandbox (read-only; /run is the sandbox's own). */
const PINS_IN_SANDBOX = '/run/adk-pinned';

/** Where a module tool's process runs: inside bwrap (its path and the sandbox's shape), or not. */
export interface ModuleSandbox {
  bwrap?: string | undefined;
  spec: SandboxSpec;
  /** The checked copies of the trusted code: what the process compiles for those paths. */
  pins?: PinnedFiles | undefined;
}

/** A module tool's own process, spoken to as a worker thread is: messages in, messages out. */
export interface ModuleProcess {
  postMessage(m: unknown): void;
  onMessage(f: (m: { type: string; id?: number } & Record<string, unknown>) => void): void;
  /** It ended (crashed, killed or exited); `stderr` is the end of what it printed. */
  onExit(f: (stderr: string) => void): void;
  /** Keeps adk's process alive while a call waits on it (or not). */
  ref(): void;
  unref(): void;
  terminate(): Promise<void>;
}

const STDERR_TAIL = 2_000;
/** After the process exits, what it wrote last is read for this long before its pipes are let go. */
const CLOSE_GRACE_MS = 200;

/**
 * Starts a module tool in a process of its own: inside bwrap when `sandbox.bwrap` is given (the
 * sandbox's pid namespace: no process holding a key, adk included, is there to read; the workspace
 * writable, home and ADK_HOME hidden), else as a plain child. Either way it sees only `env`.
 */
export function startModuleProcess(data: { file: string; exportName: string; zodUrl: string }, env: NodeJS.ProcessEnv, sandbox: ModuleSandbox): ModuleProcess {
  const source = childBootSource();
  const pins = sandbox.pins ? (sandbox.bwrap ? PINS_IN_SANDBOX : sandbox.pins.folder) : undefined;
  const spec = sandbox.pins && sandbox.bwrap ? { ...sandbox.spec, privateFolder: { from: sandbox.pins.folder, at: PINS_IN_SANDBOX } } : sandbox.spec;
  const childEnv: NodeJS.ProcessEnv = { ...env, [MODULE_DATA_ENV]: JSON.stringify(data), ...(pins ? { [MODULE_PINS_ENV]: pins } : {}), ADK_MODULE_NODE: process.execPath, ADK_MODULE_SOURCE: source };
  const options = { cwd: sandbox.spec.workspace, env: childEnv, detached: true, stdio: ['pipe', 'pipe', 'pipe'] as ['pipe', 'pipe', 'pipe'] };
  // The program and its source travel in the environment: nothing to quote on a command line.
  const command = 'NODE="$ADK_MODULE_NODE" SRC="$ADK_MODULE_SOURCE"; unset ADK_MODULE_NODE ADK_MODULE_SOURCE; exec "$NODE" -e "$SRC"';
  const child: ChildProcess = sandbox.bwrap
    ? (spawnSandboxed(sandbox.bwrap, bwrapArgs(spec, command, env), options) as unknown as ChildProcess)
    : spawn('/bin/sh', ['-c', command], options);
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-STDERR_TAIL)));
  child.stdin!.on('error', () => {});
  const lines = createInterface({ input: child.stdout! });
  const pipes = [child.stdin, child.stdout, child.stderr] as Array<{ ref?(): void; unref?(): void; destroy?(): void } | null>;
  const ref = () => {
    child.ref();
    for (const p of pipes) p?.ref?.();
  };
  // Ended: when the process exits (or cannot start: EAGAIN, ENOMEM), not when its pipes close, which
  // something it started and left running could hold for ever. Its group goes with it, and its copies.
  const ended = new Promise<void>((resolve) => {
    let done = false;
    const end = () => {
      if (done) return;
      done = true;
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is gone already
      }
      sandbox.pins?.release();
      // What it wrote just before exiting is still read; then the pipes are let go.
      const drained = setTimeout(() => {
        for (const p of pipes) p?.destroy?.();
        resolve();
      }, CLOSE_GRACE_MS);
      child.once('close', () => {
        clearTimeout(drained);
        resolve();
      });
    };
    child.once('exit', end);
    child.once('error', (e) => {
      stderr += `\n${e.message}`;
      end();
    });
  });
  return {
    postMessage: (m) => void child.stdin!.write(`${JSON.stringify(m)}\n`),
    onMessage: (f) =>
      void lines.on('line', (line) => {
        try {
          f(JSON.parse(line) as never);
        } catch {
          // not a message (cannot happen: the module's output goes to stderr)
        }
      }),
    onExit: (f) => void ended.then(() => f(stderr.trim())),
    ref,
    unref: () => {
      child.unref();
      for (const p of pipes) p?.unref?.();
    },
    terminate: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return void (await ended);
      // Waited for with the process held: an idle, unref'd child would otherwise let adk exit mid-close (with exit code 0).
      ref();
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
      await ended;
    },
  };
}
