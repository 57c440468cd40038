// Runs one workload of one implementation in a loop, for `node --cpu-prof bench/tools/profile.mjs adk W1 [times]`.
import { WORKLOADS } from '../workloads.bench.mjs';

const [implName = 'adk', id = 'W1', times = '20'] = process.argv.slice(2);
const impl = await import(`../impls/${implName}.mjs`);
const w = WORKLOADS.find((x) => x.id === id);
if (!w) throw new Error(`unknown workload ${id}`);
const run = w.make(impl);
const t0 = performance.now();
for (let i = 0; i < Number(times); i++) await run();
const ms = (performance.now() - t0) / Number(times);
console.log(`${implName} ${id}: ${w.per(ms).toFixed(1)} ${w.unit} (mean of ${times})`);
