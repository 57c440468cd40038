// W7: the Ink REPL under a 20,000-token stream in a fake 120×40 terminal (alone and after 100 turns,
// with the memory that takes), keystroke cost in a 500-message session, and `adk resume` of 100 turns.
// Each variant runs in a child process. Needs the compiled UI (dist/ui).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const APP = new URL('../dist/ui/app/ChatApp.js', import.meta.url);
const CHILD_SOURCE = fileURLToPath(new URL('./tui/child.mjs', import.meta.url));
const CHILD_DIR = fileURLToPath(new URL('../dist/bench/tui/', import.meta.url));
const CHILD = `${CHILD_DIR}child.js`;

/**
 * The bench child bundled as adk ships (scripts/bundle.mjs): Ink with the CLI bundle's Output
 * (src/ui/ink-output/fast-output.ts), so W7 measures what people run, not the library's Ink.
 */
async function bundleChild() {
  const { build } = await import('esbuild');
  const { fastInkOutput } = await import('../scripts/fast-ink-output.mjs');
  await build({
    entryPoints: [CHILD_SOURCE],
    outdir: CHILD_DIR,
    entryNames: '[name]',
    // Ink loads its devtools (and react-devtools-core, not installed) only when asked: a chunk of its own.
    splitting: true,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    external: ['react-devtools-core'],
    plugins: [fastInkOutput],
    banner: { js: "import { createRequire as __benchCreateRequire } from 'node:module'; const require = __benchCreateRequire(import.meta.url);" },
  });
}

// bin/adk.js sets NODE_ENV=production before React loads, so that is what ships and what the
// target is checked on; the development build (what a test or an embedder may get) is shown too.
const VARIANTS = [
  { label: 'NODE_ENV=production, as bin/adk.js runs it', env: { NODE_ENV: 'production' }, shipped: true },
  { label: 'React development build', env: { NODE_ENV: 'development' }, suffix: 'dev' },
];

export async function benchTui({ log = () => {} } = {}) {
  if (!existsSync(APP)) {
    return [{ id: 'W7', workload: 'W7 TUI', impl: 'adk', note: 'pending: the Ink app (dist/ui/app/ChatApp.js) is not built yet' }];
  }
  const rows = [];
  await bundleChild();
  for (const v of VARIANTS) {
    log(`W7 TUI, ${v.label} …`);
    const env = { ...process.env, ...v.env };
    // The 100-turn session in a process of its own: its memory is not the earlier workloads'.
    const parts = [];
    for (const part of ['main', 'session']) {
      const { stdout } = await run(process.execPath, ['--expose-gc', CHILD], { env: { ...env, W7_PART: part }, maxBuffer: 1 << 20, timeout: 180_000 });
      parts.push(...JSON.parse(stdout.trim().split('\n').pop()));
    }
    for (const r of parts) {
      rows.push({ ...r, workload: `${r.workload} (${v.label})`, id: v.shipped ? r.id : `${r.id}${v.suffix}`, variant: v.label });
    }
  }
  log('W7 adk resume of 100 turns …');
  try {
    const { benchResume } = await import('./tui/resume-time.mjs');
    const { times, allTimes, rss, peak } = await benchResume();
    rows.push({ id: 'W7r', workload: 'W7 TUI: `adk resume` of 100 turns of markdown to the input box (tmux 120×40)', impl: 'adk', value: times[times.length >> 1], min: times[0], max: times[times.length - 1], unit: 'ms', runs: times.length, note: 'whole process, NODE_ENV=production; target ≤ 1000 ms' });
    rows.push({ id: 'W7r-all', workload: 'W7 TUI: the same, to the last turn written above the input box', impl: 'adk', value: allTimes[allTimes.length >> 1], min: allTimes[0], max: allTimes[allTimes.length - 1], unit: 'ms', runs: allTimes.length, note: 'older turns reach the scrollback a batch per frame after the input box; no target' });
    if (rss.length) rows.push({ id: 'W7rm', workload: 'W7 TUI: memory of `adk resume` of 100 turns, all written (tmux 120×40)', impl: 'adk', value: rss[rss.length >> 1], min: rss[0], max: rss[rss.length - 1], unit: 'MB RSS', runs: rss.length, note: `the real adk process (/proc VmRSS) 3 s after the last turn is written; target ≤ 200 MB; peak (VmHWM) ${peak[0].toFixed(0)}–${peak[peak.length - 1].toFixed(0)} MB while drawing` });
  } catch (e) {
    rows.push({ id: 'W7r', workload: 'W7 TUI: `adk resume` of 100 turns', impl: 'adk', note: `not measured: ${String(e.message).split('\n')[0]}` });
  }
  return rows;
}
