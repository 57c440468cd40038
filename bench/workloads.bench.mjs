// W1–W4: the same work on adk, the bare baseline and each peer, in this process (in phases, below).
import { measureInterleaved } from './harness.mjs';

const IMPLS = ['adk', 'baseline', 'openai-agents', 'langgraph'];

// Peers are imported lazily, so a broken peer install costs its rows, not the whole suite.
async function loadImpls() {
  const impls = [];
  for (const file of IMPLS) {
    try {
      impls.push(await import(`./impls/${file}.mjs`));
    } catch (e) {
      console.error(`bench: skipping ${file}: ${e.message}`);
    }
  }
  return impls;
}

const W1_CHUNKS = 20_000;
const W2_TURNS = 200;
const W3_CHUNKS = 1_000;
const W3_REPEAT = 200;
const W4_CHILDREN = 8;
const W4_DELAY_MS = 100;

/** Wraps one run so that a wrong amount of streamed text fails the benchmark instead of flattering it. */
const checked = (implName, expected, run) => async () => {
  const n = await run();
  if (n !== expected) throw new Error(`${implName} received ${n} characters, expected ${expected}`);
};

const repeat = (times, run) => async () => {
  for (let i = 0; i < times; i++) await run();
};

export const WORKLOADS = [
  {
    id: 'W1',
    title: `W1 stream ${W1_CHUNKS / 1000}k chunks`,
    unit: 'ns/chunk',
    per: (ms) => (ms * 1e6) / W1_CHUNKS,
    runs: { local: 15, peer: 5 },
    make: (impl) => checked(impl.name, W1_CHUNKS * 4, impl.stream(W1_CHUNKS)),
  },
  {
    id: 'W2',
    title: `W2 tool loop ${W2_TURNS} turns`,
    unit: 'µs/turn',
    per: (ms) => (ms * 1e3) / W2_TURNS,
    runs: { local: 15, peer: 5 },
    make: (impl) => checked(impl.name, 4, impl.toolLoop(W2_TURNS)),
  },
  {
    id: 'W3',
    title: `W3 transfer A→B, ${W3_CHUNKS} chunks ×${W3_REPEAT}`,
    unit: 'µs/run',
    per: (ms) => (ms * 1e3) / W3_REPEAT,
    runs: { local: 7, peer: 5 },
    make: (impl) => repeat(W3_REPEAT, checked(impl.name, W3_CHUNKS * 4, impl.transfer(W3_CHUNKS))),
  },
  {
    id: 'W4',
    title: `W4 parallel ${W4_CHILDREN}×${W4_DELAY_MS} ms`,
    unit: 'ms wall',
    per: (ms) => ms,
    runs: { local: 7, peer: 7 },
    make: (impl) => (impl.parallel ? impl.parallel(W4_CHILDREN, W4_DELAY_MS) : undefined),
    unsupported: (impl) => impl.parallelUnsupported,
  },
];

/**
 * The order matters. Once either peer has run, every promise in the process costs more: both turn
 * on AsyncLocalStorage context propagation (@openai/agents calls enterWith in its tracing context,
 * LangChain keeps its callback context in one), and that stays on. The bare baseline's W1 goes from
 * ~150 to ~1,200 ns/chunk after one @openai/agents run. So adk and the baseline are measured first,
 * interleaved with each other, then each peer with all its workloads: every implementation gets a
 * process that only it (and what ran before it) has touched, and the peers pay for their own hooks.
 */
const PHASES = [
  { kind: 'local', impls: ['adk', 'baseline'] },
  { kind: 'peer', impls: ['@openai/agents'] },
  { kind: 'peer', impls: ['langgraph'] },
];

/** Runs W1–W4 (or those in `only`); returns rows {id, workload, impl, value, min, max, unit, ratio, note}. */
export async function benchWorkloads({ only, log = () => {} } = {}) {
  const impls = await loadImpls();
  const results = new Map(); // `${id}|${impl}` -> measure summary
  const rows = [];
  const workloads = WORKLOADS.filter((w) => !only || only.includes(w.id));
  for (const phase of PHASES) {
    const members = impls.filter((i) => phase.impls.includes(i.name));
    if (!members.length) continue;
    log(`${phase.impls.join(' + ')}: ${workloads.map((w) => w.id).join(' ')} …`);
    for (const w of workloads) {
      const fns = {};
      for (const impl of members) {
        const fn = w.make(impl);
        if (fn) fns[impl.name] = fn;
        else rows.push({ id: w.id, workload: w.title, impl: impl.name, unit: w.unit, note: `n/a: ${w.unsupported?.(impl) ?? 'no equivalent'}` });
      }
      const runs = w.runs[phase.kind];
      for (const [name, r] of Object.entries(await measureInterleaved(fns, { runs, warmup: phase.kind === 'local' ? 2 : 1 }))) results.set(`${w.id}|${name}`, { ...r, runs });
    }
  }
  for (const w of workloads) {
    const base = results.get(`${w.id}|baseline`);
    for (const impl of impls) {
      const r = results.get(`${w.id}|${impl.name}`);
      if (!r) continue;
      const value = w.per(r.median);
      rows.push({
        id: w.id,
        workload: w.title,
        impl: impl.name,
        value,
        min: w.per(r.min),
        max: w.per(r.max),
        unit: w.unit,
        ratio: base ? value / w.per(base.median) : undefined,
        runs: r.runs,
      });
    }
  }
  const order = (r) => WORKLOADS.findIndex((w) => w.id === r.id) * 10 + impls.findIndex((i) => i.name === r.impl);
  return rows.sort((a, b) => order(a) - order(b));
}
