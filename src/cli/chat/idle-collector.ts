import v8 from 'node:v8';
import vm from 'node:vm';

/** A heap this much larger than after the last collection is worth one when the process goes quiet. */
const GROWTH_BYTES = 32 * 2 ** 20;
/** How often the process's CPU time and heap size are looked at. */
const SAMPLE_MS = 500;
/** Quiet: under this share of a core used since the last look (an idle REPL uses ~0.1%, typing a few keys a second ~1%). */
const QUIET_SHARE = 0.01;
/** Looks in a row that must be quiet (so a pause between two bursts does not count). */
const QUIET_SAMPLES = 2;

type Collect = () => void;

export interface IdleSample {
  /** CPU time used since the last sample, in µs. */
  cpuMicros: number;
  /** Wall time since the last sample, in ms. */
  wallMs: number;
  /** V8's heap size now (committed), in bytes. */
  heapBytes: number;
}

/**
 * Decides when to collect: after QUIET_SAMPLES quiet samples, and only if the heap grew by
 * GROWTH_BYTES since the last collection. Kept apart from timers and V8 so it can be tested alone.
 */
export class IdlePolicy {
  private quiet = 0;
  /** The heap's size after the last collection; none yet, so the first quiet second has one (start-up leaves garbage too). */
  private baseline = 0;

  /** True when a collection should run now. */
  next(s: IdleSample): boolean {
    const busy = s.wallMs > 0 && s.cpuMicros / 1000 / s.wallMs >= QUIET_SHARE;
    this.quiet = busy ? 0 : this.quiet + 1;
    if (this.quiet < QUIET_SAMPLES) return false;
    if (s.heapBytes - this.baseline < GROWTH_BYTES) {
      // A heap that shrank on its own is the new measure of what the session needs.
      this.baseline = Math.min(this.baseline, s.heapBytes);
      return false;
    }
    return true;
  }

  /** The heap's size after a collection: growth is measured from here. */
  collected(heapBytes: number): void {
    this.baseline = heapBytes;
    this.quiet = 0;
  }
}

/**
 * V8's collector as a function. Node gives it only to processes started with --expose-gc; the flag
 * set now applies to contexts made from now on, so one small context is made to take it from, and
 * the flag is set back.
 */
function findCollector(): Collect | undefined {
  let gc = (globalThis as { gc?: unknown }).gc;
  if (typeof gc !== 'function') {
    try {
      v8.setFlagsFromString('--expose-gc');
      gc = vm.runInNewContext('gc') as unknown;
    } catch {
      return undefined;
    } finally {
      v8.setFlagsFromString('--no-expose-gc');
    }
  }
  if (typeof gc !== 'function') return undefined;
  const full = gc as (options?: object) => void;
  // V8 12 and later (Node 22+) take a flavour: 'last-resort' is V8's memory-reducing collection (full
  // collections, repeated until one frees nothing more), which also shrinks the young generation and
  // returns pooled pages to the system; a plain full collection leaves those to a memory reducer that
  // did not come in Node 24 while we watched. V8 11 (Node 20) reads any options object as a request
  // for a young-generation pass, so it gets a plain full collection.
  return V8_MAJOR >= 12 ? () => full({ type: 'major', execution: 'sync', flavor: 'last-resort' }) : () => full();
}

const V8_MAJOR = Number(process.versions.v8.split('.')[0]);

const heapBytes = () => v8.getHeapStatistics().total_heap_size;

/**
 * Gives memory back when the REPL goes quiet, as a browser collects in idle time. V8 collects only
 * when the program allocates, so the heap a burst of drawing grew (a resumed session written out, a
 * long answer streamed, a big paste) stays that size while the person reads; Node 24's V8 also keeps
 * its young generation as large as the burst made it (up to 2 × 64 MB: a 100-turn `adk resume` on
 * Node 24.21 sat at 210–280 MB, and at 120–140 MB with this). It collects once the process has used
 * under 1% of a core for a second and the heap has grown by 32 MB since the last collection (the
 * first comes with the first quiet second): 20–30 ms on Node 20, up to ~90 ms on Node 24, on the
 * main thread, so a key pressed then waits that long, once after each burst. Returns the function
 * that stops it.
 */
export function startIdleCollector(onCollect?: (before: number, after: number) => void): () => void {
  const collect = findCollector();
  if (!collect) return () => {};
  const policy = new IdlePolicy();
  let cpu = process.cpuUsage();
  let at = performance.now();
  const timer = setInterval(() => {
    const used = process.cpuUsage(cpu);
    const now = performance.now();
    const sample = { cpuMicros: used.user + used.system, wallMs: now - at, heapBytes: heapBytes() };
    if (policy.next(sample)) {
      collect();
      const after = heapBytes();
      policy.collected(after);
      onCollect?.(sample.heapBytes, after);
    }
    // The collection's own CPU time is not the person's activity.
    cpu = process.cpuUsage();
    at = performance.now();
  }, SAMPLE_MS);
  timer.unref();
  return () => clearInterval(timer);
}
