import type { EvalResults } from './report.js';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const pct = (x: number) => (Number.isNaN(x) ? '—' : `${(x * 100).toFixed(0)}%`);
const usd = (x: number) => (Number.isNaN(x) ? '—' : `$${x.toFixed(x < 1 ? 4 : 2)}`);

/**
 * The run as one HTML file (no server, no script): the summary table, a task × configuration grid
 * of trials (✓/✗, each linking its trajectory), cost against pass rate per configuration (SVG), and
 * the comparisons. Every string from a task or a run is escaped.
 */
export function htmlReport(r: EvalResults): string {
  const rows = r.configs
    .map((c) => {
      const s = r.summary[c.name]!;
      return `<tr><th>${esc(c.name)}</th><td>${s.passed}/${s.ran}${s.skipped ? ` (+${s.skipped} skipped)` : ''}</td><td>${pct(s.passAt1)}</td><td>${pct(s.passAtK)}</td><td>${usd(s.meanCostUsd)}</td><td>${Math.round(s.meanInputTokens)}/${Math.round(s.meanOutputTokens)}</td><td>${s.meanModelCalls.toFixed(1)}</td><td>${s.meanToolCalls.toFixed(1)}</td><td>${(s.meanWallMs / 1000).toFixed(1)} s</td></tr>`;
    })
    .join('\n');
  const grid = r.tasks
    .map((t) => {
      const cells = r.configs
        .map((c) => {
          const trials = r.results.filter((x) => x.task === t && x.config === c.name);
          const marks = trials
            .map((x) => {
              const mark = x.status === 'passed' ? '✓' : x.status === 'skipped' ? '–' : '✗';
              const title = esc(`#${x.trial} ${x.status}${x.failure ? ` (${x.failure})` : ''}${x.note ? `: ${x.note}` : ''}`);
              const cls = x.status;
              return x.trajectory ? `<a class="${cls}" href="${esc(x.trajectory)}" title="${title}">${mark}</a>` : `<span class="${cls}" title="${title}">${mark}</span>`;
            })
            .join('');
          return `<td>${marks}</td>`;
        })
        .join('');
      return `<tr><th>${esc(t)}</th>${cells}</tr>`;
    })
    .join('\n');
  const maxCost = Math.max(1e-9, ...r.configs.map((c) => r.summary[c.name]!.meanCostUsd || 0));
  const points = r.configs
    .map((c, i) => {
      const s = r.summary[c.name]!;
      const x = 40 + ((s.meanCostUsd || 0) / maxCost) * 320;
      const y = 180 - (Number.isNaN(s.passAt1) ? 0 : s.passAt1) * 160;
      return `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="5" class="c${i % 6}"><title>${esc(c.name)}: ${pct(s.passAt1)} at ${usd(s.meanCostUsd)}</title></circle><text x="${(x + 8).toFixed(1)}" y="${(y + 4).toFixed(1)}">${esc(c.name)}</text>`;
    })
    .join('');
  const comparisons = r.comparisons
    .map((c) => `<li>${esc(c.config)} vs ${esc(c.baseline)}: ${(c.difference * 100).toFixed(0)} points (95% interval ${(c.low * 100).toFixed(0)} to ${(c.high * 100).toFixed(0)})${c.withinNoise ? ' — <strong>within noise</strong>' : ''}</li>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>adk eval · ${esc(r.startedAt)}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#1d2433}
table{border-collapse:collapse;margin:1rem 0}th,td{padding:.3rem .6rem;border-bottom:1px solid #dde2ea;text-align:left}
.passed{color:#137333}.failed{color:#b3261e}.skipped{color:#7a7f87}a{text-decoration:none;margin-right:.2rem}
svg text{font-size:11px}.c0{fill:#1a73e8}.c1{fill:#e37400}.c2{fill:#137333}.c3{fill:#a142f4}.c4{fill:#b3261e}.c5{fill:#007b83}
</style></head><body>
<h1>adk eval</h1>
<p>${r.tasks.length} tasks × ${r.configs.length} configurations × ${r.trials} trials · ${esc(r.startedAt)} → ${esc(r.finishedAt)}</p>
<h2>Summary</h2>
<table><thead><tr><th>config</th><th>passed</th><th>pass@1</th><th>pass@${r.trials}</th><th>mean cost</th><th>tokens in/out</th><th>model calls</th><th>tool calls</th><th>time</th></tr></thead><tbody>
${rows}
</tbody></table>
${comparisons ? `<h2>Side by side</h2><ul>${comparisons}</ul>` : ''}
<h2>Tasks</h2>
<table><thead><tr><th>task</th>${r.configs.map((c) => `<th>${esc(c.name)}</th>`).join('')}</tr></thead><tbody>
${grid}
</tbody></table>
<h2>Cost and pass rate</h2>
<svg width="420" height="210" role="img" aria-label="mean cost against pass@1 per configuration"><line x1="40" y1="180" x2="380" y2="180" stroke="#999"/><line x1="40" y1="20" x2="40" y2="180" stroke="#999"/><text x="4" y="24">100%</text><text x="16" y="184">0%</text><text x="300" y="200">${usd(maxCost)}</text>${points}</svg>
</body></html>
`;
}
