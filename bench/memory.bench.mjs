// Memory: peak RSS of W1 and of a 10,000-event session, each in its own child process so one
// measurement's heap never inflates another's. Median of 3 processes.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { summary } from './harness.mjs';

const run = promisify(execFile);
const CHILD = fileURLToPath(new URL('./memory-child.mjs', import.meta.url));
const IMPLS = [
  ['adk', 'adk'],
  ['baseline', 'baseline'],
  ['openai-agents', '@openai/agents'],
  ['langgraph', 'langgraph'],
];
const CASES = [
  { id: 'MemW1', what: 'W1', title: 'Memory: peak RSS, W1 stream' },
  { id: 'MemS', what: 'session', title: 'Memory: peak RSS, 10,000-event session' },
];
const MB = 1024 * 1024;

async function child(file, what) {
  const { stdout } = await run(process.execPath, [CHILD, file, what], { maxBuffer: 1 << 20 });
  return JSON.parse(stdout.trim().split('\n').pop());
}

export async function benchMemory({ log = () => {}, processes = 3 } = {}) {
  const rows = [];
  for (const c of CASES) {
    log(`${c.title} …`);
    for (const [file, impl] of IMPLS) {
      const samples = [];
      try {
        for (let i = 0; i < processes; i++) {
          const r = await child(file, c.what);
          if (r.unsupported) break;
          samples.push(r);
        }
      } catch (e) {
        rows.push({ id: c.id, workload: c.title, impl, unit: 'MB', note: `failed: ${e.message.split('\n')[0]}` });
        continue;
      }
      if (!samples.length) {
        rows.push({ id: c.id, workload: c.title, impl, unit: 'MB', note: 'n/a: adk and baseline only (a long ReAct session of each peer is not part of this suite)' });
        continue;
      }
      const peak = summary(samples.map((s) => s.peakRss / MB));
      const growth = summary(samples.map((s) => (s.peakRss - s.idleRss) / MB));
      rows.push({ id: c.id, workload: c.title, impl, value: peak.median, min: peak.min, max: peak.max, unit: 'MB', growth: growth.median, runs: samples.length });
    }
  }
  return rows;
}
