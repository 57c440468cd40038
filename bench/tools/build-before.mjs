// Builds node_modules/.cache/adk-bench-before: a copy of ./dist whose optimised files are put back
// as they are at a git revision (default HEAD), for before/after figures:
//   node bench/tools/build-before.mjs [rev]
//   ADK_BENCH_DIST=node_modules/.cache/adk-bench-before node --expose-gc bench/run.mjs --only W1,W2,W3
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

const rev = process.argv[2] ?? 'HEAD';
const FILES = ['src/core/schema/message-stream.ts', 'src/core/async-queue.ts', 'src/core/models/scripted.ts', 'src/core/agents/model-step.ts'];
const out = 'node_modules/.cache/adk-bench-before';
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
cpSync('dist', out, { recursive: true });
const tmp = mkdtempSync(join(tmpdir(), 'adk-before-'));
for (const f of FILES) {
  const src = join(tmp, basename(f));
  writeFileSync(src, execFileSync('git', ['show', `${rev}:${f}`], { encoding: 'utf8' }));
  // Imports of sibling modules do not resolve here; tsc still emits the file, which is all we need.
  try {
    execFileSync('npx', ['tsc', '--target', 'es2022', '--module', 'esnext', '--moduleResolution', 'bundler', '--skipLibCheck', '--outDir', tmp, src], { stdio: 'ignore' });
  } catch {
    /* type errors from the unresolved imports */
  }
  cpSync(join(tmp, basename(f).replace(/\.ts$/, '.js')), join(out, f.replace(/^src\//, '').replace(/\.ts$/, '.js')));
}
rmSync(tmp, { recursive: true, force: true });
console.log(`${out}: dist with ${FILES.length} files from ${rev}`);
