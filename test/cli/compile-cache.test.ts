import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
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

function bundleFile(): string {
  const dir = tempDir('adk-cc-');
  const file = join(dir, 'b.cjs');
  // Uses the CommonJS names, a global passed in, and has a function compiled only when called.
  writeFileSync(file, `const path = require('node:path'); function later(x) { return x * 2; } setImmediate(() => console.log(greeting, path.basename(__filename), later(21), typeof module.exports));`);
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

  it('a rebuilt bundle never reads the old cache, and the old one is removed', () => {
    const bundle = bundleFile();
    const cacheDir = join(tempDir('adk-cc-home-'), 'compile');
    load(bundle, cacheDir);
    const [old] = cacheFiles(cacheDir);
    writeFileSync(bundle, `${readFileSync(bundle, 'utf8')}\n// rebuilt`);
    expect(load(bundle, cacheDir).cache).toBe('miss');
    const now = cacheFiles(cacheDir);
    expect(now).toHaveLength(1);
    expect(now[0]).not.toBe(old);
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

  it('without a cache folder it just runs', () => {
    expect(load(bundleFile(), undefined)).toEqual({ cache: 'off', out: 'hello b.cjs 42 object' });
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
