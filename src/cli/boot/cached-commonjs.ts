import { randomBytes, createHash } from 'node:crypto';
import { closeSync, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, statSync, writeFileSync, type Stats } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, sep } from 'node:path';
import vm from 'node:vm';

/**
 * Runs a CommonJS bundle with V8's code cache: the first successful run of a command compiles the
 * bundle and, on exit, saves the compiled code; later runs load it instead of parsing megabytes of
 * JavaScript again (Node 20 has no compile cache of its own; Node 22's `module.enableCompileCache`
 * does the same for ordinary modules). A cache that is missing, damaged, rejected by V8 (another
 * Node, other V8 flags) or not safely ours is not used: the bundle then compiles as usual.
 */
export interface CachedRunOptions {
  /** Where cached code lives; undefined runs without a cache. */
  cacheDir: string | undefined;
  /** One cache per command: each holds the functions that command compiled. */
  key: string;
  /** Names the bundle's code can use besides the CommonJS ones (passed to its wrapper function). */
  globals?: Record<string, unknown>;
}

export interface CachedRun {
  /** 'hit': compiled code came from the cache; 'miss': none usable, one is written at exit; 'off': no cache. */
  cache: 'hit' | 'miss' | 'off';
}

/**
 * The bundle's build writes `//adk-build:<hash of the rest>` as its first line: with the length, the
 * name of its cache. The hash is of the bytes read here, so a bundle replaced while this process
 * starts (an update) never gets another build's code, and two installs of one build share a cache.
 */
const BUILD_LINE = /^\/\/adk-build:([0-9a-f]{16,64})\n/;

export function runCachedCommonJs(file: string, opts: CachedRunOptions): CachedRun {
  // The bundle is ASCII (esbuild escapes the rest), so latin1 gives the same text without UTF-8 decoding.
  const source = readFileSync(file, 'latin1');
  const build = BUILD_LINE.exec(source)?.[1];
  const cacheFile = opts.cacheDir && build ? join(opts.cacheDir, cacheName(file, build, source.length, opts.key)) : undefined;
  const cachedData = cacheFile ? readCache(cacheFile) : undefined;
  const globals = opts.globals ?? {};
  const params = ['exports', 'require', 'module', '__filename', '__dirname', ...Object.keys(globals)].join(', ');
  const script = new vm.Script(`(function (${params}) {${source}\n})`, {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
  });
  const hit = cachedData !== undefined && !script.cachedDataRejected;
  if (cacheFile && !hit) {
    // At exit the cache also holds every function this command compiled, not only the top level; a
    // failed run (no network, a usage error) may have compiled little, so only a success writes it.
    process.once('exit', (code) => {
      if (code === 0) writeCache(cacheFile, prefixOf(file), script);
    });
  }
  const module = { exports: {} };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, createRequire(file), module, file, dirname(file), ...Object.values(globals));
  return { cache: cacheFile ? (hit ? 'hit' : 'miss') : 'off' };
}

/**
 * The cache folder: ADK_COMPILE_CACHE (an absolute folder, or 0 for none), else the user's cache
 * folder. Disabled by NODE_DISABLE_COMPILE_CACHE too, as Node's own cache is. A relative folder
 * would depend on where adk is started (a cloned repository's folder): it turns the cache off.
 */
export function compileCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const set = env.ADK_COMPILE_CACHE?.trim();
  if (set === '0' || env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  if (set) return isAbsolute(set) ? set : undefined;
  const xdg = env.XDG_CACHE_HOME?.trim();
  return join(xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.cache'), 'adk', 'compile');
}

/** `<bundle>-<build>-<length>-<node>-<arch>-<command>.v8`: another build or Node never even tries it. */
function cacheName(file: string, build: string, length: number, key: string): string {
  const safeKey = /^[a-z][a-z-]{0,31}$/.test(key) ? key : 'other';
  return `${prefixOf(file)}${build}-${length.toString(36)}-${process.version}-${process.arch}-${safeKey}.v8`;
}

const prefixOf = (file: string) => `${basename(file).replace(/[^a-z0-9]/gi, '_')}-`;

// V8 (Node 20) checks a code cache's version and flags but not its bytes: damaged bytes crash the
// process. Each file starts with a digest of what follows, checked before V8 sees it (~1 ms).
const MAGIC = Buffer.from('adk-v8c1');
const DIGEST = 32;
const digest = (data: Buffer) => createHash('sha256').update(data).digest();

/**
 * Compiled code runs as this user: it is read only from a file this user owns that nobody else can
 * write, in a folder nobody else can write, reached through folders nobody else can write (another
 * local user must not be able to plant code), and only whole (its digest matches).
 */
function readCache(file: string): Buffer | undefined {
  let fd: number | undefined;
  try {
    if (!onlyOursOnTheWay(dirname(file)) || !ownedAndPrivate(statSync(dirname(file)))) return undefined;
    fd = openSync(file, 'r');
    if (!ownedAndPrivate(fstatSync(fd))) return undefined;
    const bytes = readFileSync(fd);
    const head = MAGIC.length + DIGEST;
    if (bytes.length <= head || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
    const data = bytes.subarray(head);
    return digest(data).equals(bytes.subarray(MAGIC.length, head)) ? data : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function ownedAndPrivate(st: { uid: number; mode: number }): boolean {
  if (process.platform === 'win32' || !process.getuid) return true;
  return st.uid === process.getuid() && (st.mode & 0o022) === 0;
}

/**
 * Whether only this user and root can change what `dir` leads to: every folder from / down
 * (symlinks followed as the kernel does) is owned by one of them and not group- or world-writable
 * unless sticky (like /tmp), and every entry on the way, symlinks included, is owned by one of
 * them. Whoever can write a folder on the way can swap the cache folder for their own. A missing
 * tail is fine: it is made 0700 by this user.
 */
function onlyOursOnTheWay(dir: string): boolean {
  if (process.platform === 'win32' || !process.getuid) return true;
  const uid = process.getuid();
  const safe = (st: Stats) => (st.uid === uid || st.uid === 0) && (!st.isDirectory() || (st.mode & 0o022) === 0 || (st.mode & 0o1000) !== 0);
  const names = dir.split(sep).reverse();
  let at: string = sep;
  let links = 0;
  try {
    if (!safe(lstatSync(at))) return false;
    while (names.length > 0) {
      const name = names.pop()!;
      if (name === '' || name === '.') continue;
      if (name === '..') {
        at = dirname(at); // `at` holds no symlinks, so its parent is already checked
        continue;
      }
      const next = join(at, name);
      const st = lstatSync(next);
      if (!safe(st)) return false;
      if (st.isSymbolicLink()) {
        if (++links > 40) return false;
        const target = readlinkSync(next);
        names.push(...target.split(sep).reverse());
        if (isAbsolute(target)) at = sep;
      } else if (st.isDirectory()) {
        at = next;
      } else {
        return false;
      }
    }
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/**
 * Folders are made only inside one this user owns: adk run under sudo with HOME kept must not
 * leave a root-owned ~/.cache behind.
 */
function ensureDir(dir: string): boolean {
  if (!onlyOursOnTheWay(dir)) return false;
  let existing = dir;
  for (;;) {
    try {
      const st = statSync(existing);
      if (existing !== dir && process.getuid && st.uid !== process.getuid()) return false;
      break;
    } catch {
      const parent = dirname(existing);
      if (parent === existing) return false;
      existing = parent;
    }
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return onlyOursOnTheWay(dir) && ownedAndPrivate(statSync(dir));
}

/** Caches of other builds are kept a while: two installs (global and local, two Node versions) would otherwise keep deleting each other's. */
const STALE_CACHE_MS = 30 * 24 * 60 * 60_000;
const STALE_TEMP_MS = 10 * 60_000;

/** Written whole under a temporary name and renamed: a reader sees the old cache or the new one, never half. */
function writeCache(cacheFile: string, prefix: string, script: vm.Script): void {
  try {
    const dir = dirname(cacheFile);
    if (!ensureDir(dir)) return;
    const data = script.createCachedData();
    const tmp = `${cacheFile}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
    writeFileSync(tmp, Buffer.concat([MAGIC, digest(data), data]), { mode: 0o600, flag: 'wx' });
    renameSync(tmp, cacheFile);
    // This bundle's caches unused for a month, and the temporary files of processes killed while writing, go.
    const now = Date.now();
    for (const name of readdirSync(dir)) {
      if (!name.startsWith(prefix) || name === basename(cacheFile)) continue;
      const age = now - statSync(join(dir, name)).mtimeMs;
      if ((name.endsWith('.v8') && age > STALE_CACHE_MS) || (name.endsWith('.tmp') && age > STALE_TEMP_MS)) rmSync(join(dir, name), { force: true });
    }
  } catch {
    // A cache is an optimisation: a full disk or a read-only home must not fail the command.
  }
}
