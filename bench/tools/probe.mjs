// Prints "mean median min" of N runs (after 3 warm-ups) of one workload for one implementation:
//   node bench/tools/probe.mjs W1 25 [adk|baseline|openai-agents|langgraph]
import { WORKLOADS } from '../workloads.bench.mjs';

const [id = 'W1', runs = '25', impl = 'adk'] = process.argv.slice(2);
const w = WORKLOADS.find((x) => x.id === id);
const run = w.make(await import(`../impls/${impl}.mjs`));
for (let i = 0; i < 3; i++) await run();
const s = [];
for (let i = 0; i < Number(runs); i++) {
  const t0 = performance.now();
  await run();
  s.push(w.per(performance.now() - t0));
}
const mean = s.reduce((x, y) => x + y, 0) / s.length;
s.sort((a, b) => a - b);
console.log(`${mean.toFixed(1)} ${s[s.length >> 1].toFixed(1)} ${s[0].toFixed(1)}`);
