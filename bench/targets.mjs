// Issue 7's targets, each checked against figures measured in the same run.
const PEERS = ['@openai/agents', 'langgraph'];

const find = (rows, id, impl) => rows.find((r) => r.id === id && r.impl === impl && r.value !== undefined);
const x = (n) => `${n.toFixed(2)}×`;

/** The fastest peer's row for a workload (lowest median), if any peer ran it. */
function fastestPeer(rows, id) {
  return PEERS.map((p) => find(rows, id, p))
    .filter(Boolean)
    .sort((a, b) => a.value - b.value)[0];
}

function vsPeer(rows, id, label) {
  const adk = find(rows, id, 'adk');
  const peer = fastestPeer(rows, id);
  if (!adk || !peer) return { id, target: `${label}: adk ≤ ½ of the fastest peer`, status: 'n/a', detail: 'adk or peer figures missing' };
  const ratio = adk.value / peer.value;
  return {
    id,
    target: `${label}: adk ≤ ½ of the fastest peer`,
    status: ratio <= 0.5 ? 'pass' : 'FAIL',
    detail: `adk ${fmtV(adk)} vs ${peer.impl} ${fmtV(peer)} = ${x(ratio)}`,
  };
}

const fmtV = (r) => `${r.value >= 100 ? r.value.toFixed(0) : r.value.toFixed(1)} ${r.unit}`;

/** Returns [{id, target, status: 'pass'|'FAIL'|'pending'|'n/a', detail}]. */
export function evaluateTargets(rows) {
  const out = [];
  const w1 = find(rows, 'W1', 'adk');
  const w1b = find(rows, 'W1', 'baseline');
  if (w1 && w1b) {
    const r = w1.value / w1b.value;
    out.push({ id: 'W1', target: 'W1: adk ≤ 5× the bare baseline', status: r <= 5 ? 'pass' : 'FAIL', detail: `${fmtV(w1)} vs ${fmtV(w1b)} = ${x(r)}` });
  }
  out.push(vsPeer(rows, 'W1', 'W1'));
  out.push(vsPeer(rows, 'W2', 'W2'));
  out.push(vsPeer(rows, 'W3', 'W3'));

  const w4 = find(rows, 'W4', 'adk');
  if (w4) out.push({ id: 'W4', target: 'W4: wall time ≤ 110 ms (ideal 100 ms)', status: w4.value <= 110 ? 'pass' : 'FAIL', detail: `median ${fmtV(w4)}, min ${w4.min.toFixed(1)} ms` });

  const w5 = rows.filter((r) => r.id === 'W5' && r.value !== undefined && /1[,_]?000\b/.test(r.name ?? ''));
  if (w5.length) {
    const worst = w5.reduce((a, b) => (b.value > a.value ? b : a));
    out.push({
      id: 'W5',
      target: 'W5: save and load < 10 ms at 1,000 messages',
      status: w5.every((r) => r.value < 10) ? 'pass' : 'FAIL',
      detail: w5.map((r) => `${r.name} ${r.value.toFixed(2)} ms`).join(', ') + (w5.length > 1 ? ` (worst ${worst.name})` : ''),
    });
  } else {
    out.push({ id: 'W5', target: 'W5: save and load < 10 ms at 1,000 messages', status: 'pending', detail: rows.find((r) => r.id === 'W5')?.note ?? 'no W5 figures' });
  }

  const v = find(rows, 'W6v', 'adk');
  if (v) out.push({ id: 'W6', target: 'W6: `adk --version` ≤ 150 ms over `node -e 0`', status: v.overhead <= 150 ? 'pass' : 'FAIL', detail: `+${v.overhead.toFixed(0)} ms (${fmtV(v)} vs ${fmtV(find(rows, 'W6v', 'baseline'))})` });

  const w7 = rows.filter((r) => r.id === 'W7' && r.impl === 'adk');
  const tui = w7.find((r) => r.fps !== undefined);
  if (!tui) out.push({ id: 'W7', target: 'W7: ≤ 30 fps, no full-screen clears, CPU ≤ 25% of the stream', status: 'pending', detail: w7[0]?.note ?? 'no W7 figures' });
  else {
    const ok = tui.fps <= 30 && tui.fullClears === 0 && tui.cpuShare <= 0.25;
    out.push({
      id: 'W7',
      target: 'W7: ≤ 30 fps, no full-screen clears, CPU ≤ 25% of the stream',
      status: ok ? 'pass' : 'FAIL',
      detail: `${tui.fps.toFixed(1)} fps, ${tui.fullClears} full clears, CPU ${(tui.cpuShare * 100).toFixed(0)}% of ${tui.durationMs.toFixed(0)} ms`,
    });
  }
  return out;
}
