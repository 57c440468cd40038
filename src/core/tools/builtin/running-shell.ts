/** What a shell command is while it runs and once it ended: what the shell tool makes and its background jobs keep. */

export interface ShellResult {
  output: string;
  exitCode: number;
  /** Why the process was killed, if it was (`stopped`: a background job stopped on request or at exit). */
  killed?: 'timeout' | 'cancelled' | 'stopped' | undefined;
  /** Why it ran outside the sandbox although the sandbox was wanted (`sandbox: auto` without a working bwrap). */
  unsandboxed?: string | undefined;
}

/** A started shell command: its result, its output so far, and the levers on its process. */
export interface RunningShell {
  readonly command: string;
  readonly result: Promise<ShellResult>;
  /** Everything captured so far (capped like the result). */
  output(): string;
  /** Stops the timeout and the run's cancel signal from reaching it: it belongs to the jobs now. */
  release(): void;
  /** Kills its process group. */
  kill(): void;
}
