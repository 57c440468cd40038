// The printed report: one summary table (rows adk, baseline, peers; a column per workload), a
// detail table with min/max and ratios, and the targets with pass/fail.
import { fmt, formatTable } from './harness.mjs';

export const IMPL_ROWS = ['adk', 'baseline', '@openai/agents', 'langgraph'];

const COLUMNS = [
  { id: 'W1', head: 'W1 stream ns/chunk' },
  { id: 'W2', head: 'W2 tools µs/turn' },
  { id: 'W3', head: 'W3 transfer µs/run' },
  { id: 'W4', head: 'W4 parallel ms' },
  { id: 'W5', head: 'W5 ckpt 1k ms', cell: w5Cell },
  { id: 'W6v', head: 'W6 --version ms' },
  { id: 'W6d', head: 'W6 1st delta ms' },
  { id: 'W6v24', head: 'W6 --version ms, node 24', optional: true },
  { id: 'W6d24', head: 'W6 1st delta ms, node 24', optional: true },
  { id: 'W7', head: 'W7 TUI', cell: w7Cell },
  { id: 'MemW1', head: 'RSS W1 MB' },
  { id: 'MemS', head: 'RSS 10k ev MB' },
  { id: 'W8', head: 'W8 save/turn 10→100k', cell: w8Cell },
  { id: 'W8l', head: 'W8 sessions ms' },
];

function w8Cell(rows, impl) {
  if (impl !== 'adk') return '—';
  const sq = rows.filter((r) => r.id === 'W8' && r.value !== undefined && /SQLite/.test(r.workload));
  if (!sq.length) return rows.some((r) => r.id === 'W8') ? 'failed' : '—';
  return `${fmt(sq[0].value, 2)}→${fmt(sq.at(-1).value, 2)} ms`;
}

function w5Cell(rows, impl) {
  if (impl !== 'adk') return '—';
  const at1k = rows.filter((r) => r.id === 'W5' && r.value !== undefined && /1[,_]?000\b/.test(r.name ?? ''));
  if (!at1k.length) return rows.some((r) => r.id === 'W5') ? 'pending' : '—';
  const worst = (re) => Math.max(...at1k.filter((r) => re.test(r.name)).map((r) => r.value));
  return `save ${fmt(worst(/save/), 2)} / load ${fmt(worst(/load/), 2)}`;
}

function w7Cell(rows, impl) {
  if (impl !== 'adk') return '—';
  const r = rows.find((x) => x.id === 'W7' && x.fps !== undefined);
  if (!r) return rows.some((x) => x.id === 'W7') ? 'pending' : '—';
  return `${fmt(r.fps)} fps, ${fmt(r.cpuShare * 100, 0)}% CPU`;
}

function cell(rows, id, impl) {
  const r = rows.find((x) => x.id === id && x.impl === impl);
  if (!r) return '—';
  if (r.value === undefined) return 'n/a';
  return fmt(r.value);
}

export function summaryTable(rows) {
  // An optional column (W6 on Node 24) shows only when the run measured it.
  const columns = COLUMNS.filter((c) => !c.optional || rows.some((r) => r.id === c.id));
  return formatTable(
    ['impl', ...columns.map((c) => c.head)],
    IMPL_ROWS.map((impl) => [impl, ...columns.map((c) => (c.cell ? c.cell(rows, impl) : cell(rows, c.id, impl)))]),
  );
}

/** Median, min, max per measured row, with the ratio to the baseline and to the fastest peer. */
export function detailTable(rows) {
  const fastestPeer = (id) =>
    rows.filter((r) => r.id === id && r.value !== undefined && (r.impl === '@openai/agents' || r.impl === 'langgraph')).sort((a, b) => a.value - b.value)[0];
  const body = rows.map((r) => {
    const peer = fastestPeer(r.id);
    const vsPeer = r.impl === 'adk' && peer && r.value !== undefined ? `${(r.value / peer.value).toFixed(2)}×` : '';
    const label = r.name ? `${r.workload}: ${r.name}` : r.workload;
    const extra = [
      r.ratio !== undefined && r.impl !== 'baseline' ? `${r.ratio.toFixed(2)}× baseline` : '',
      r.overhead !== undefined ? `+${fmt(r.overhead)} ms over node` : '',
      r.growth !== undefined ? `+${fmt(r.growth)} MB over idle` : '',
      r.bytes !== undefined && r.id === 'W8' ? `${fmt(r.bytes, 0)} B written` : '',
      r.before ? `before (whole record): ${fmt(r.before.ms, 2)} ms, ${fmt(r.before.bytes, 0)} B` : '',
      r.id === 'W5' && r.bytes !== undefined ? `${r.bytes} bytes` : '',
      r.note ?? '',
    ]
      .filter(Boolean)
      .join('; ');
    return [label, r.impl, fmt(r.value), fmt(r.min), fmt(r.max), r.unit ?? '', vsPeer, extra];
  });
  return formatTable(['workload', 'impl', 'median', 'min', 'max', 'unit', 'adk/fastest peer', 'notes'], body);
}

export function targetLines(targets) {
  const mark = { pass: 'PASS', FAIL: 'FAIL', pending: 'PENDING', 'n/a': 'N/A' };
  return targets.map((t) => `[${mark[t.status] ?? t.status}] ${t.target} — ${t.detail}`).join('\n');
}
