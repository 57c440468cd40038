// `npm run bench`: runs every benchmark in one process and prints one table.
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { fmt, formatTable } from './harness.mjs';
import { benchStream } from './stream.bench.mjs';

const suites = [benchStream];
const rows = [];
for (const suite of suites) rows.push(...(await suite()));

const table = formatTable(
  ['workload', 'impl', 'median', 'min', 'max', 'unit', 'vs baseline'],
  rows.map((r) => [r.workload, r.impl, fmt(r.value), fmt(r.min), fmt(r.max), r.unit, r.ratio ? `${r.ratio.toFixed(2)}×` : '']),
);
console.log(`adk benchmarks — node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}\n`);
console.log(table);
writeFileSync(new URL('./results.json', import.meta.url), JSON.stringify({ node: process.version, date: new Date().toISOString(), rows }, null, 2));
