import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { realOrSelf } from '../../fs-checks.js';
import { bwrapArgs, SECCOMP_FD, type SandboxSpec } from './bwrap.js';
import { seccompProgram } from './seccomp.js';

/**
 * The command line that runs `argv` inside the sandbox when the spawn is not adk's own (the MCP
 * SDK's stdio transport starts a server as `command args`, with three pipes and no fourth). bwrap
 * reads its seccomp program from SECCOMP_FD, so `/bin/sh` opens the program's file there and
 * becomes bwrap: no shell stays between the transport and the sandbox.
 */
export function sandboxedLaunch(bwrap: string, spec: SandboxSpec, argv: readonly string[], env: NodeJS.ProcessEnv = process.env): { command: string; args: string[] } {
  // The program and its arguments travel as positional parameters: nothing to quote.
  const inner = [...bwrapArgs(spec, 'exec "$@"', env), 'adk-sandboxed', ...argv];
  const file = seccompProgram() ? seccompFile(spec.workspace) : undefined;
  if (!file) return { command: bwrap, args: inner };
  return { command: '/bin/sh', args: ['-c', `exec "$@" ${SECCOMP_FD}<"$0"`, file, bwrap, ...inner] };
}

let written: { dir: string; file: string } | undefined;
const folders = new Set<string>();

/** The seccomp program in a private folder (0700) outside the workspace, written once a process and removed at exit. */
function seccompFile(workspace: string): string {
  const inside = (p: string) => p === workspace || p.startsWith(`${workspace}/`);
  // Written again if a temp cleaner took it (a long-running adk serve).
  if (written && !inside(written.dir) && existsSync(written.file)) return written.file;
  const base = [realOrSelf(tmpdir()), '/tmp'].find((c) => !inside(c));
  if (!base) throw new Error(`the sandbox needs a temporary folder outside the workspace (TMPDIR=${tmpdir()} is inside it)`);
  const dir = mkdtempSync(path.join(base, 'adk-seccomp-'));
  const file = path.join(dir, 'filter.bpf');
  writeFileSync(file, seccompProgram()!, { mode: 0o600 });
  if (!folders.size) process.once('exit', () => folders.forEach((d) => rmSync(d, { recursive: true, force: true })));
  folders.add(dir);
  written = { dir, file };
  return file;
}
