import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The shell's sandbox on Linux: bubblewrap (Debian `bubblewrap`). The command sees the whole file
 * system read-only, the workspace read-write, a private /tmp, fresh /dev and /proc, its own pid,
 * IPC and UTS namespaces, and no network unless the agent allows it. It dies with adk.
 */

export type SandboxMode = 'auto' | 'off';

export interface SandboxStatus {
  /** Absolute path of a bwrap that works here, when there is one. */
  bwrap?: string | undefined;
  /** Why commands run unsandboxed (no bwrap, or the kernel refuses it a namespace). */
  reason?: string | undefined;
}

export interface SandboxSpec {
  bwrap: string;
  workspace: string;
  network: boolean;
}

/** bwrap's arguments to run `/bin/sh -c command` in the workspace. Order matters: later mounts go over earlier ones. */
export function bwrapArgs(spec: SandboxSpec, command: string): string[] {
  return [
    '--ro-bind', '/', '/',
    '--dev', '/dev',
    '--proc', '/proc',
    '--tmpfs', '/tmp',
    '--bind', spec.workspace, spec.workspace,
    '--unshare-all',
    ...(spec.network ? ['--share-net'] : []),
    '--die-with-parent',
    // Its own session: no controlling terminal to push keystrokes into (TIOCSTI).
    '--new-session',
    '--setenv', 'TMPDIR', '/tmp',
    '--chdir', spec.workspace,
    '--', '/bin/sh', '-c', command,
  ];
}

let cached: Promise<SandboxStatus> | undefined;
let cachedFor: string | undefined;

/**
 * Whether commands can be sandboxed here: a bwrap on PATH (or ADK_BWRAP) that can actually set up
 * its namespaces, tried once per process with the same mounts a command gets.
 */
export function sandboxStatus(env: NodeJS.ProcessEnv = process.env): Promise<SandboxStatus> {
  const key = `${env.ADK_BWRAP ?? ''}\0${env.PATH ?? ''}`;
  if (!cached || cachedFor !== key) {
    cachedFor = key;
    cached = probe(env);
  }
  return cached;
}

async function probe(env: NodeJS.ProcessEnv): Promise<SandboxStatus> {
  if (process.platform !== 'linux') return { reason: `there is no bwrap sandbox on ${process.platform}` };
  const bwrap = env.ADK_BWRAP !== undefined ? (env.ADK_BWRAP || undefined) : findOnPath('bwrap', env.PATH);
  if (!bwrap || !existsSync(bwrap)) return { reason: 'bwrap is not installed (Debian/Ubuntu: apt install bubblewrap)' };
  // The mounts and namespaces a command gets (the workspace here is just the root).
  const args = bwrapArgs({ bwrap, workspace: '/', network: false }, 'true');
  return new Promise((resolve) => {
    execFile(bwrap, args, { timeout: 5_000, env: { PATH: env.PATH ?? '/usr/bin:/bin' } }, (err, _out, stderr) => {
      if (!err) return resolve({ bwrap });
      const why = String(stderr).trim().split('\n')[0] || (err as Error).message;
      resolve({ reason: `bwrap cannot create its namespaces here (${why}); the kernel may refuse unprivileged user namespaces` });
    });
  });
}

function findOnPath(name: string, pathVar: string | undefined): string | undefined {
  for (const dir of (pathVar ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      /* next */
    }
  }
  return undefined;
}
