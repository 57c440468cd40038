// Summarises a .cpuprofile: self and inclusive time per function (file:line:function), top N.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

const [file, top = '25'] = process.argv.slice(2);
const prof = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const dt = new Map();
for (let i = 0; i < prof.samples.length; i++) dt.set(prof.samples[i], (dt.get(prof.samples[i]) ?? 0) + (prof.timeDeltas[i] ?? 0));
const total = [...dt.values()].reduce((a, b) => a + b, 0);
const key = (n) => {
  const f = n.callFrame;
  const url = f.url ? relative(process.cwd(), f.url.replace('file://', '')) : '';
  return `${url || '(native)'}:${f.lineNumber + 1}:${f.functionName || '(anonymous)'}`;
};
const self = new Map();
const incl = new Map();
for (const [id, t] of dt) {
  const n = byId.get(id);
  self.set(key(n), (self.get(key(n)) ?? 0) + t);
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const k = key(byId.get(cur));
    if (seen.has(k)) continue;
    seen.add(k);
    incl.set(k, (incl.get(k) ?? 0) + t);
  }
}
const show = (title, m) => {
  console.log(`\n${title} (total ${(total / 1000).toFixed(0)} ms)`);
  for (const [k, t] of [...m].sort((a, b) => b[1] - a[1]).slice(0, Number(top))) console.log(`${((100 * t) / total).toFixed(1).padStart(5)}%  ${k}`);
};
show('self time', self);
show('inclusive time', incl);
