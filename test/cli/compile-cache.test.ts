import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, existsSync, lchownSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runInPty } from '../support/pty.js';
import { ofType, runCli, serverEnv, tempDir, useServer } from './helpers.js';

// The CommonJS bundle's loader (src/cli/boot/cached-commonjs.ts), as built by tsc, run in child
// processes: the cache is written when a process exits.
const LOADER = pathToFileURL(fileURLToPath(new URL('../../dist/cli/boot/cached-commonjs.js', import.meta.url))).href;

function load(bundle: string, cacheDir: string | undefined): { cache: string; out: string } {
  const script = `import { runCachedCommonJs } from ${JSON.stringify(LOADER)};
const r = runCachedCommonJs(${JSON.stringify(bundle)}, { cacheDir: ${JSON.stringify(cacheDir)}, key: 'test', globals: { greeting: 'hello' } });
process.stdout.write(JSON.stringify(r) + '\\n');`;
  const p = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  if (p.status !== 0) throw new Error(p.stderr);
  const [result, ...rest] = p.stdout.split('\n');
  return { cache: JSON.parse(result!).cache, out: rest.join('\n').trim() };
}

/** A bundle as scripts/bundle.mjs writes one: a first line naming its build (the hash of the rest). */
function writeBundle(file: string, code: string): void {
  writeFileSync(file, `//adk-build:${createHash('sha256').update(code).digest('hex').slice(0, 32)}\n${code}`);
}

function bundleFile(extra = ''): string {
  const file = join(tempDir('adk-cc-'), 'b.cjs');
  // Uses the CommonJS names, a global passed in, and has a function compiled only when called.
  writeBundle(file, `const path = require('node:path'); function later(x) { return x * 2; } setImmediate(() => console.log(greeting, path.basename(__filename), later(21), typeof module.exports));${extra}`);
  return file;
}

const cacheFiles = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.v8'));

describe('the CLI bundle loader keeps compiled code between runs', () => {
  it('a first run writes the cache on exit; the next run uses it and behaves the same', () => {
    const bundle = bundleFile();
    const cacheDir = join(tempDir('adk-cc-home-'), 'compile');
    const first = load(bundle, cacheDir);
    expect(first).toEqual({ cache: 'miss', out: 'hello b.cjs 42 object' });
    const files = cacheFiles(cacheDir);
    expect(files).toHaveLength(1);
    expect(statSync(cacheDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(cacheDir, files[0]!)).mode & 0o777).toBe(0o600);
    expect(load(bundle, cacheDir)).toEqual({ cache: 'hit', out: 'hello b.cjs 42 object' });
  });

  it('a damaged cache is rejected by V8, the bundle compiles as usual and the cache is written again', () => {
    const bundle = bundleFile();
    const cacheDir = join(tempDir('adk-cc-home-'), 'compile');
    load(bundle, cacheDir);
    const file = join(cacheDir, cacheFiles(cacheDir)[0]!);
    const good = readFileSync(file);
    writeFileSync(file, Buffer.concat([good.subarray(0, 64), Buffer.alloc(good.length - 64, 0xab)]));
    expect(load(bundle, cacheDir)).toEqual({ cache: 'miss', out: 'hello b.cjs 42 object' });
    expect(load(bundle, cacheDir).cache).toBe('hit');
  });

  it('another build never reads this one’s cache (the name holds the build’s hash and length)', () => {
    const bundle = bundleFile();
    const cacheDir = join(tempDir('adk-cc-home-'), 'compile');
    load(bundle, cacheDir);
    const [old] = cacheFiles(cacheDir);
    writeBundle(bundle, `${readFileSync(bundle, 'utf8').split('\n').slice(1).join('\n')}\n// rebuilt`);
    expect(load(bundle, cacheDir).cache).toBe('miss');
    const now = cacheFiles(cacheDir);
    // Both kept: a global and a local install of two versions must not keep deleting each other's.
    expect(now).toHaveLength(2);
    expect(now).toContain(old);
    expect(load(bundle, cacheDir).cache).toBe('hit');
  });

  it('a bundle without its build line runs without a cache', () => {
    const file = join(tempDir('adk-cc-'), 'plain.cjs');
    writeFileSync(file, `setImmediate(() => console.log(greeting, 'plain'));`);
    const cacheDir = join(tempDir('adk-cc-home-'), 'compile');
    expect(load(file, cacheDir)).toEqual({ cache: 'off', out: 'hello plain' });
    expect(existsSync(cacheDir)).toBe(false);
  });

  it('a run that fails writes no cache (it may have compiled little); the next good one does', () => {
    const cacheDir = join(tempDir('adk-cc-home-'), 'compile');
    const failing = bundleFile(' process.exitCode = 3;');
    expect(() => load(failing, cacheDir)).toThrow();
    expect(existsSync(cacheDir) ? cacheFiles(cacheDir) : []).toHaveLength(0);
    load(bundleFile(), cacheDir);
    expect(cacheFiles(cacheDir)).toHaveLength(1);
  });

  it.skipIf(process.getuid?.() !== 0)('makes no folder inside one another user owns (adk under sudo with HOME kept)', () => {
    const home = tempDir('adk-cc-home-');
    const theirs = join(home, '.cache');
    mkdirSync(theirs);
    chownSync(theirs, 4242, 4242);
    const cacheDir = join(theirs, 'adk', 'compile');
    expect(load(bundleFile(), cacheDir).out).toBe('hello b.cjs 42 object');
    expect(existsSync(join(theirs, 'adk'))).toBe(false);
  });

  it.skipIf(process.platform === 'win32' || process.getuid?.() === undefined)('refuses a cache others could have written: a group-writable file or folder is neither read nor written', () => {
    const bundle = bundleFile();
    const cacheDir = join(tempDir('adk-cc-home-'), 'compile');
    load(bundle, cacheDir);
    const file = join(cacheDir, cacheFiles(cacheDir)[0]!);
    chmodSync(file, 0o666);
    expect(load(bundle, cacheDir).cache).toBe('miss');

    const open = join(tempDir('adk-cc-home-'), 'open');
    mkdirSync(open);
    chmodSync(open, 0o777);
    expect(load(bundle, open)).toEqual({ cache: 'miss', out: 'hello b.cjs 42 object' });
    expect(cacheFiles(open)).toHaveLength(0);
  });

  it.skipIf(process.platform === 'win32' || process.getuid?.() === undefined)('refuses a cache below a folder others can write: a parent made 0777 (no sticky bit) could have the cache folder swapped', () => {
    const bundle = bundleFile();
    const parent = join(tempDir('adk-cc-home-'), 'parent');
    mkdirSync(parent, { mode: 0o755 });
    const cacheDir = join(parent, 'adk', 'compile');
    expect(load(bundle, cacheDir).cache).toBe('miss');
    expect(load(bundle, cacheDir).cache).toBe('hit');
    chmodSync(parent, 0o777);
    expect(load(bundle, cacheDir)).toEqual({ cache: 'miss', out: 'hello b.cjs 42 object' });
    // Nor is a cache made there.
    rmSync(join(parent, 'adk'), { recursive: true });
    load(bundle, cacheDir);
    expect(existsSync(join(parent, 'adk'))).toBe(false);
    // Sticky, like /tmp: others cannot replace our entries, so the cache is used.
    chmodSync(parent, 0o1777);
    expect(load(bundle, cacheDir).cache).toBe('miss');
    expect(load(bundle, cacheDir).cache).toBe('hit');
  });

  it.skipIf(process.getuid?.() !== 0)('in a sticky folder others write, an entry on the way that another user owns (a folder or a symlink) is refused', () => {
    const bundle = bundleFile();
    const sticky = join(tempDir('adk-cc-home-'), 'tmp');
    mkdirSync(sticky);
    chmodSync(sticky, 0o1777);
    const theirs = join(sticky, 'theirs');
    mkdirSync(join(theirs, 'compile'), { recursive: true, mode: 0o700 });
    chownSync(theirs, 4242, 4242);
    load(bundle, join(theirs, 'compile'));
    expect(cacheFiles(join(theirs, 'compile'))).toHaveLength(0);

    const ours = join(tempDir('adk-cc-home-'), 'compile');
    load(bundle, ours);
    expect(load(bundle, ours).cache).toBe('hit');
    const link = join(sticky, 'link');
    symlinkSync(ours, link);
    expect(load(bundle, link).cache).toBe('hit');
    lchownSync(link, 4242, 4242); // its owner could point it anywhere
    expect(load(bundle, link).cache).toBe('miss');
  });

  it('without a cache folder it just runs; a relative ADK_COMPILE_CACHE (it would follow the current folder) is no cache', async () => {
    expect(load(bundleFile(), undefined)).toEqual({ cache: 'off', out: 'hello b.cjs 42 object' });
    const { compileCacheDir } = await import('../../src/cli/boot/cached-commonjs.js');
    expect(compileCacheDir({ ADK_COMPILE_CACHE: 'cache' })).toBeUndefined();
    expect(compileCacheDir({ ADK_COMPILE_CACHE: '0' })).toBeUndefined();
    expect(compileCacheDir({ ADK_COMPILE_CACHE: '/x/y' })).toBe('/x/y');
    expect(compileCacheDir({ HOME: '/h', XDG_CACHE_HOME: '/c' })).toBe('/c/adk/compile');
  });
});

describe('which bundle runs a command', () => {
  it('the command is the first word, after program options: adk --debug chat opens the REPL in a terminal', async () => {
    const bin = fileURLToPath(new URL('../../bin/adk.js', import.meta.url));
    const env = { ...process.env, ADK_HOME: tempDir('adk-cc-home-'), OPENAI_API_KEY: '', OPENAI_BASE_URL: '' };
    const drawn = (await runInPty([process.execPath, bin, '--debug', 'chat'], env, { until: 'for commands' })).output;
    expect(drawn).not.toMatch(/internal error/);
    expect(drawn).toMatch(/offline demo team/);
    expect(drawn).toMatch(/for commands/);
  });

  it('adk resume --json in a terminal is headless: it runs from the cached bundle (and writes its cache), not the REPL', async () => {
    const bin = fileURLToPath(new URL('../../bin/adk.js', import.meta.url));
    const home = tempDir('adk-cc-home-');
    const cacheDir = join(tempDir('adk-cc-cache-'), 'compile');
    const env = { ...process.env, ADK_HOME: home, ADK_COMPILE_CACHE: cacheDir, OPENAI_API_KEY: '', OPENAI_BASE_URL: '' };
    const first = await runCli(['run', '--json', 'hello'], { env });
    const id = ofType(first.lines, 'session')[0].sessionId as string;
    const shown = (await runInPty([process.execPath, bin, 'resume', id, '--json', 'again'], env)).output;
    expect(shown).toMatch(/"type":"done","status":"completed"/);
    expect(shown).not.toMatch(/for commands/);
    expect(cacheFiles(cacheDir).some((f) => f.endsWith('-resume.v8'))).toBe(true);
  });
});

describe('adk from its cached bundle', () => {
  const server = useServer();

  it('adk run writes its cache once, then runs from it; a damaged cache changes nothing the person sees', async () => {
    const cacheDir = join(tempDir('adk-cc-home-'), 'compile');
    const env = { ...serverEnv(server()), ADK_COMPILE_CACHE: cacheDir };
    const texts: string[] = [];
    for (let i = 0; i < 3; i++) {
      server().enqueue({ content: `answer ${i}` });
      const r = await runCli(['run', '--json', 'hi'], { env });
      expect(r.code).toBe(0);
      texts.push(ofType(r.lines, 'done')[0].output);
      const files = cacheFiles(cacheDir);
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/-run\.v8$/);
      if (i === 1) writeFileSync(join(cacheDir, files[0]!), 'not a code cache');
    }
    expect(texts).toEqual(['answer 0', 'answer 1', 'answer 2']);
  });
});
