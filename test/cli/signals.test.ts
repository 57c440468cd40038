import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// Not started in a terminal: no exit-time kill is armed in the test process.
vi.mock('node:tty', async (real) => ({ ...(await real<typeof import('node:tty')>()), isatty: () => false }));

const { abortOnSignals, stopOnSignals, untilStopSignal } = await import('../../src/cli/signals.js');

/** Calls the process's listeners for `sig` as a real signal would (no signal is sent). */
const deliver = (sig: NodeJS.Signals) => (process.emit as (event: string, ...args: unknown[]) => boolean)(sig, sig);
/** A failed write to a terminal that is gone. */
const lostTerminal = () => process.stdout.emit('error', Object.assign(new Error('write EIO'), { code: 'EIO' }));

let killed: string[];
beforeEach(() => {
  killed = [];
  // dieBySignal: removes the listeners, then kills the process by the signal. Recorded instead.
  vi.spyOn(process, 'removeAllListeners').mockImplementation(() => process);
  vi.spyOn(process, 'kill').mockImplementation((_pid, sig) => {
    killed.push(String(sig));
    return true;
  });
});
afterEach(() => vi.restoreAllMocks());

describe('the REPL stops once, whatever tells it to', () => {
  it('SIGTERM stops it; the terminal closing meanwhile is not a second signal; a second SIGTERM ends it at once', () => {
    const stops: string[] = [];
    const s = stopOnSignals((sig) => stops.push(sig));
    try {
      deliver('SIGTERM');
      deliver('SIGHUP');
      expect(() => lostTerminal()).not.toThrow();
      expect([stops, killed]).toEqual([['SIGTERM'], []]);
      deliver('SIGTERM');
      expect(killed).toEqual(['SIGTERM']);
      expect(s.received()).toBe('SIGTERM');
    } finally {
      s.dispose();
    }
  });

  it('a failed write to a terminal that is gone stops it as SIGHUP; the SIGHUP that follows changes nothing', () => {
    const stops: string[] = [];
    const s = stopOnSignals((sig) => stops.push(sig));
    try {
      lostTerminal();
      deliver('SIGHUP');
      expect([stops, killed, s.received()]).toEqual([['SIGHUP'], [], 'SIGHUP']);
    } finally {
      s.dispose();
    }
    // Writes after it (the "saved" line) fail quietly too.
    expect(() => lostTerminal()).not.toThrow();
  });

  it('kill -INT stops it like SIGTERM (Ctrl-C itself is a key in the REPL)', () => {
    const stops: string[] = [];
    const s = stopOnSignals((sig) => stops.push(sig));
    try {
      deliver('SIGINT');
      expect(stops).toEqual(['SIGINT']);
    } finally {
      s.dispose();
    }
  });
});

describe('headless runs and servers', () => {
  it('adk run: Ctrl-C cancels, the window closing after it does not cut the save short, a second Ctrl-C does', () => {
    const seconds: string[] = [];
    const a = abortOnSignals((sig) => seconds.push(sig));
    try {
      deliver('SIGINT');
      expect(a.signal.aborted).toBe(true);
      deliver('SIGHUP');
      expect(seconds).toEqual([]);
      deliver('SIGINT');
      expect(seconds).toEqual(['SIGINT']);
    } finally {
      a.dispose();
    }
  });

  it('adk run: SIGHUP alone cancels the run', () => {
    const a = abortOnSignals(() => {});
    try {
      deliver('SIGHUP');
      expect(a.signal.aborted).toBe(true);
    } finally {
      a.dispose();
    }
  });

  it('adk serve: SIGHUP starts the graceful stop; another SIGHUP does not end it, a SIGTERM does', async () => {
    const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
    const before = signals.map((sig) => process.listeners(sig));
    const stopping = untilStopSignal();
    deliver('SIGHUP');
    expect(await stopping).toBe('SIGHUP');
    deliver('SIGHUP');
    expect(killed).toEqual([]);
    deliver('SIGTERM');
    expect(killed).toEqual(['SIGTERM']);
    // The stop's listeners stay for the rest of the process; take them away again here.
    signals.forEach((sig, i) => process.listeners(sig).filter((l) => !before[i]!.includes(l)).forEach((l) => process.off(sig, l)));
  });
});
