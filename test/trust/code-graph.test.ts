import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeManifest, describeCodeChange, validateConfig } from '../../src/core/config/index.js';
import { tempDir } from '../cli/helpers.js';

// Issue 28, HIGH 1, found again by review: ways trusted code loads other code that the import graph
// missed. For each, the manifest taken at trust time must see a later change of the loaded file.
const TOOL = (body: string) => `${body}\nexport default { name: 't', description: 'x', parameters: { type: 'object', properties: {} }, execute: async () => 'ok' };\n`;

async function changeSeen(files: Record<string, string>, yaml: string, change: () => void): Promise<string | undefined> {
  const dir = tempDir('adk-graph-');
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  const file = join(dir, 'agents.yaml');
  writeFileSync(file, yaml);
  const r = validateConfig({ text: yaml, file });
  if (!r.config) throw new Error(JSON.stringify(r.problems));
  const before = await codeManifest(r.config);
  process.chdir(dir);
  change();
  return describeCodeChange(before, await codeManifest(r.config));
}

const moduleYaml = `version: 1\ndefault: a\nagents:\n  a: { description: A., instruction: Go., tools: [{ module: ./tools/t.mjs }] }\n`;
const mcpYaml = (command: string, args: string[]) => `version: 1\ndefault: a\nmcp_servers:\n  s: { command: ${command}, args: ${JSON.stringify(args)} }\nagents:\n  a: { description: A., instruction: Go., tools: [{ mcp: s }] }\n`;
const rewrite = (rel: string) => () => writeFileSync(rel, '// rewritten by a model\n');

describe('the code graph follows what trusted code loads', () => {
  const cases: Array<[string, Record<string, string>, string, string]> = [
    ['require handed on as a value', { 'tools/t.mjs': TOOL("import { createRequire } from 'node:module';"), 'tools/h.cjs': 'module.exports = 1;' }, moduleYaml, 'tools/h.cjs'],
    ['const r = require; r(…)', { 'tools/t.mjs': TOOL(''), 'tools/cjs.cjs': "const r = require; r('./h2.cjs');", 'tools/h2.cjs': '1;' }, moduleYaml.replace('./tools/t.mjs', './tools/cjs.cjs'), 'tools/h2.cjs'],
    ['a worker started from a file', { 'tools/t.mjs': TOOL("import { Worker } from 'node:worker_threads'; export const w = () => new Worker(new URL('./w.mjs', import.meta.url));"), 'tools/w.mjs': '1;' }, moduleYaml, 'tools/w.mjs'],
    ['a child process running a script', { 'tools/t.mjs': TOOL("import { execFileSync } from 'node:child_process'; export const go = () => execFileSync('sh', ['tools/run.sh']);"), 'tools/run.sh': 'echo hi' }, moduleYaml, 'tools/run.sh'],
    ['new Function over a file', { 'tools/t.mjs': TOOL("import { readFileSync } from 'node:fs'; export const f = () => new Function(readFileSync(new URL('./rules.txt', import.meta.url), 'utf8'));"), 'tools/rules.txt': 'return 1' }, moduleYaml, 'tools/rules.txt'],
    ['a computed import under another folder', { 'tools/t.mjs': TOOL('export const load = (n) => import(`../plugins/${n}.mjs`);'), 'plugins/p.mjs': '1;' }, moduleYaml, 'plugins/p.mjs'],
    ['an MCP script named without its extension', { 'mcp/server.js': '1;' }, mcpYaml('node', ['mcp/server']), 'mcp/server.js'],
    ['python -msrv (flag and module in one word)', { 'srv/__init__.py': '', 'srv/__main__.py': 'print(1)' }, mcpYaml('python3', ['-msrv']), 'srv/__main__.py'],
    // Issue 42 review: `./lib.mjs?v=1` loads ./lib.mjs; it was recorded as a missing file named with its query.
    ['an import with a query string', { 'tools/t.mjs': TOOL("import './lib.mjs?v=1';"), 'tools/lib.mjs': '1;' }, moduleYaml, 'tools/lib.mjs'],
  ];
  for (const [name, files, yaml, target] of cases) {
    it(name, async () => {
      expect(await changeSeen(files, yaml, rewrite(target))).toContain(target);
    });
  }

  it('a FIFO where an import points counts as missing and never blocks the check (it ran before every module call)', async () => {
    const { execFileSync } = await import('node:child_process');
    const seen = await changeSeen({ 'tools/t.mjs': TOOL("import './pipe.mjs';") }, moduleYaml, () => execFileSync('mkfifo', ['tools/pipe.mjs']));
    expect(seen).toBeUndefined();
  });

  it('a local package: every condition of its exports counts, not only the one require would pick', async () => {
    const files = {
      'tools/t.mjs': TOOL("import 'localpkg';"),
      'localpkg/package.json': JSON.stringify({ name: 'localpkg', version: '1.0.0', exports: { import: './esm.mjs', require: './cjs.cjs' } }),
      'localpkg/esm.mjs': 'export const x = 1;',
      'localpkg/cjs.cjs': 'module.exports = 1;',
    };
    const seen = await changeSeen(files, moduleYaml, () => {
      mkdirSync('tools/node_modules', { recursive: true });
    });
    expect(seen).toBeUndefined();
    const dir = tempDir('adk-graph-pkg-');
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(join(dir, rel, '..'), { recursive: true });
      writeFileSync(join(dir, rel), text);
    }
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(join(dir, 'localpkg'), join(dir, 'node_modules', 'localpkg'));
    writeFileSync(join(dir, 'agents.yaml'), moduleYaml);
    const r = validateConfig({ text: moduleYaml, file: join(dir, 'agents.yaml') });
    const before = await codeManifest(r.config!);
    writeFileSync(join(dir, 'localpkg', 'esm.mjs'), 'export const x = 2; // rewritten');
    expect(describeCodeChange(before, await codeManifest(r.config!))).toContain('esm.mjs');
  });

  it('a link planted in a folder counted whole (a Python server’s) is a change', async () => {
    const seen = await changeSeen({ 'py/server.py': 'import json' }, mcpYaml('python3', ['py/server.py']), () => symlinkSync('/tmp/evil.py', 'py/json.py'));
    expect(seen).toContain('py/json.py');
  });
});
