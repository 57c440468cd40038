import { constants } from 'node:os';
import { isatty } from 'node:tty';
import { killTrackedGroups } from '../core/tools/builtin/process-group.js';

/** Nobody reads any more: a pipe's reader left (EPIPE) or the terminal closed (EIO). */
const isClosedOutput = (err: NodeJS.ErrnoException) => err.code === 'EPIPE' || err.code === 'EIO';

/**
 * Ctrl-C handling for headless runs: the first SIGINT aborts the run (which then saves and
 * reports `cancelled`); a second one exits at once. SIGTERM aborts the same way, and so does
 * SIGHUP (the terminal closed), whose later writes and reads fail quietly.
 */
export function abortOnSignals(onSecond: (signal: NodeJS.Signals) => void = dieBySignal): { signal: AbortSignal; dispose: () => void } {
  const ctrl = new AbortController();
  let count = 0;
  const handler = (sig: NodeJS.Signals) => {
    // A closed window after a Ctrl-C is no reason to cut the save short.
    if (hangup(sig) && count > 0) return;
    count++;
    if (count === 1) ctrl.abort(new Error('cancelled by signal'));
    else onSecond(sig);
  };
  for (const sig of HEADLESS_SIGNALS) process.on(sig, handler);
  return {
    signal: ctrl.signal,
    dispose: () => {
      for (const sig of HEADLESS_SIGNALS) process.off(sig, handler);
    },
  };
}

const HEADLESS_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Ends the process at once, by the signal's default action (a shell reports 130 for SIGINT).
 * process.exit() would first wait for native work in flight, such as a SQLite write waiting on a lock.
 */
export function dieBySignal(sig: NodeJS.Signals): void {
  // 'exit' handlers do not run when a signal ends the process: the commands it started go first.
  killTrackedGroups();
  process.removeAllListeners(sig);
  process.kill(process.pid, sig);
}

/** `adk sessions | head -1`: a closed pipe (or terminal) ends the process quietly instead of crashing. */
export function exitQuietlyOnEpipe(): void {
  for (const s of [process.stdout, process.stderr]) {
    s.on('error', (err: NodeJS.ErrnoException) => {
      if (isClosedOutput(err)) process.exit(0);
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
    if (!isClosedOutput(err)) throw err;
    if (err.code === 'EIO') ignoreLostTerminal();
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

/** A stream error listener that drops the errors of a reader that left; others still crash loudly. */
const dropClosedOutput = (err: NodeJS.ErrnoException) => {
  if (!isClosedOutput(err)) throw err;
};

let ignoring = false;
function ignoreClosedOutput(): void {
  if (ignoring) return;
  ignoring = true;
  process.stdout.on('error', dropClosedOutput);
  process.stderr.on('error', dropClosedOutput);
}

/**
 * The REPL's stop signals: SIGTERM, SIGINT and SIGHUP (its terminal closed) call `onStop` once, so the
 * running turn is cancelled and saved and the shell commands it started are stopped, as when a
 * person leaves; a second signal ends the process at once. A terminal that is gone shows first as
 * a failed write or read (EIO) as often as by SIGHUP: that counts as SIGHUP, and later failures
 * are dropped instead of crashing adk before it has saved.
 */
export function stopOnSignals(onStop: (signal: NodeJS.Signals) => void): { received: () => NodeJS.Signals | undefined; dispose: () => void } {
  let received: NodeJS.Signals | undefined;
  const stop = (sig: NodeJS.Signals) => {
    received = sig;
    hangup(sig);
    onStop(sig);
  };
  const onSignal = (sig: NodeJS.Signals) => {
    if (!received) return stop(sig);
    // The terminal closing while adk stops (it often shows as a failed write first) is not a second signal.
    if (!hangup(sig)) dieBySignal(sig);
  };
  const onStreamError = (err: NodeJS.ErrnoException) => {
    if (!isClosedOutput(err)) throw err;
    if (!received) return stop('SIGHUP');
    ignoreLostTerminal();
  };
  const streams = [process.stdin, process.stdout, process.stderr];
  for (const sig of STOP_SIGNALS) process.on(sig, onSignal);
  for (const stream of streams) stream.on('error', onStreamError);
  return {
    received: () => received,
    dispose: () => {
      for (const sig of STOP_SIGNALS) process.off(sig, onSignal);
      for (const stream of streams) stream.off('error', onStreamError);
    },
  };
}

// SIGINT: only `kill -INT` (the REPL reads Ctrl-C as a key).
const STOP_SIGNALS = ['SIGTERM', 'SIGHUP', 'SIGINT'] as const;

/** The exit code a shell reports for a process ended by `signal` (SIGTERM: 143). */
export function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (constants.signals[signal] ?? 0);
}

/** Whether `sig` is SIGHUP: the terminal is gone, and its writes and reads fail quietly from now on. */
function hangup(sig: NodeJS.Signals): boolean {
  if (sig !== 'SIGHUP') return false;
  ignoreLostTerminal();
  return true;
}

// Asked at start: once the terminal is gone, isatty() fails (a stream made then looks like a file).
const STARTED_IN_TERMINAL = [0, 1, 2].some((fd) => isatty(fd));
let terminalLost = false;
function ignoreLostTerminal(): void {
  if (terminalLost) return;
  terminalLost = true;
  ignoreClosedOutput();
  process.stdin.on('error', dropClosedOutput);
  // Node restores the terminal's settings as it exits and aborts (SIGABRT, a core dump) when the
  // terminal is gone (Node 20: ResetStdio asserts on EIO); ending by the signal skips that.
  if (STARTED_IN_TERMINAL) process.once('exit', () => dieBySignal('SIGHUP'));
}

/**
 * For long-running commands (`adk serve`, `adk worker`): resolves on the first SIGINT, SIGTERM or
 * SIGHUP (the terminal it was started from closed),
 * when the command starts stopping gracefully; a second one ends the process at once, so a stop
 * stuck behind a tool that ignores cancellation can always be cut short.
 */
export function untilStopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const second = (sig: NodeJS.Signals) => void (hangup(sig) || dieBySignal(sig));
    const first = (sig: NodeJS.Signals) => {
      hangup(sig);
      for (const s of HEADLESS_SIGNALS) {
        process.off(s, first);
        process.on(s, second);
      }
      resolve(sig);
    };
    for (const s of HEADLESS_SIGNALS) process.on(s, first);
  });
}
