import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * Commands run in process groups of their own (`detached`), so a timeout or a cancel can kill all
 * they started. The flip side: a terminal's hangup never reaches them, so nothing would stop them if
 * adk ended some other way. Each group is tracked while its leader lives and killed as adk exits,
 * whatever the path (the end of main, process.exit(), an uncaught exception; a process that ends
 * itself by a signal calls killTrackedGroups first).
 *
 * A process can leave its group (`setsid`, a daemon's double fork), so every command also carries
 * a mark in its environment, `ADK_SHELL_JOB=<owner pid>.<owner start>.<nonce>`, inherited by all it
 * starts: killing a job kills its group and every process that carries its mark. A command whose
 * adk was SIGKILLed (a worker killed mid-command) is found the same way by the next adk that runs a
 * command (reapOrphanedJobs): its owner is gone, so it is killed.
 */
const live = new Set<number>();
let armed = false;

export const JOB_ENV = 'ADK_SHELL_JOB';

/** This process's own id in marks: its pid and start time (a reused pid has another start). */
const ownerId = (() => {
  let id: string | undefined;
  return () => (id ??= `${process.pid}.${processStart(process.pid) ?? 0}`);
})();

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

/** Kills the commands of adk processes that are gone (a SIGKILLed worker's): this account's, on this machine. */
export function reapOrphanedJobs(): number {
  const alive = new Map<string, boolean>();
  return killMarked((m) => {
    const owner = m.split('.').slice(0, 2).join('.');
    if (owner === ownerId()) return false;
    if (!alive.has(owner)) {
      const [pid, start] = owner.split('.').map(Number);
      alive.set(owner, processStart(pid) === start);
    }
    return !alive.get(owner);
  });
}

/** SIGKILLs each process whose mark `doomed` accepts; again while new ones turn up (a job forking as we look). Returns how many. */
function killMarked(doomed: (mark: string) => boolean): number {
  if (process.platform !== 'linux') return 0;
  let killed = 0;
  for (let round = 0; round < 5; round++) {
    let found = 0;
    for (const { pid, mark } of markedProcesses()) {
      if (pid === process.pid || !doomed(mark)) continue;
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

function* markedProcesses(): Generator<{ pid: number; mark: string }> {
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
    yield { pid: Number(name), mark: env.subarray(start, end < 0 ? env.length : end).toString() };
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
