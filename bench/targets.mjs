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

  // Issue 16: both against `node -e 0` measured in the same run, by the same Node (issue 29: W6v24 and
  // W6d24 are the Node 24 figures, when run.mjs had a Node 24).
  for (const suffix of ['', '24']) {
    const v = find(rows, `W6v${suffix}`, 'adk');
    const node = find(rows, `W6v${suffix}`, 'baseline');
    const on = suffix ? ` (node ${node?.node ?? suffix})` : '';
    if (v && node) {
      const ratio = v.value / node.value;
      out.push({ id: 'W6', target: `W6${on}: \`adk --version\` ≤ 1.3× \`node -e 0\``, status: ratio <= 1.3 ? 'pass' : 'FAIL', detail: `${ratio.toFixed(2)}× (${fmtV(v)} vs ${fmtV(node)})` });
    }
    const d = find(rows, `W6d${suffix}`, 'adk');
    if (d && node) {
      const ratio = d.value / node.value;
      out.push({ id: 'W6', target: `W6${on}: \`adk run --json\` first delta ≤ 2.5× \`node -e 0\``, status: ratio <= 2.5 ? 'pass' : 'FAIL', detail: `${ratio.toFixed(2)}× (${fmtV(d)} vs ${fmtV(node)})` });
    }
  }

  const tall = find(rows, 'W7t', 'adk');
  if (tall) out.push({ id: 'W7', target: 'W7: no full-screen clear while typing under a tall input (100×20)', status: tall.fullClears === 0 ? 'pass' : 'FAIL', detail: `${tall.fullClears} clears; ${fmtV(tall)} per keystroke` });
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

  // Issue 32: the 20k-token stream at ≤ 20% of a core, alone and in a 100-turn session; that session in ≤ 200 MB; `adk resume` of it in ≤ 1 s.
  if (tui) out.push({ id: 'W7', target: 'W7 (issue 32): CPU ≤ 20% of a core during the 20k-token stream', status: tui.cpuShare <= 0.2 ? 'pass' : 'FAIL', detail: `${(tui.cpuShare * 100).toFixed(0)}%` });
  const inSession = find(rows, 'W7s', 'adk');
  if (inSession) out.push({ id: 'W7', target: 'W7 (issue 32): CPU ≤ 20% of a core during the stream in a 100-turn session', status: inSession.cpuShare <= 0.2 ? 'pass' : 'FAIL', detail: `${(inSession.cpuShare * 100).toFixed(0)}%` });
  for (const [id, what] of [['W7m', 'the in-process 100-turn session after the stream'], ['W7rm', '`adk resume` of 100 turns, resting']]) {
    const m = find(rows, id, 'adk');
    if (m) out.push({ id: 'W7', target: `W7 (issue 32): memory of ${what} ≤ 200 MB`, status: m.value <= 200 ? 'pass' : 'FAIL', detail: `${fmtV(m)}${m.max !== undefined ? ` (max ${m.max.toFixed(0)})` : ''}` });
  }
  const resume = find(rows, 'W7r', 'adk');
  if (resume) out.push({ id: 'W7', target: 'W7 (issue 32): `adk resume` of 100 turns to the input box ≤ 1 s', status: resume.max <= 1000 ? 'pass' : 'FAIL', detail: `${fmtV(resume)} (max ${resume.max.toFixed(0)} ms)` });

  // W8 (issue 14): the cost of a turn does not grow with the session; listing reads metadata and each session's newest 20 messages only; requests stay bounded.
  for (const kind of ['SQLite', 'Redis']) {
    const w8 = rows.filter((r) => r.id === 'W8' && r.value !== undefined && r.workload.includes(kind));
    const at = (n) => w8.find((r) => r.name?.startsWith(n));
    const small = at('10 '), big = at('100,000');
    if (small && big) {
      const ok = big.value <= 2 * Math.max(small.value, 0.5) && big.bytes <= 2 * small.bytes;
      out.push({ id: 'W8', target: `W8: a turn's save at 100,000 messages within 2× of 10 (${kind})`, status: ok ? 'pass' : 'FAIL', detail: `${small.value.toFixed(2)} ms / ${small.bytes} B at 10; ${big.value.toFixed(2)} ms / ${big.bytes} B at 100,000` });
    }
  }
  const list = rows.find((r) => r.id === 'W8l' && r.value !== undefined);
  if (list) out.push({ id: 'W8', target: 'W8: adk sessions over 200 sessions of 20,000 messages < 300 ms', status: list.value < 300 ? 'pass' : 'FAIL', detail: `${list.value.toFixed(0)} ms (${list.note})` });
  const req = rows.filter((r) => r.id === 'W8r' && r.impl === 'adk' && r.value !== undefined);
  if (req.length) {
    const max = Math.max(...req.map((r) => r.value));
    out.push({ id: 'W8', target: 'W8: request bytes per turn bounded by the window, not the session', status: max < 4000 * 8 ? 'pass' : 'FAIL', detail: req.map((r) => `${r.name}: ${r.value} B`).join(', ') });
  }
  // Issue 34: a turn through adk serve's LangGraph API costs at most 2 ms p50 more than through its own /v1 (same server, turns alternated).
  const w9 = find(rows, 'W9lg', 'adk');
  const w9lg = find(rows, 'W9lg', 'adk langgraph-api');
  if (w9 && w9lg) {
    const extra = w9lg.value - w9.value;
    out.push({ id: 'W9', target: "W9: a turn via adk serve's LangGraph API within 2 ms p50 of its own /v1", status: extra <= 2 ? 'pass' : 'FAIL', detail: `${extra >= 0 ? '+' : ''}${extra.toFixed(2)} ms (${fmtV(w9lg)} vs ${fmtV(w9)})` });
  }
  // Issue 31: ACP adds no more than 5 ms to a turn's first words over adk's own JSON Lines.
  const acp = find(rows, 'W10', 'adk acp');
  const jsonl = find(rows, 'W10', 'adk run --json');
  if (acp && jsonl) {
    const extra = acp.value - jsonl.value;
    out.push({ id: 'W10', target: 'W10: ACP first chunk within 5 ms of `adk run --json`’s first delta', status: extra <= 5 ? 'pass' : 'FAIL', detail: `${extra >= 0 ? '+' : ''}${extra.toFixed(1)} ms (${fmtV(acp)} vs ${fmtV(jsonl)})` });
  }
  return out;
}
