// Before/after of adk on one workload: separate processes, alternating (before, after, before, …),
// each printing the mean of its runs (a mean keeps the occasional GC pause a median would hide);
// then the median of those means.
//   node bench/tools/build-before.mjs c4c0fbd
//   node bench/tools/before-after.mjs W2 node_modules/.cache/adk-bench-before [processes] [runs]
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const [id = 'W1', before, procs = '6', runs = '21'] = process.argv.slice(2);
if (!before) throw new Error('usage: before-after.mjs <W1|W2|W3|W4> <before-dist-dir> [processes] [runs]');
const probe = fileURLToPath(new URL('./probe.mjs', import.meta.url));
const probeOnce = (env) =>
  Number(execFileSync(process.execPath, [probe, id, runs], { env: { ...process.env, ...env }, encoding: 'utf8' }).split(' ')[0]);
const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
const b = [];
const a = [];
for (let i = 0; i < Number(procs); i++) {
  b.push(probeOnce({ ADK_BENCH_DIST: resolve(before) }));
  a.push(probeOnce({ ADK_BENCH_DIST: '' }));
  console.log(`${id} before ${b.at(-1)}  after ${a.at(-1)}`);
}
console.log(`${id} median of the means: before ${med(b)}, after ${med(a)}`);
