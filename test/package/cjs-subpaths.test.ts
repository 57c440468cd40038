import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Issue 29 item b: every subpath of the package has a CommonJS entry. `npm pack`, install the
// tarball into a fresh CommonJS project, `require()` each subpath and compare what it exports with
// what `import` gives (needs the built dist/, as the other package tests do).
const run = promisify(execFile);
const root = resolve('.');
const app = mkdtempSync(join(tmpdir(), 'adk-cjs-'));
const SUBPATHS = ['adk', 'adk/conversation', 'adk/stores', 'adk/tools', 'adk/mcp', 'adk/config', 'adk/testing'];

const PROBE = `'use strict';
const out = {};
for (const spec of ${JSON.stringify(SUBPATHS)}) {
  try {
    out[spec] = Object.keys(require(spec)).filter((k) => k !== '__esModule').sort();
  } catch (e) {
    out[spec] = { error: e.code || e.message };
  }
}
let same;
try {
  const t = require('adk/testing').InMemoryCheckpointStore;
  same = t === require('adk').InMemoryCheckpointStore && t === require('adk/stores').InMemoryCheckpointStore
    && require('adk/conversation').openAdkStores === require('adk/stores').openAdkStores;
} catch (e) {
  same = String(e.code || e.message);
}
process.stdout.write(JSON.stringify({ exports: out, same }));
`;

const ESM_PROBE = `const out = {};
for (const spec of ${JSON.stringify(SUBPATHS)}) out[spec] = Object.keys(await import(spec)).filter((k) => k !== 'default').sort();
process.stdout.write(JSON.stringify(out));
`;

beforeAll(async () => {
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', app], { cwd: root, maxBuffer: 64 << 20 });
  const tarball = join(app, (JSON.parse(stdout) as Array<{ filename: string }>)[0]!.filename);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'cjs-consumer', private: true, type: 'commonjs' }));
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--omit=optional', tarball], { cwd: app, maxBuffer: 64 << 20 });
  writeFileSync(join(app, 'probe.cjs'), PROBE);
  writeFileSync(join(app, 'probe.mjs'), ESM_PROBE);
}, 300_000);

afterAll(() => rmSync(app, { recursive: true, force: true }));

describe('CommonJS entries for every subpath (packed install)', () => {
  it("require() of each subpath gives the exports import gives, and one copy of each class across entries", async () => {
    const cjs = JSON.parse((await run(process.execPath, ['probe.cjs'], { cwd: app })).stdout) as { exports: Record<string, string[] | { error: string }>; same: unknown };
    const esm = JSON.parse((await run(process.execPath, ['probe.mjs'], { cwd: app })).stdout) as Record<string, string[]>;
    const failures = Object.fromEntries(Object.entries(cjs.exports).filter(([, v]) => !Array.isArray(v)));
    expect(failures).toEqual({});
    for (const spec of SUBPATHS) {
      expect(esm[spec]!.length, spec).toBeGreaterThan(0);
      expect(cjs.exports[spec], spec).toEqual(esm[spec]);
    }
    expect(cjs.exports['adk/stores']).toEqual(expect.arrayContaining(['SessionStore', 'openAdkStores', 'InMemoryCheckpointStore']));
    expect(cjs.exports['adk/mcp']).toEqual(expect.arrayContaining(['McpServerPool']));
    expect(cjs.same).toBe(true);
  }, 60_000);

  // Issue 43, item 10: TypeScript projects that compile to CommonJS. Under `module: node16` the
  // `.d.ts` of a "type": "module" package is an ES module: `import adk = require('adk')` was TS1471;
  // under `moduleResolution: node10` the subpaths had no types at all (TS2307).
  for (const [mode, options, source] of [
    ['node16', { module: 'node16', moduleResolution: 'node16' }, "import adk = require('adk');\nimport stores = require('adk/stores');\nimport conv = require('adk/conversation');\nexport const names: string[] = [typeof adk.Runner, typeof stores.openAdkStores, typeof conv.Conversation];\nexport let runner: adk.Runner | undefined;\n"],
    ['node10', { module: 'commonjs', moduleResolution: 'node10' }, "import { Runner } from 'adk';\nimport { openAdkStores } from 'adk/stores';\nimport { validateConfig } from 'adk/config';\nexport const names: string[] = [typeof Runner, typeof openAdkStores, typeof validateConfig];\n"],
  ] as const) {
    it(`a CommonJS TypeScript project (${mode}) type-checks its imports of adk and its subpaths`, async () => {
      const dir = join(app, `ts-${mode}`);
      await run('mkdir', ['-p', dir]);
      writeFileSync(join(dir, 'index.ts'), source);
      const compilerOptions = { ...options, target: 'es2022', strict: true, noEmit: true, skipLibCheck: true, types: ['node'], typeRoots: [join(root, 'node_modules/@types')] };
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['index.ts'] }));
      const tsc = join(root, 'node_modules/typescript/bin/tsc');
      const r = await run(process.execPath, [tsc, '-p', dir], { cwd: dir }).then(
        () => '',
        (e: { stdout?: string }) => e.stdout ?? String(e),
      );
      expect(r).toBe('');
    }, 120_000);
  }
});
