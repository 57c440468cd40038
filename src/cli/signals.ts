/**
 * Ctrl-C handling for headless runs: the first SIGINT aborts the run (which then saves and
 * reports `cancelled`); a second one exits at once. SIGTERM aborts the same way.
 */
export function abortOnSignals(onSecond: (signal: NodeJS.Signals) => void = dieBySignal): { signal: AbortSignal; dispose: () => void } {
  const ctrl = new AbortController();
  let count = 0;
  const handler = (sig: NodeJS.Signals) => {
    count++;
    if (count === 1) ctrl.abort(new Error('cancelled by signal'));
    else onSecond(sig);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    signal: ctrl.signal,
    dispose: () => {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    },
  };
}

/**
 * Ends the process at once, by the signal's default action (a shell reports 130 for SIGINT).
 * process.exit() would first wait for native work in flight, such as a SQLite write waiting on a lock.
 */
export function dieBySignal(sig: NodeJS.Signals): void {
  process.removeAllListeners(sig);
  process.kill(process.pid, sig);
}

/** `adk run --json | head -1`: a closed pipe ends the process quietly instead of crashing. */
export function exitQuietlyOnEpipe(): void {
  for (const s of [process.stdout, process.stderr]) {
    s.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(0);
      throw err;
    });
  }
}

/**
 * Headless runs: when the reader of stdout goes away (`adk run --json | head -1`), stop writing
 * and abort the run, so it still saves its session before the process exits quietly.
 */
export function stopOnClosedOutput(): { signal: AbortSignal; closed: () => boolean; dispose: () => void } {
  const ctrl = new AbortController();
  const onError = (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    ctrl.abort(new Error('output closed'));
  };
  process.stdout.on('error', onError);
  process.stderr.on('error', onError);
  return {
    signal: ctrl.signal,
    closed: () => ctrl.signal.aborted,
    dispose: () => {
      process.stdout.off('error', onError);
      process.stderr.off('error', onError);
      // A write made just before this reports its EPIPE a tick later: nobody reads any more, so it is dropped.
      ignoreClosedOutput();
    },
  };
}

let ignoring = false;
function ignoreClosedOutput(): void {
  if (ignoring) return;
  ignoring = true;
  const quiet = (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
  };
  process.stdout.on('error', quiet);
  process.stderr.on('error', quiet);
}

/**
 * For long-running commands (`adk serve`, `adk worker`): resolves on the first SIGINT or SIGTERM,
 * when the command starts stopping gracefully; a second one ends the process at once, so a stop
 * stuck behind a tool that ignores cancellation can always be cut short.
 */
export function untilStopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const first = (sig: NodeJS.Signals) => {
      process.off('SIGINT', first);
      process.off('SIGTERM', first);
      process.once('SIGINT', dieBySignal);
      process.once('SIGTERM', dieBySignal);
      resolve(sig);
    };
    process.on('SIGINT', first);
    process.on('SIGTERM', first);
  });
}
