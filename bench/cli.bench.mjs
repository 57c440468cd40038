// W6: whole-process CLI timings. `adk --version` against `node -e 0`, and the time until the first
// `delta` line of `adk run --json` against a local OpenAI-compatible server. Median of 10 runs each.
// Run once per Node binary: this process's, and Node 24 where run.mjs has one (ids W6v24, W6d24).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { summary } from './harness.mjs';
import { startSseServer } from './sse-server.mjs';

const ADK = fileURLToPath(new URL('../bin/adk.js', import.meta.url));
const RUNS = 10;

/** Spawns a process; resolves with ms until exit and ms until the first stdout line matching `until`. */
function timeProcess(node, args, { env, cwd, until } = {}) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(node, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let firstMatch;
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d) => {
      out += d;
      if (firstMatch === undefined && until && out.split('\n').some((l) => until.test(l))) firstMatch = performance.now() - t0;
    });
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const total = performance.now() - t0;
      if (code !== 0) return reject(new Error(`${args.join(' ')} exited with ${code}: ${err.trim() || out.trim()}`));
      if (until && firstMatch === undefined) return reject(new Error(`${args.join(' ')} printed no line matching ${until}: ${out.slice(0, 300)}`));
      resolve({ total, first: firstMatch, out });
    });
  });
}

async function sample(fns, runs, warmup = 2) {
  for (let i = 0; i < warmup; i++) for (const fn of Object.values(fns)) await fn();
  const s = Object.fromEntries(Object.keys(fns).map((k) => [k, []]));
  for (let i = 0; i < runs; i++) for (const [k, fn] of Object.entries(fns)) s[k].push(await fn());
  return Object.fromEntries(Object.entries(s).map(([k, v]) => [k, summary(v)]));
}

/**
 * Returns rows: W6 version (adk, node -e 0) and W6 first delta (adk), all run by `node` (default: this
 * process's binary). With `suffix` (another Node's major, '24') the ids become W6v24 and W6d24 and the
 * workload names say which Node ran them.
 */
export async function benchCli({ log = () => {}, node = process.execPath, suffix = '' } = {}) {
  const nodeVersion = suffix ? execFileSync(node, ['--version'], { encoding: 'utf8' }).trim() : process.version;
  const on = suffix ? ` (node ${nodeVersion})` : '';
  log(`W6 CLI${on} …`);
  const rows = [];
  const version = await sample(
    {
      node: async () => (await timeProcess(node, ['-e', '0'])).total,
      adk: async () => {
        const r = await timeProcess(node, [ADK, '--version']);
        if (!/\d+\.\d+\.\d+/.test(r.out)) throw new Error(`adk --version printed ${JSON.stringify(r.out)}`);
        return r.total;
      },
    },
    RUNS,
  );
  const title = `W6 \`adk --version\` vs \`node -e 0\`${on}`;
  rows.push({ id: `W6v${suffix}`, workload: title, impl: 'baseline', ...pick(version.node), unit: 'ms', node: nodeVersion, note: '`node -e 0`' });
  rows.push({ id: `W6v${suffix}`, workload: title, impl: 'adk', ...pick(version.adk), unit: 'ms', node: nodeVersion, overhead: version.adk.median - version.node.median });

  const server = await startSseServer();
  const cwd = mkdtempSync(join(tmpdir(), 'adk-bench-cli-'));
  const env = { ...process.env, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'bench-key', ADK_MODEL: 'bench-model', NO_COLOR: '1' };
  try {
    const first = await sample({ adk: async () => (await timeProcess(node, [ADK, 'run', '--json', 'hi'], { env, cwd, until: /"type":"delta"/ })).first }, RUNS);
    rows.push({ id: `W6d${suffix}`, workload: `W6 \`adk run --json\` first delta${on}`, impl: 'adk', ...pick(first.adk), unit: 'ms', node: nodeVersion, note: `local SSE server, ${server.requests} requests` });
  } finally {
    await server.close();
    rmSync(cwd, { recursive: true, force: true });
  }
  return rows;
}

const pick = (s) => ({ value: s.median, min: s.min, max: s.max, runs: s.samples.length });
