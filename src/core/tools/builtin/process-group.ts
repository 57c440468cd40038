import type { ChildProcess } from 'node:child_process';

/**
 * Commands run in process groups of their own (`detached`), so a timeout or a cancel can kill all
 * they started. The flip side: a terminal's hangup never reaches them, so nothing would stop them if
 * adk ended some other way. Each group is tracked while its leader lives and killed as adk exits,
 * whatever the path (the end of main, process.exit(), an uncaught exception; a process that ends
 * itself by a signal calls killTrackedGroups first). Only SIGKILL of adk escapes this (sandboxed
 * commands die with it anyway: bwrap --die-with-parent).
 */
const live = new Set<number>();
let armed = false;

/** Kills `child`'s whole group as this process exits, unless its leader has exited by then. */
export function trackProcessGroup(child: ChildProcess): void {
  const pid = child.pid;
  if (!pid) return;
  // Armed by the first command, not on import: the library adds no exit listener to a process that runs none.
  if (!armed) {
    armed = true;
    process.on('exit', killTrackedGroups);
  }
  live.add(pid);
  child.once('exit', () => live.delete(pid));
}

/** Kills every tracked group now (the process is about to end). */
export function killTrackedGroups(): void {
  for (const leader of live) killProcessGroup(leader);
  live.clear();
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
