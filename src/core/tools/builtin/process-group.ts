import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';

/**
 * Commands run in process groups of their own (`detached`), so a timeout or a cancel can kill all
 * they started. The flip side: a terminal's hangup never reaches them, so nothing would stop them if
 * adk ended some other way. Each group is tracked while its leader lives and killed as adk exits,
 * whatever the path (the end of main, process.exit(), an uncaught exception; a process that ends
 * itself by a signal calls killTrackedGroups first).
 *
 * A process can leave its group (`setsid`, a daemon's double fork), so every command also carries
 * a mark in its environment, `ADK_SHELL_JOB=<owner pid>.<owner start>.<owner pid namespace>.<nonce>`,
 * inherited by all it starts: killing a job kills its group and every process that carries its mark.
 * A command whose adk was SIGKILLed (a worker killed mid-command) is found the same way by the next
 * adk of the same account and pid namespace that runs a command (reapOrphanedJobs): its owner is
 * gone, so it is killed. Marks of other namespaces (a container's adk) or accounts are never judged.
 */
const live = new Set<number>();
let armed = false;

export const JOB_ENV = 'ADK_SHELL_JOB';

/** This process's own id in marks: its pid and start time (a reused pid has another start). */
const ownerId = (() => {
  let id: string | undefined;
  return () => (id ??= `${process.pid}.${processStart(process.pid) ?? 0}.${pidNamespace()}`);
})();

/** This process's pid namespace (the inode of /proc/self/ns/pid): pids mean something only inside it. */
function pidNamespace(): string {
  try {
    return /\[(\d+)\]/.exec(readlinkSync('/proc/self/ns/pid'))?.[1] ?? '0';
  } catch {
    return '0';
  }
}

/** A new job's mark, the value of JOB_ENV in its environment. */
export function newJobMark(): string {
  return `${ownerId()}.${randomBytes(6).toString('hex')}`;
}

/** Kills `child`'s whole group as this process exits, unless its leader has exited by then. */
export function trackProcessGroup(child: ChildProcess, mark?: string): void {
  const pid = child.pid;
  if (!pid) return;
  // Armed by the first command, not on import: the library adds no exit listener to a process that runs none.
  if (!armed) {
    armed = true;
    process.on('exit', killTrackedGroups);
  }
  live.add(pid);
  if (mark) marks.add(mark);
  child.once('exit', () => live.delete(pid));
}
const marks = new Set<string>();

/** Kills every tracked group and marked job now (the process is about to end). */
export function killTrackedGroups(): void {
  for (const leader of live) killProcessGroup(leader);
  live.clear();
  if (marks.size) killMarked((m) => marks.has(m));
  marks.clear();
}

/** SIGKILL to the process group led by `pid` (a no-op once it is gone). */
export function killProcessGroup(pid: number | undefined): void {
  if (!pid) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** Kills a job: its group, then whatever still carries its mark (left the group, or was started meanwhile). */
export function killJob(leader: number | undefined, mark: string): void {
  killProcessGroup(leader);
  killMarked((m) => m === mark);
  marks.delete(mark);
}

/** Kills the commands of adk processes that are gone (a SIGKILLed worker's): this account's, in this pid namespace. */
export function reapOrphanedJobs(): number {
  const alive = new Map<string, boolean>();
  const me = ownerId();
  const ns = me.split('.')[2];
  const uid = process.getuid?.();
  return killMarked((m, owner) => {
    const parts = /^(\d+)\.(\d+)\.(\d+)\.[0-9a-f]+$/.exec(m);
    // Malformed, another namespace's (its pids are not ours to look up) or another account's: not judged.
    if (!parts || parts[3] !== ns || owner !== uid) return false;
    const id = `${parts[1]}.${parts[2]}.${parts[3]}`;
    if (id === me) return false;
    if (!alive.has(id)) alive.set(id, processStart(Number(parts[1])) === Number(parts[2]));
    return !alive.get(id);
  });
}

/** SIGKILLs each process whose mark `doomed` accepts; again while new ones turn up (a job forking as we look). Returns how many. */
function killMarked(doomed: (mark: string, owner: number | undefined) => boolean): number {
  if (process.platform !== 'linux') return 0;
  let killed = 0;
  for (let round = 0; round < 5; round++) {
    let found = 0;
    for (const { pid, mark, owner } of markedProcesses()) {
      if (pid === process.pid || !doomed(mark, owner)) continue;
      try {
        process.kill(pid, 'SIGKILL');
        found++;
      } catch {
        // Gone, or not ours.
      }
    }
    killed += found;
    if (!found) break;
  }
  return killed;
}

const NEEDLE = Buffer.from(`\0${JOB_ENV}=`);

function* markedProcesses(): Generator<{ pid: number; mark: string; owner: number | undefined }> {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return;
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    let env: Buffer;
    try {
      // Readable only for this account's processes (and root's): nobody else's are touched.
      env = Buffer.concat([Buffer.from([0]), readFileSync(`/proc/${name}/environ`)]);
    } catch {
      continue;
    }
    const at = env.indexOf(NEEDLE);
    if (at < 0) continue;
    const start = at + NEEDLE.length;
    const end = env.indexOf(0, start);
    let owner: number | undefined;
    try {
      owner = statSync(`/proc/${name}`).uid;
    } catch {
      continue;
    }
    yield { pid: Number(name), mark: env.subarray(start, end < 0 ? env.length : end).toString(), owner };
  }
}

/** A process's start time (clock ticks since boot), or undefined when it does not exist. */
function processStart(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: fields count from the last ')'.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
  } catch {
    return undefined;
  }
}
