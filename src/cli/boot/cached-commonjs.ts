import { createHash } from 'node:crypto';
import { closeSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import vm from 'node:vm';

/**
 * Runs a CommonJS bundle with V8's code cache: the first run of a command compiles the bundle and,
 * on exit, saves the compiled code; later runs load it instead of parsing megabytes of JavaScript
 * again (Node 20 has no compile cache of its own; Node 22's `module.enableCompileCache` does the
 * same for ordinary modules). A cache that is missing, damaged, rejected by V8 (another Node, other
 * V8 flags) or not safely ours is not used: the bundle then compiles as usual.
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

export function runCachedCommonJs(file: string, opts: CachedRunOptions): CachedRun {
  // The bundle is ASCII (esbuild escapes the rest), so latin1 gives the same text without UTF-8 decoding.
  const source = readFileSync(file, 'latin1');
  const cacheFile = opts.cacheDir ? join(opts.cacheDir, cacheName(file, opts.key)) : undefined;
  const cachedData = cacheFile ? readCache(cacheFile) : undefined;
  const globals = opts.globals ?? {};
  const params = ['exports', 'require', 'module', '__filename', '__dirname', ...Object.keys(globals)].join(', ');
  const script = new vm.Script(`(function (${params}) {${source}\n})`, {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
  });
  const hit = cachedData !== undefined && !script.cachedDataRejected;
  if (cacheFile && !hit) {
    // At exit the cache also holds every function this command compiled, not only the top level.
    process.once('exit', () => writeCache(file, cacheFile, script));
  }
  const module = { exports: {} };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, createRequire(file), module, file, dirname(file), ...Object.values(globals));
  return { cache: cacheFile ? (hit ? 'hit' : 'miss') : 'off' };
}

/**
 * The cache folder: ADK_COMPILE_CACHE (a folder, or 0 for none), else the user's cache folder.
 * Disabled by NODE_DISABLE_COMPILE_CACHE too, as Node's own cache is.
 */
export function compileCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const set = env.ADK_COMPILE_CACHE?.trim();
  if (set === '0' || env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  if (set) return set;
  const base = env.XDG_CACHE_HOME?.trim() || join(homedir(), '.cache');
  return join(base, 'adk', 'compile');
}

/**
 * `<bundle>-<identity>-<node>-<arch>-<command>.v8`. The identity is the bundle file's size, times
 * and inode: npm gives every installed file the same mtime, so a reinstall (new inode and ctime)
 * must be what tells two builds of one size apart. Another Node never even tries a stale cache.
 */
function cacheIdentity(file: string): { prefix: string; identity: string } {
  const st = statSync(file);
  const prefix = `${basename(file).replace(/[^a-z0-9]/gi, '_')}-`;
  const id = [st.size, Math.trunc(st.mtimeMs), Math.trunc(st.ctimeMs), st.ino].map((n) => n.toString(36)).join('.');
  return { prefix, identity: `${prefix}${id}-${process.version}-${process.arch}-` };
}

function cacheName(file: string, key: string): string {
  const safeKey = /^[a-z][a-z-]{0,31}$/.test(key) ? key : 'other';
  return `${cacheIdentity(file).identity}${safeKey}.v8`;
}

// V8 (Node 20) checks a code cache's version and flags but not its bytes: damaged bytes crash the
// process. Each file starts with a digest of what follows, checked before V8 sees it (~1 ms).
const MAGIC = Buffer.from('adk-v8c1');
const DIGEST = 32;
const digest = (data: Buffer) => createHash('sha256').update(data).digest();

/**
 * Compiled code runs as this user: it is read only from a file this user owns that nobody else can
 * write, in a folder nobody else can write (another local user must not be able to plant code),
 * and only whole (its digest matches).
 */
function readCache(file: string): Buffer | undefined {
  let fd: number | undefined;
  try {
    if (!ownedAndPrivate(statSync(dirname(file)))) return undefined;
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

const STALE_TEMP_MS = 10 * 60_000;

/** Written whole under a temporary name and renamed: a reader sees the old cache or the new one, never half. */
function writeCache(bundle: string, cacheFile: string, script: vm.Script): void {
  try {
    const dir = dirname(cacheFile);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!ownedAndPrivate(statSync(dir))) return;
    const data = script.createCachedData();
    const tmp = `${cacheFile}.${process.pid}.tmp`;
    writeFileSync(tmp, Buffer.concat([MAGIC, digest(data), data]), { mode: 0o600 });
    renameSync(tmp, cacheFile);
    // Caches of earlier builds or other Node versions are of no further use, nor are the temporary
    // files of processes killed while writing.
    const { prefix, identity } = cacheIdentity(bundle);
    const now = Date.now();
    for (const name of readdirSync(dir)) {
      if (!name.startsWith(prefix)) continue;
      const old = name.endsWith('.v8') ? !name.startsWith(identity) : name.endsWith('.tmp') && now - statSync(join(dir, name)).mtimeMs > STALE_TEMP_MS;
      if (old) rmSync(join(dir, name), { force: true });
    }
  } catch {
    // A cache is an optimisation: a full disk or a read-only home must not fail the command.
  }
}
