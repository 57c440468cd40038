// Small helpers shared by the benchmarks: warm-up, repeated runs, median/min/max, tables.
import { performance } from 'node:perf_hooks';

const summary = (samples) => {
  const s = [...samples].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)], min: s[0], max: s[s.length - 1], samples };
};

// One forced GC before the warm-up, none between samples: a forced GC shrinks V8's young
// generation, and the next run pays to grow it again. That tripled adk's W1 figure (its streams
// keep their chunks for other readers) while leaving the bare baseline unchanged.
export async function measure(fn, { runs = 5, warmup = 2 } = {}) {
  globalThis.gc?.();
  for (let i = 0; i < warmup; i++) await fn();
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  return summary(samples);
}

/**
 * Measures several implementations of one workload round-robin (a, b, c, a, b, c, ...), so a burst
 * of load from other processes hits them all rather than one, and their ratios stay meaningful.
 * `fns` maps a name to an async function; returns name -> {median, min, max, samples} in ms.
 */
export async function measureInterleaved(fns, { runs = 5, warmup = 1 } = {}) {
  const entries = Object.entries(fns);
  globalThis.gc?.();
  for (let i = 0; i < warmup; i++) for (const [, fn] of entries) await fn();
  const samples = Object.fromEntries(entries.map(([k]) => [k, []]));
  for (let i = 0; i < runs; i++) {
    for (const [k, fn] of entries) {
      const t0 = performance.now();
      await fn();
      samples[k].push(performance.now() - t0);
    }
  }
  return Object.fromEntries(entries.map(([k]) => [k, summary(samples[k])]));
}

export { summary };

export function formatTable(headers, rows) {
  const cells = [headers, ...rows].map((r) => r.map((c) => String(c ?? '')));
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  const line = (r) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(cells[0]), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.slice(1).map(line)].join('\n');
}

export const fmt = (n, digits = 1) => (n == null ? '' : n >= 100 ? n.toFixed(0) : n.toFixed(digits));
