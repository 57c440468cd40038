import type { RunningShell, ShellResult } from './running-shell.js';

export type { RunningShell } from './running-shell.js';

interface Job {
  id: string;
  shell: RunningShell;
  /** Characters of output already handed to the model. */
  read: number;
  done?: ShellResult | undefined;
}

/**
 * The shell commands of one adk process that a person moved to the background (Ctrl-B in the REPL):
 * the call they belonged to answers at once, the command goes on, `shell_output` reads it, and
 * `close()` (leaving adk) kills whatever still runs.
 */
export class ShellJobs {
  private readonly watching = new Map<string, { shell: RunningShell; detach: (id: string) => void }>();
  private readonly jobs = new Map<string, Job>();
  private seq = 0;

  /** A command running in the foreground; the promise gives its job id if it is moved to the background. */
  watch(callId: string, shell: RunningShell): Promise<string> {
    return new Promise((detach) => this.watching.set(callId, { shell, detach }));
  }

  unwatch(callId: string): void {
    this.watching.delete(callId);
  }

  /** Whether some foreground command could be moved to the background now. */
  get foreground(): number {
    return this.watching.size;
  }

  /** Moves every foreground command to the background; returns their job ids. */
  background(): string[] {
    const ids: string[] = [];
    for (const [callId, { shell, detach }] of this.watching) {
      this.watching.delete(callId);
      shell.release();
      // The call's answer shows the output so far; reads start after it.
      const job: Job = { id: `bg${++this.seq}`, shell, read: shell.output().length };
      void shell.result.then((r) => (job.done = r));
      this.jobs.set(job.id, job);
      ids.push(job.id);
      detach(job.id);
    }
    return ids;
  }

  /** The job's state and the output the model has not seen yet; `stop` kills it first. */
  async read(id: string, stop = false): Promise<{ status: string; output: string } | undefined> {
    const job = this.jobs.get(id);
    if (!job) return undefined;
    if (stop && !job.done) {
      job.shell.kill();
      job.done = await job.shell.result;
    }
    const all = job.shell.output();
    // Past the cap the middle of the capture is dropped, so an offset may no longer line up: give it all.
    const output = (all.length >= job.read ? all.slice(job.read) : all).replace(/\n$/, '');
    job.read = all.length;
    const status = job.done ? `exited with code ${job.done.exitCode}${stop ? ' (stopped)' : ''}` : 'running';
    return { status, output };
  }

  /** Ids and commands of the jobs, newest last. */
  list(): Array<{ id: string; command: string; running: boolean }> {
    return [...this.jobs.values()].map((j) => ({ id: j.id, command: j.shell.command, running: !j.done }));
  }

  /** Kills every background job (adk is leaving). */
  close(): void {
    for (const job of this.jobs.values()) if (!job.done) job.shell.kill();
  }
}
