import { execFileSync } from 'node:child_process';
import { chmod, readdir, stat, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUILTIN_TOOL_NAMES, builtinTools } from '../../src/core/tools/builtin/index.js';
import { executeToolCall } from '../../src/core/tools/execute.js';
import { parametersJsonSchema } from '../../src/core/tools/parameters.js';
import type { Tool } from '../../src/core/tools/tool.js';
import { MAX_READ_FILE_BYTES } from '../../src/core/tools/workspace.js';
import { run, sandbox, type Sandbox } from './helpers.js';

let sb: Sandbox;
let tools: Record<string, Tool>;
beforeEach(async () => {
  sb = await sandbox();
  tools = builtinTools({ workspaceRoot: sb.root });
});
afterEach(() => sb.cleanup());

describe('built-in tool contract', () => {
  it('has the documented names and parameters', () => {
    expect(Object.keys(tools).sort()).toEqual([...BUILTIN_TOOL_NAMES].sort());
    const schema = (name: string) => parametersJsonSchema(tools[name]) as { properties: Record<string, { description?: string }>; required?: string[] };
    expect(schema('read_file').required).toEqual(['path']);
    expect(Object.keys(schema('read_file').properties).sort()).toEqual(['limit', 'offset', 'path']);
    expect(schema('write_file').required?.sort()).toEqual(['content', 'path']);
    expect(schema('edit_file').required?.sort()).toEqual(['new', 'old', 'path']);
    expect(schema('list_dir').required ?? []).toEqual([]);
    expect(Object.keys(schema('list_dir').properties)).toEqual(['path']);
    expect(schema('grep').required).toEqual(['pattern']);
    expect(schema('shell').required).toEqual(['command']);
    expect(Object.keys(schema('shell').properties)).toEqual(['command']);
    expect(schema('fetch_url').required).toEqual(['url']);
    expect(schema('ask_user').required).toEqual(['question']);
    expect(Object.keys(schema('current_time').properties ?? {})).toEqual([]);
    for (const name of BUILTIN_TOOL_NAMES) {
      for (const [key, prop] of Object.entries(schema(name).properties ?? {})) expect(prop.description, `${name}.${key}`).toBeTruthy();
    }
  });
});

describe('read_file', () => {
  it('reads a whole file, or a range of lines with a note', async () => {
    await sb.write('a.txt', 'one\ntwo\nthree\nfour\n');
    expect((await run(tools.read_file, { path: 'a.txt' })).content).toBe('one\ntwo\nthree\nfour\n');
    const part = await run(tools.read_file, { path: 'a.txt', offset: 2, limit: 2 });
    expect(part.content).toBe('two\nthree\n[lines 2-3 of 4 in a.txt; use offset=4 to read on]');
    expect((await run(tools.read_file, { path: 'a.txt', offset: 4 })).content).toBe('four\n[lines 4-4 of 4 in a.txt]');
    const past = await run(tools.read_file, { path: 'a.txt', offset: 9 });
    expect(past.isError).toBe(true);
    expect(past.content).toMatch(/only 4 lines/);
  });

  it('reports empty files, folders, missing, binary and too large files', async () => {
    await sb.write('empty.txt', '');
    expect((await run(tools.read_file, { path: 'empty.txt' })).content).toMatch(/empty/);
    await sb.write('dir/x.txt', 'x');
    expect((await run(tools.read_file, { path: 'dir' })).content).toMatch(/is a directory; use list_dir/);
    expect((await run(tools.read_file, { path: 'missing.txt' })).content).toMatch(/'missing.txt' does not exist/);
    await sb.write('bin.dat', Buffer.from([1, 2, 0, 3]));
    expect((await run(tools.read_file, { path: 'bin.dat' })).content).toMatch(/binary/);
    await sb.write('big.txt', Buffer.alloc(MAX_READ_FILE_BYTES + 1, 'a'));
    const big = await run(tools.read_file, { path: 'big.txt' });
    expect(big.isError).toBe(true);
    expect(big.content).toMatch(/too large \(2\.0 MB; the limit is 2\.0 MB\)/);
  });

  it('cuts very long output at a line boundary and says where to read on', async () => {
    const line = 'x'.repeat(99);
    await sb.write('long.txt', `${Array.from({ length: 2000 }, () => line).join('\n')}\n`);
    const out = (await run(tools.read_file, { path: 'long.txt' })).content;
    expect(out.length).toBeLessThan(101_000);
    expect(out).toMatch(/continues at line 1001; use offset=1001/);
  });

  it('is validated by the executor: path is required', async () => {
    const r = await executeToolCall({ id: 'c', type: 'function', function: { name: 'read_file', arguments: '{}' } } as never, new Map([['read_file', tools.read_file]]), {
      signal: new AbortController().signal,
      agentName: 'a',
      runPath: [],
      sessionValues: {},
      resume: { wasInterrupted: false, isResumeTarget: false, hasData: false },
      emit() {},
    });
    expect(r.kind === 'done' && r.isError && r.content).toMatch(/invalid arguments for 'read_file': path/);
  });
});

describe('write_file', () => {
  it('creates parent folders, overwrites atomically and keeps the file mode', async () => {
    const r = await run(tools.write_file, { path: 'new/deep/f.txt', content: 'hello\nworld\n' });
    expect(r).toEqual({ content: 'Created new/deep/f.txt (12 bytes, 2 lines)', isError: false });
    expect(sb.read('new/deep/f.txt')).toBe('hello\nworld\n');
    const p = await sb.write('script.sh', 'old');
    await chmod(p, 0o755);
    expect((await run(tools.write_file, { path: 'script.sh', content: 'new' })).content).toMatch(/^Overwrote script.sh/);
    expect(sb.read('script.sh')).toBe('new');
    expect((await stat(p)).mode & 0o777).toBe(0o755);
    expect((await readdir(sb.root)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('refuses folders and paths that leave the workspace', async () => {
    await sb.write('d/x', 'x');
    expect((await run(tools.write_file, { path: 'd', content: 'x' })).content).toMatch(/is a directory/);
    expect((await run(tools.write_file, { path: '../outside/pwn.txt', content: 'x' })).content).toMatch(/outside the workspace/);
    expect((await run(tools.write_file, { path: path.join(sb.outside, 'pwn.txt'), content: 'x' })).content).toMatch(/outside the workspace/);
    await symlink(sb.outside, path.join(sb.root, 'out'));
    expect((await run(tools.write_file, { path: 'out/pwn.txt', content: 'x' })).content).toMatch(/outside the workspace/);
    await symlink(path.join(sb.outside, 'secret.txt'), path.join(sb.root, 'secret-link'));
    expect((await run(tools.write_file, { path: 'secret-link', content: 'x' })).content).toMatch(/outside the workspace/);
    expect((await readdir(sb.outside)).sort()).toEqual(['secret.txt']);
    expect(execFileSync('cat', [path.join(sb.outside, 'secret.txt')], { encoding: 'utf8' })).toBe('TOP SECRET\n');
  });
});

describe('edit_file', () => {
  it('replaces exactly one occurrence', async () => {
    await sb.write('c.ts', 'const a = 1;\nconst b = 2;\n');
    const r = await run(tools.edit_file, { path: 'c.ts', old: 'const b = 2;', new: 'const b = $&3;' });
    expect(r).toEqual({ content: 'Edited c.ts: replaced 1 occurrence at line 2', isError: false });
    expect(sb.read('c.ts')).toBe('const a = 1;\nconst b = $&3;\n');
  });

  it('fails clearly for 0 or several matches and empty old', async () => {
    await sb.write('c.ts', 'x = 1\nx = 1\n');
    const none = await run(tools.edit_file, { path: 'c.ts', old: 'y = 1', new: 'z' });
    expect(none.isError).toBe(true);
    expect(none.content).toMatch(/not found in c.ts/);
    const many = await run(tools.edit_file, { path: 'c.ts', old: 'x = 1', new: 'z' });
    expect(many.isError).toBe(true);
    expect(many.content).toMatch(/occurs 2 times in c.ts/);
    expect((await run(tools.edit_file, { path: 'c.ts', old: '', new: 'z' })).isError).toBe(true);
    expect(sb.read('c.ts')).toBe('x = 1\nx = 1\n');
    expect((await run(tools.edit_file, { path: '../outside/secret.txt', old: 'TOP', new: 'x' })).content).toMatch(/outside the workspace/);
  });
});

describe('list_dir', () => {
  it('lists sorted entries with folders marked, defaulting to the root', async () => {
    await sb.write('b.txt', '');
    await sb.write('a/x', '');
    await sb.write('C.md', '');
    await symlink(path.join(sb.root, 'a'), path.join(sb.root, 'link-to-a'));
    expect((await run(tools.list_dir, {})).content).toBe('C.md\na/\nb.txt\nlink-to-a/');
    expect((await run(tools.list_dir, { path: 'a' })).content).toBe('x');
    expect((await run(tools.list_dir, { path: 'b.txt' })).content).toMatch(/is a file, not a folder/);
    expect((await run(tools.list_dir, { path: '..' })).content).toMatch(/outside the workspace/);
  });

  it('caps long listings', async () => {
    await Promise.all(Array.from({ length: 1005 }, (_, i) => sb.write(`many/f${String(i).padStart(4, '0')}`, '')));
    const out = (await run(tools.list_dir, { path: 'many' })).content;
    expect(out.split('\n')).toHaveLength(1001);
    expect(out).toMatch(/\[showing 1000 of 1005 entries\]$/);
  });
});

describe('grep', () => {
  it('prints file:line: text, skipping node_modules, .git and binary files', async () => {
    await sb.write('src/a.ts', 'import x\nconst needle = 1;\n');
    await sb.write('src/sub/b.ts', 'needle here\n');
    await sb.write('node_modules/pkg/index.js', 'needle');
    await sb.write('.git/config', 'needle');
    await sb.write('img.bin', Buffer.concat([Buffer.from('needle'), Buffer.from([0])]));
    const r = await run(tools.grep, { pattern: 'need(le)' });
    expect(r.content).toBe('src/a.ts:2: const needle = 1;\nsrc/sub/b.ts:1: needle here');
    expect((await run(tools.grep, { pattern: 'needle', path: 'src/sub/b.ts' })).content).toBe('src/sub/b.ts:1: needle here');
    expect((await run(tools.grep, { pattern: 'absent' })).content).toMatch(/No matches/);
  });

  it('caps matches, rejects bad regexes and paths outside', async () => {
    await sb.write('many.txt', Array.from({ length: 250 }, (_, i) => `hit ${i}`).join('\n'));
    const out = (await run(tools.grep, { pattern: '^hit' })).content;
    expect(out.split('\n')).toHaveLength(201);
    expect(out).toMatch(/showing the first 200 of 250 matches/);
    const bad = await run(tools.grep, { pattern: '(' });
    expect(bad.isError).toBe(true);
    expect(bad.content).toMatch(/invalid regular expression/);
    expect((await run(tools.grep, { pattern: 'SECRET', path: '../outside' })).content).toMatch(/outside the workspace/);
  });

  it('does not follow a symlink out of the workspace', async () => {
    await symlink(sb.outside, path.join(sb.root, 'out'));
    await symlink(path.join(sb.outside, 'secret.txt'), path.join(sb.root, 'secret-link'));
    expect((await run(tools.grep, { pattern: 'SECRET' })).content).toMatch(/No matches/);
  });
});

describe('file tools refuse special files', () => {
  it('refuses /dev/zero directly and through a symlink, and FIFOs', async () => {
    await symlink('/dev/zero', path.join(sb.root, 'zero'));
    execFileSync('mkfifo', [path.join(sb.root, 'fifo')]);
    const cases: [string, Record<string, unknown>][] = [
      ['read_file', {}],
      ['edit_file', { old: 'a', new: 'b' }],
      ['write_file', { content: 'x' }],
      ['list_dir', {}],
      ['grep', { pattern: 'x' }],
    ];
    for (const [name, extra] of cases) {
      for (const p of ['zero', '/dev/zero', 'fifo']) {
        const r = await run(tools[name], { path: p, ...extra });
        expect(r.isError, `${name} ${p}`).toBe(true);
        expect(r.content, `${name} ${p}`).toMatch(/outside the workspace|is a FIFO/);
      }
    }
  });
});
