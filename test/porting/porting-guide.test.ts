import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { transformSync } from 'esbuild';
import { describe, expect, it } from 'vitest';

// Issue 43: "the porting items in the porting guide's examples". Every ```ts block of docs/porting.md
// runs as a Go developer would paste it: an ES module importing 'adk' (the built package), each block
// asserting what the page says it shows (it throws otherwise).
const root = resolve('.');
const blocks = [...readFileSync(join(root, 'docs/porting.md'), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);

describe('docs/porting.md', () => {
  it('has an example for each porting trap', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(6);
  });

  it.each(blocks.map((code, i) => [i + 1, code] as const))('example %i runs as written', (_n, code) => {
    const dir = mkdtempSync(join(tmpdir(), 'adk-porting-'));
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(root, join(dir, 'node_modules', 'adk'));
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    writeFileSync(join(dir, 'example.mjs'), transformSync(code, { loader: 'ts', format: 'esm', target: 'node20' }).code);
    const out = execFileSync(process.execPath, [join(dir, 'example.mjs')], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(out).toBe('');
  });
});
