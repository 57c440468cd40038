import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { accessSync, constants, existsSync, lstatSync, readdirSync, readlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { seccompProgram } from './seccomp.js';
import { isDir, isFile, realOrSelf } from '../../fs-checks.js';

/**
 * The shell's sandbox on Linux: bubblewrap (Debian `bubblewrap`). The command sees the system's
 * read-only folders and the workspace (read-write), nothing else of the machine: an empty private
 * $HOME, /tmp and /run, fresh /dev and /proc (its own pid namespace: no other process's environ),
 * no network unless the agent allows it, so no Unix socket bound outside either. It runs as an
 * ordinary user of its own user namespace with no capabilities, under a seccomp filter that
 * refuses mount, ptrace, keyctl and their kin: root outside stays powerless inside. It dies with adk.
 */

export type SandboxMode = 'auto' | 'off';

export interface SandboxStatus {
  /** Absolute path of a bwrap that works here, when there is one. */
  bwrap?: string | undefined;
  /** Why commands run unsandboxed (no bwrap, or the kernel refuses it a namespace). */
  reason?: string | undefined;
}

export interface SandboxSpec {
  workspace: string;
  network: boolean;
  /** The person's home: an empty tmpfs inside. Default: $HOME. */
  home?: string | undefined;
  /** Further paths the person lets commands read (`read_paths`), bound read-only. */
  readPaths?: readonly string[] | undefined;
  /** Paths that stay hidden even inside the workspace or a read path (ADK_HOME). */
  hidden?: readonly string[] | undefined;
  /** A private folder of adk's shown read-only at `at` (under /run): the checked copies of module code (module-host/pinned-code.ts). */
  privateFolder?: { from: string; at: string } | undefined;
  /** A folder of adk's shown writable as $HOME instead of an empty one (an MCP server's caches: npx, uv). */
  homeFolder?: string | undefined;
  /** Where the command starts (default: the workspace); shown read-only when it is outside it. */
  cwd?: string | undefined;
  /** The command's whole environment (bwrap's own is cleared): what bwrap was started with stays outside. */
  env?: Record<string, string> | undefined;
}

/** The fd bwrap reads the seccomp program from (`stdio[3]` of the spawned bwrap). */
export const SECCOMP_FD = 3;

/** The folders of the system a command needs to run programs; everything else of `/` is absent. */
const SYSTEM_PATHS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc', '/opt', '/nix', '/snap', '/sys'];
/** Secrets of the system that a sandboxed root would otherwise read as their owner. */
const SYSTEM_SECRETS = [
  '/etc/shadow', '/etc/shadow-', '/etc/gshadow', '/etc/gshadow-', '/etc/security/opasswd', '/etc/sudoers', '/etc/sudoers.d',
  '/etc/ssl/private', '/etc/pki/tls/private', '/etc/letsencrypt', '/etc/krb5.keytab', '/etc/ipsec.secrets', '/etc/wireguard',
  '/etc/NetworkManager/system-connections', '/etc/credstore', '/etc/credstore.encrypted', '/etc/docker/key.json',
];
/** Credentials people keep in their home, hidden again where the workspace or a read path shows them. */
const HOME_SECRETS = ['.config/git/credentials', '.ssh', '.aws', '.azure', '.gnupg', '.kube', '.docker', '.config/gcloud', '.config/gh', '.netrc', '.npmrc', '.pypirc', '.pgpass', '.git-credentials', '.cargo/credentials.toml', '.cargo/credentials', '.adk', '.local/share/keyrings'];
/** Settings from home a command needs to behave as the person's tools do, read-only and free of secrets (git's `credentials` file is not among them). */
const HOME_SETTINGS = ['.gitconfig', '.config/git/config', '.config/git/ignore', '.config/git/attributes'];
/** The uid and gid a command has inside when adk runs as root (root is never root inside). */
const ROOT_MAPPED_ID = 1000;

/** bwrap's arguments to run `/bin/sh -c command` in the workspace. Order matters: later mounts go over earlier ones. */
export function bwrapArgs(spec: SandboxSpec, command: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const uid = process.getuid?.() ?? 0;
  const gid = process.getgid?.() ?? 0;
  const home = spec.home ?? env.HOME;
  const visible: string[] = [];
  const args: string[] = [
    '--unshare-all',
    ...(spec.network ? ['--share-net'] : []),
    // A user namespace of its own, never root inside, no capabilities, and no way to make another.
    '--unshare-user',
    '--uid', String(uid === 0 ? ROOT_MAPPED_ID : uid),
    '--gid', String(gid === 0 ? ROOT_MAPPED_ID : gid),
    '--disable-userns',
    '--cap-drop', 'ALL',
    '--die-with-parent',
    // Its own session: no controlling terminal to push keystrokes into (TIOCSTI).
    '--new-session',
  ];
  const bindRo = (p: string) => {
    const link = symlinkTarget(p);
    if (link !== undefined) args.push('--symlink', link, p);
    else if (existsSync(p)) {
      args.push('--ro-bind', p, p);
      visible.push(p);
    }
  };
  for (const p of SYSTEM_PATHS) bindRo(p);
  // Private and empty before anything is bound inside them: a bind under $HOME or /tmp (adk's Node
  // from nvm, a PATH folder, a read path) must go over the tmpfs, not under it.
  args.push('--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--tmpfs', '/run', '--tmpfs', '/var/tmp', '--symlink', '../run', '/var/run');
  const privateHome = home && path.isAbsolute(home) && home !== '/' ? home : undefined;
  if (privateHome) args.push(...(spec.homeFolder ? ['--bind', spec.homeFolder, privateHome] : ['--tmpfs', privateHome]));
  // What the person's setup needs from outside the system folders: adk's own Node (nvm keeps it under
  // $HOME), the folders on PATH, the read paths. Never through the workspace (a model can plant a link
  // there: `node_modules/.bin -> /`), and never a folder so broad it would show the host again.
  const broad = [privateHome, '/tmp', '/run', '/var', '/proc', '/dev', '/home', '/root', spec.workspace].filter((x): x is string => !!x);
  const extra = (written: string, real: string) =>
    !covered([spec.workspace], written) && !covered([spec.workspace], real) && real !== '/' && !broad.some((b) => b === real || b.startsWith(`${real}/`)) && isDir(real);
  const bindExtra = (real: string) => {
    args.push('--ro-bind', real, real);
    visible.push(real);
  };
  const nodePrefix = path.dirname(path.dirname(realOrSelf(process.execPath)));
  if (!covered(visible, nodePrefix) && extra(nodePrefix, nodePrefix)) bindExtra(nodePrefix);
  for (const dir of (env.PATH ?? '').split(':')) {
    if (!path.isAbsolute(dir) || covered(visible, dir)) continue;
    const real = realOrSelf(dir);
    if (!covered(visible, real) && extra(path.resolve(dir), real)) bindExtra(real);
  }
  if (privateHome) {
    for (const s of HOME_SETTINGS) {
      const p = path.join(privateHome, s);
      if (isFile(p)) args.push('--ro-bind', p, p);
    }
  }
  // Read paths the person listed: `~/…` or absolute (a relative one would be read in the workspace,
  // where a model may have made it a link). `~` itself may be listed: its credentials stay hidden.
  // Secrets under a folder that is visible after all (a workspace that is $HOME, a read path).
  const secrets = [...(home && path.isAbsolute(home) ? HOME_SECRETS.map((s) => path.join(home, s)) : []), ...(spec.hidden ?? [])].map(realOrSelf);
  for (const p of spec.readPaths ?? []) {
    const written = home && (p === '~' || p.startsWith('~/')) ? path.join(home, p.slice(1)) : p;
    if (!path.isAbsolute(written)) continue;
    const real = realOrSelf(written);
    if (covered([spec.workspace], written) || covered([spec.workspace], real) || real === '/' || !existsSync(real)) continue;
    // A path inside a credential folder is never shown (hiding covers only what lies under a bound folder).
    if (covered(secrets, real)) continue;
    bindExtra(real);
  }
  args.push('--bind', spec.workspace, spec.workspace);
  visible.push(spec.workspace);
  if (spec.privateFolder) args.push('--ro-bind', spec.privateFolder.from, spec.privateFolder.at);
  for (const p of SYSTEM_SECRETS) hide(args, p, visible);
  for (const h of sshHostKeys()) hide(args, h, visible);
  // Root inside is an ordinary user, but its files are still root's outside: what only root may read
  // (`/etc/kubernetes/admin.conf`, `/etc/mysql/debian.cnf`, …) is hidden too.
  if (uid === 0) for (const p of rootOnlyEntries()) hide(args, p, visible);
  for (const p of secrets) hide(args, p, visible);
  if (spec.env) {
    args.push('--clearenv');
    for (const [k, v] of Object.entries(spec.env)) args.push('--setenv', k, v);
  }
  args.push('--setenv', 'TMPDIR', '/tmp', '--chdir', spec.cwd ?? spec.workspace);
  if (seccompProgram()) args.push('--seccomp', String(SECCOMP_FD));
  args.push('--', '/bin/sh', '-c', command);
  return args;
}

/** Covers `p` with an empty file or folder when a bound folder shows it. */
function hide(args: string[], p: string, visible: readonly string[]): void {
  if (!covered(visible, p)) return;
  let st;
  try {
    st = lstatSync(p);
  } catch {
    return;
  }
  if (st.isDirectory()) args.push('--tmpfs', p);
  else if (!st.isSymbolicLink()) args.push('--ro-bind', '/dev/null', p);
}

let rootOnly: string[] | undefined;
/** Files and folders under /etc and /opt that only their owner may read (walked once per process, at most 20,000 entries). */
function rootOnlyEntries(): string[] {
  if (rootOnly) return rootOnly;
  const found: string[] = [];
  let budget = 20_000;
  const walk = (dir: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (--budget < 0) return;
      const p = path.join(dir, e.name);
      let st;
      try {
        st = lstatSync(p);
      } catch {
        continue;
      }
      if (st.isSymbolicLink()) continue;
      if ((st.mode & 0o004) === 0) found.push(p);
      else if (st.isDirectory()) walk(p);
    }
  };
  walk('/etc');
  walk('/opt');
  return (rootOnly = found);
}

function sshHostKeys(): string[] {
  try {
    return readdirSync('/etc/ssh').filter((n) => /^ssh_host_.*_key$/.test(n)).map((n) => path.join('/etc/ssh', n));
  } catch {
    return [];
  }
}

const covered = (roots: readonly string[], p: string) => roots.some((r) => p === r || p.startsWith(r.endsWith('/') ? r : `${r}/`));

function symlinkTarget(p: string): string | undefined {
  try {
    return lstatSync(p).isSymbolicLink() ? readlinkSync(p) : undefined;
  } catch {
    return undefined;
  }
}




/**
 * Spawns bwrap with its seccomp program on SECCOMP_FD. `stdio` gives the first three descriptors
 * (a piped stdin is `child.stdin`, for hooks; the type says null for the shell's ignored one).
 */
export function spawnSandboxed(bwrap: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; detached?: boolean; stdio: ['ignore' | 'pipe', 'pipe', 'pipe'] }): ChildProcessByStdio<null, Readable, Readable> {
  const program = seccompProgram();
  const child = spawn(bwrap, args, { ...options, stdio: [...options.stdio, program ? 'pipe' : 'ignore'] });
  const fd = child.stdio[SECCOMP_FD] as NodeJS.WritableStream | null;
  if (program && fd) {
    // bwrap reads the program to its end before it runs anything; a child that died early closes it.
    (fd as unknown as { on(e: string, f: () => void): void }).on('error', () => {});
    fd.end(program);
  }
  return child as unknown as ChildProcessByStdio<null, Readable, Readable>;
}

/** A probe that works is known for the rest of the process; a failed one is tried again after this long. */
const RETRY_NEGATIVE_AFTER_MS = 60_000;
/** Generous: under heavy load (a CI machine running many tests) setting up the namespaces can take seconds. */
const PROBE_TIMEOUT_MS = 20_000;

interface ProbeEntry {
  status: Promise<SandboxStatus>;
  known: boolean;
  settledAt?: number;
}
/** Per environment and workspace (`adk serve`, `adk acp`: several workspaces), so one never evicts another's answer. */
const cached = new Map<string, ProbeEntry>();

/**
 * Whether commands can be sandboxed here: a bwrap on PATH (or ADK_BWRAP) that can actually set up
 * its namespaces, tried with the same mounts, user mapping and filter a command gets. Where that fails
 * (no user namespaces) adk says so instead of running a weaker sandbox. A failed try is tried once
 * more at once (a loaded machine can fail or time one out), and again a minute later; one that worked
 * holds for the process, so a command never finds the sandbox gone after a grant was given for it.
 * A bwrap in `workspace` (default: the current folder) or on a relative PATH entry is never taken:
 * the repository (a model) could have put it there (`node_modules/.bin/bwrap` that runs its arguments as they are).
 */
export function sandboxStatus(env: NodeJS.ProcessEnv = process.env, workspace: string = process.cwd()): Promise<SandboxStatus> {
  const root = realOrSelf(path.resolve(workspace));
  const key = `${env.ADK_BWRAP ?? ''}\0${env.PATH ?? ''}\0${root}`;
  const c = cached.get(key);
  if (c && (c.known || c.settledAt === undefined || Date.now() - c.settledAt < RETRY_NEGATIVE_AFTER_MS)) return c.status;
  const entry: ProbeEntry = { known: false, status: probeTwice(env, root) };
  const settled = (known: boolean) => {
    entry.known = known;
    entry.settledAt = Date.now();
  };
  // probeTwice answers a failure as a reason; a rejection here would be an unhandled one (a crash).
  void entry.status.then((s) => settled(!!s.bwrap), () => settled(false));
  cached.set(key, entry);
  return entry.status;
}

async function probeTwice(env: NodeJS.ProcessEnv, workspace: string): Promise<SandboxStatus> {
  try {
    let { retry, ...status } = await probe(env, workspace);
    if (retry) ({ retry, ...status } = await probe(env, workspace));
    return status;
  } catch (e) {
    // Something threw before bwrap could answer (spawn refusing the environment): no sandbox, said why.
    return { reason: `the sandbox probe failed (${(e as Error).message})` };
  }
}

/** `retry`: bwrap is there but this try failed, which a second try may not. */
async function probe(env: NodeJS.ProcessEnv, workspace: string): Promise<SandboxStatus & { retry?: boolean }> {
  if (process.platform !== 'linux') return { reason: `there is no bwrap sandbox on ${process.platform}` };
  const found = env.ADK_BWRAP !== undefined ? { path: env.ADK_BWRAP || undefined, ignored: [] } : findOnPath('bwrap', env.PATH, workspace);
  const bwrap = found.path;
  if (!bwrap || !existsSync(bwrap)) {
    const ignored = found.ignored.length ? `; ${found.ignored.join(', ')} was not used: a bwrap in the workspace or on a relative PATH entry could be the repository's` : '';
    return { reason: `bwrap is not installed (Debian/Ubuntu: apt install bubblewrap)${ignored}` };
  }
  const args = bwrapArgs({ workspace: realOrSelf(tmpdir()), network: false }, 'true', env);
  return new Promise((resolve) => {
    const child = spawnSandboxed(bwrap, args, { cwd: '/', env: { PATH: env.PATH ?? '/usr/bin:/bin' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let timedOut = false;
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.stdout.resume();
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, PROBE_TIMEOUT_MS);
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ reason: `bwrap cannot start (${e.message})`, retry: true });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) return resolve({ bwrap });
      const why = timedOut ? `it did not answer within ${PROBE_TIMEOUT_MS / 1000} s` : stderr.trim().split('\n')[0] || `exit code ${code}`;
      resolve({ reason: `bwrap cannot make a safe sandbox here (${why}); the kernel may refuse unprivileged user namespaces`, retry: true });
    });
  });
}

/**
 * The first executable `name` on PATH that the workspace cannot have put there: relative entries
 * (resolved against the folder adk runs in, the workspace) and entries inside the workspace are
 * skipped, and so is a candidate whose real file is inside it. Skipped candidates are listed (said in
 * the reason when no other is found).
 */
function findOnPath(name: string, pathVar: string | undefined, workspace: string): { path: string | undefined; ignored: string[] } {
  const ignored: string[] = [];
  for (const dir of (pathVar ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
    } catch {
      continue;
    }
    const planted = !path.isAbsolute(dir) || covered([workspace], path.resolve(candidate)) || covered([workspace], realOrSelf(candidate));
    if (!planted) return { path: candidate, ignored };
    ignored.push(candidate);
  }
  return { path: undefined, ignored };
}
