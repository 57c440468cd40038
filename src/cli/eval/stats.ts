/**
 * pass@k, the unbiased estimator (Chen et al. 2021, "Evaluating Large Language Models Trained on
 * Code"): of n trials c passed; the chance that at least one of k drawn without replacement passes.
 */
export function passAtK(n: number, c: number, k: number): number {
  if (k > n || n === 0) return Number.NaN;
  if (n - c < k) return 1;
  let missAll = 1;
  for (let i = n - c + 1; i <= n; i++) missAll *= 1 - k / i;
  return 1 - missAll;
}

export function mean(xs: readonly number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN;
}

export function median(xs: readonly number[]): number {
  if (!xs.length) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/**
 * A 95% bootstrap interval of the mean difference between two configurations over the same tasks
 * (paired: tasks are resampled, each task's difference of pass rates kept), with a fixed seed so a
 * report reads the same twice.
 */
export function pairedBootstrap(diffs: readonly number[], rounds = 2000, seed = 42): { mean: number; low: number; high: number } {
  if (!diffs.length) return { mean: Number.NaN, low: Number.NaN, high: Number.NaN };
  let state = seed >>> 0;
  const random = () => {
    // mulberry32: small, seedable, good enough to resample
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const means: number[] = [];
  for (let r = 0; r < rounds; r++) {
    let sum = 0;
    for (let i = 0; i < diffs.length; i++) sum += diffs[Math.floor(random() * diffs.length)]!;
    means.push(sum / diffs.length);
  }
  means.sort((a, b) => a - b);
  return { mean: mean(diffs), low: means[Math.floor(rounds * 0.025)]!, high: means[Math.ceil(rounds * 0.975) - 1]! };
}
