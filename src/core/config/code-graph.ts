import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TeamConfig } from './types.js';
import { isDir, isFile, readRegularFile, realOrSelf } from '../fs-checks.js';
import { listHooks } from '../middlewares/hooks/config.js';
import { shellWords } from '../tools/shell-words.js';
import { LINK_PREFIX, MISSING } from '../tools/module-host/manifest-marks.js';

export { shellWords };

/**
 * What an agents file runs besides itself, so that trust and a session's binding cover it: every
 * module tool and middleware, every MCP server script inside its folder (also one named inside
 * `sh -c "…"`), and the files those import, followed through static `import`/`export from`,
 * `import('./literal')` and `require('./literal')`. A package from node_modules counts by its name
 * and version. Where the imports cannot be read (another language, a binary, `import(name)`), the
 * whole folder of that file counts instead.
 */
export interface CodeManifest {
  /** SHA-256 of each file, by path relative to the agents file's folder. */
  files: Record<string, string>;
  /** Version of each package imported from node_modules, by name. */
  packages: Record<string, string>;
  /** Folders counted whole (relative), because what their code loads cannot be read. */
  folders: string[];
}

/** Files a folder counted whole may hold before the rest is left out (and the folder says so). */
const FOLDER_FILE_LIMIT = 5_000;
const JS = /\.(?:m|c)?js$/;
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'ash']);
const builtins = new Set(builtinModules);
/** Modules that run code no import names: a program using them counts its folder whole. */
const UNFOLLOWABLE = new Set(['child_process', 'node:child_process', 'worker_threads', 'node:worker_threads', 'vm', 'node:vm', 'module', 'node:module']);
/** A spec standing for a folder whose files a computed import may load (`../plugins/${x}.js`). */
const FOLDER_MARK = '\0folder:';
/** Imports by content hash: the guard re-reads the graph before every call, and parses only what changed. */
const parsed = new Map<string, string[] | undefined>();

type Acorn = typeof import('acorn');
type Walk = typeof import('acorn-walk');

/**
 * The team's code as it is on disk now: what codeRoots names, and the scripts its `hooks:` run (on
 * the host, unsandboxed), each of those counted alone, as a folder's hooks are (shellCommandCode).
 */
export async function codeManifest(config: TeamConfig): Promise<CodeManifest> {
  const manifest = await manifestOfRoots(config.dir, codeRoots(config));
  for (const command of new Set(config.hooks ? listHooks(config.hooks).map((h) => h.command) : [])) mergeManifest(manifest, await shellCommandCode(config.dir, command));
  return manifest;
}

/** Adds `more` to `into` (folders kept sorted). */
export function mergeManifest(into: CodeManifest, more: CodeManifest): CodeManifest {
  Object.assign(into.files, more.files);
  Object.assign(into.packages, more.packages);
  for (const d of more.folders) if (!into.folders.includes(d)) into.folders.push(d);
  into.folders.sort();
  return into;
}

/**
 * The code `roots` stand for, by path relative to `root`: each file, what a JavaScript file imports,
 * and (unless `namedOnly`) the whole folder of a program whose imports cannot be read. `namedOnly`
 * (hooks): a script in another language counts alone, not with its folder, where the hook itself or
 * the person keeps writing files (logs, caches, settings) that must not read as changed code.
 */
export async function manifestOfRoots(root: string, roots: { files: readonly string[]; folders: readonly string[] }, opts: { namedOnly?: boolean } = {}): Promise<CodeManifest> {
  if (!roots.files.length && !roots.folders.length) return { files: {}, packages: {}, folders: [] };
  // The parser is loaded only for code of its own.
  const [acorn, walk] = await Promise.all([import('acorn'), import('acorn-walk')]);
  const graph = new Graph(root, acorn, walk, !opts.namedOnly);
  for (const f of roots.files) graph.visit(f);
  for (const d of roots.folders) graph.wholeFolder(d);
  return graph.manifest();
}

/**
 * The workspace code one shell command line runs, as a folder hook's fingerprint: the files its
 * words name (scripts, `node_modules/.bin/*`), and what their JavaScript imports.
 */
export function shellCommandCode(workspace: string, commandLine: string): Promise<CodeManifest> {
  // Hooks see the workspace as $ADK_PROJECT_DIR / $CLAUDE_PROJECT_DIR (`"$CLAUDE_PROJECT_DIR"/.adk/check.sh`).
  // Where output is redirected to (`>> .adk/hook.log`) is written, not run: a log that grows is no changed code.
  const line = commandLine.replace(/\$\{?(?:ADK|CLAUDE)_PROJECT_DIR\}?/g, () => workspace).replace(/>>?\|?\s*(?:"[^"]*"|'[^']*'|[^\s;&|()<>'"]+)/g, ' ');
  return manifestOfRoots(workspace, commandRoots(workspace, 'sh', ['-c', line], workspace, { binDir: true, wholeFolders: false }), { namedOnly: true });
}

/** Commands that run a program adk may find among their words (else their folder counts whole). */
const INTERPRETERS = new Set(['node', 'nodejs', 'python', 'python3', 'deno', 'bun', 'ruby', 'perl', 'php', 'sh', 'bash', 'dash', 'zsh', 'tsx', 'ts-node', 'uv', 'uvx']);

/** A file a command word names: as written, or with the extension its interpreter would add. */
function scriptFile(p: string): string | undefined {
  for (const candidate of [p, `${p}.js`, `${p}.mjs`, `${p}.cjs`, `${p}.py`, path.join(p, 'index.js'), path.join(p, '__main__.py')]) if (isFile(candidate)) return candidate;
  return undefined;
}

/** Flags that hand an interpreter a program inline or by module name (`node -e`, `python -c`, `python -m`): its imports cannot be found from a file. */
const INLINE_PROGRAM = new Set(['-e', '--eval', '-p', '--print', '-c', '-m']);

/**
 * Files the agents file names as code (module tools and middlewares, MCP commands and scripts in its
 * folder), and folders to count whole (an MCP server given its program inline: `node -e "…"`).
 */
export function codeRoots(config: TeamConfig): { files: string[]; folders: string[] } {
  const files = new Set<string>();
  const folders = new Set<string>();
  for (const a of config.agents.values()) {
    const refs = a.type === 'chat' || a.type === 'deep' ? a.tools : a.type === 'plan_execute' ? a.executor.tools : [];
    for (const r of refs) if (r.kind === 'module') files.add(r.resolvedPath);
    for (const m of a.type === 'chat' || a.type === 'deep' ? (a.middlewares ?? []) : []) if (m.kind === 'module') files.add(m.resolvedPath);
  }
  for (const s of config.mcpServers.values()) {
    // A remote server runs no code here.
    if (s.url) continue;
    const found = commandRoots(config.dir, s.command, s.args, s.cwd ? path.resolve(config.dir, s.cwd) : config.dir);
    for (const f of found.files) files.add(f);
    for (const d of found.folders) folders.add(d);
  }
  return { files: [...files].sort(), folders: [...folders].sort() };
}

/** How commandRoots reads a command line beyond what it does for an MCP server. */
export interface CommandRootsOptions {
  /** A bare word (`prettier` in `npx prettier`) names `dir/node_modules/.bin/<word>` when that exists: npx and npm scripts run it. */
  binDir?: boolean | undefined;
  /** Count a folder whole where its program cannot be found (default true); false: only the files the words name. */
  wholeFolders?: boolean | undefined;
}

/**
 * The files inside `dir` one command line names (`command args…`, also the script of `sh -c "…"`),
 * and folders to count whole (a program given inline: `node -e "…"`). Shared by MCP servers and
 * folder hooks, so both fingerprint a command's code the same way.
 */
export function commandRoots(dir: string, command: string, args: readonly string[], cwd: string, opts: CommandRootsOptions = {}): { files: string[]; folders: string[] } {
  const files = new Set<string>();
  const folders = new Set<string>();
  const wholeFolders = opts.wholeFolders ?? true;
  const words = [command, ...args];
  // `sh -c "exec node mcp/server.js"`: the script's words name files too.
  const shellFlag = SHELLS.has(path.basename(command)) ? args.indexOf('-c') : -1;
  const script = shellFlag >= 0 ? args[shellFlag + 1] : undefined;
  if (script !== undefined) words.push(...shellWords(script));
  // A program given inline (`node -e "require('./lib')"`, `python -c …`, `python -m pkg`, `-msrv`) loads
  // what no file names: its folder counts whole.
  if (wholeFolders && words.some((w, i) => (INLINE_PROGRAM.has(w) || /^-[mc]\S/.test(w)) && i !== shellFlag + 1)) folders.add(cwd);
  const candidates = words.flatMap((w) => [w, ...(w.includes('=') ? [w.slice(w.indexOf('=') + 1)] : [])]);
  const bases = new Set([dir, cwd]);
  // `cd mcp && node ./server.js`: a folder a word names is where later words may be relative to.
  for (const word of candidates) for (const base of [...bases]) if (isDir(path.resolve(base, word)) && isInside(dir, path.resolve(base, word))) bases.add(path.resolve(base, word));
  let named = false;
  for (const word of candidates) {
    for (const base of bases) {
      // `node mcp/server` runs mcp/server.js: the extensions Node and Python add are tried.
      const file = scriptFile(path.resolve(base, word));
      // Inside the folder, or reached by a relative path (`../scripts/server.js` in the same workspace).
      if (file && (isInside(dir, file) || (!path.isAbsolute(word) && word.startsWith('.')))) {
        files.add(file);
        named = true;
      }
    }
    // `npx prettier`: the folder's own node_modules/.bin/prettier is what runs (a model may have written it).
    const bin = opts.binDir && /^[\w@.+-][\w@.+-]*$/.test(word) && !word.startsWith('.') ? path.join(dir, 'node_modules', '.bin', word) : undefined;
    if (bin && isFile(bin)) {
      files.add(bin);
      named = true;
    }
  }
  // An interpreter with no script adk can find (`python3 -X …`, `node --import=…`): its folder counts whole.
  if (wholeFolders && !named && INTERPRETERS.has(path.basename(command))) folders.add(cwd);
  return { files: [...files].sort(), folders: [...folders].sort() };
}

/** One digest of a manifest, for the team's fingerprint. */
export function manifestDigest(m: CodeManifest): string {
  const h = createHash('sha256');
  for (const f of Object.keys(m.files).sort()) h.update(`f\0${f}\0${m.files[f]}\0`);
  for (const p of Object.keys(m.packages).sort()) h.update(`p\0${p}\0${m.packages[p]}\0`);
  for (const d of [...m.folders].sort()) h.update(`d\0${d}\0`);
  return h.digest('hex');
}

/** What differs between the code that was trusted and the code now, in words; undefined when nothing does. */
export function describeCodeChange(trusted: CodeManifest, now: CodeManifest): string | undefined {
  const changes: string[] = [];
  for (const f of new Set([...Object.keys(trusted.files), ...Object.keys(now.files)])) {
    const was = trusted.files[f];
    const is = now.files[f];
    if (was === is) continue;
    changes.push(was === undefined ? `${f} (new)` : is === undefined || is === MISSING ? `${f} (removed)` : `${f} (changed)`);
  }
  for (const p of new Set([...Object.keys(trusted.packages), ...Object.keys(now.packages)])) {
    if (trusted.packages[p] !== now.packages[p]) changes.push(`package ${p} (${trusted.packages[p] ?? 'none'} → ${now.packages[p] ?? 'none'})`);
  }
  if (!changes.length) return undefined;
  return changes.length > 3 ? `${changes.slice(0, 3).join(', ')} and ${changes.length - 3} more` : changes.join(', ');
}


class Graph {
  private readonly files = new Map<string, string>();
  private readonly packages = new Map<string, string>();
  private readonly folders = new Set<string>();
  private readonly seen = new Set<string>();

  constructor(
    private readonly root: string,
    private readonly acorn: Acorn,
    private readonly walk: Walk,
    /** A file whose imports cannot be read counts its whole folder (false: the file alone). */
    private readonly unreadableFolders = true,
  ) {}

  manifest(): CodeManifest {
    return { files: Object.fromEntries(this.files), packages: Object.fromEntries(this.packages), folders: [...this.folders].sort() };
  }

  visit(file: string): void {
    const real = realOrSelf(file);
    if (this.seen.has(real)) return;
    this.seen.add(real);
    // A FIFO or device at a code path would block here (before every module call): only regular files are read.
    const bytes = readRegularFile(real);
    if (bytes === undefined) {
      this.files.set(this.rel(file), MISSING);
      return;
    }
    this.files.set(this.rel(file), sha256(bytes));
    if (real.endsWith('.json')) return;
    if (!JS.test(real)) return this.unreadableFolders ? this.wholeFolder(path.dirname(real)) : undefined;
    const hash = this.files.get(this.rel(file))!;
    if (!parsed.has(hash)) parsed.set(hash, this.imports(bytes.toString('utf8')));
    const imports = parsed.get(hash);
    if (!imports) return this.wholeFolder(path.dirname(real));
    for (const spec of imports) this.follow(spec, real);
  }

  /** The literal specifiers a module loads, or undefined when one is computed (or it does not parse). */
  private imports(source: string): string[] | undefined {
    let ast;
    const options = { ecmaVersion: 'latest', allowHashBang: true, allowAwaitOutsideFunction: true, allowReturnOutsideFunction: true, allowImportExportEverywhere: true } as const;
    try {
      ast = this.acorn.parse(source, { ...options, sourceType: 'module' });
    } catch {
      try {
        ast = this.acorn.parse(source, { ...options, sourceType: 'script' });
      } catch {
        return undefined;
      }
    }
    const specs: string[] = [];
    let computed = false;
    let requireNames = 0;
    let requireCalls = 0;
    const literal = (node: unknown) => {
      const n = node as { type: string; value?: unknown; quasis?: Array<{ value: { cooked: string } }>; expressions?: unknown[] } | null;
      if (n?.type === 'Literal' && typeof n.value === 'string') return specs.push(n.value);
      if (n?.type === 'TemplateLiteral' && n.expressions?.length === 0) return specs.push(n.quasis![0].value.cooked);
      // `../plugins/${name}.js`: the folder its fixed start names counts whole.
      const prefix = n?.type === 'TemplateLiteral' ? n.quasis![0].value.cooked : '';
      if (prefix.startsWith('.') && prefix.includes('/')) return specs.push(`${FOLDER_MARK}${prefix.slice(0, prefix.lastIndexOf('/') + 1)}`);
      computed = true;
    };
    this.walk.full(ast, (node) => {
      const n = node as unknown as { type: string; name?: string; source?: unknown; callee?: { type: string; name?: string; object?: { name?: string }; property?: { name?: string } }; property?: { name?: string }; arguments?: unknown[] };
      if (n.type === 'Identifier' && n.name === 'require') requireNames++;
      // createRequire in any form, eval, new Function, workers and child processes: code we cannot follow.
      if ((n.type === 'Identifier' && (n.name === 'createRequire' || n.name === 'eval')) || (n.type === 'MemberExpression' && n.property?.name === 'createRequire')) computed = true;
      if ((n.type === 'NewExpression' || n.type === 'CallExpression') && n.callee?.type === 'Identifier' && (n.callee.name === 'Function' || n.callee.name === 'Worker')) computed = true;
      if ((n.type === 'ImportDeclaration' || n.type === 'ExportAllDeclaration' || n.type === 'ExportNamedDeclaration') && n.source) literal(n.source);
      else if (n.type === 'ImportExpression') literal(n.source);
      else if (n.type === 'CallExpression' && n.callee) {
        const c = n.callee;
        const isRequire = (c.type === 'Identifier' && c.name === 'require') || (c.type === 'MemberExpression' && c.object?.name === 'require' && c.property?.name === 'resolve');
        // module.require(x), process.dlopen: code we cannot follow.
        const isOtherLoader = c.type === 'MemberExpression' && ((c.object?.name === 'module' && c.property?.name === 'require') || c.property?.name === 'dlopen');
        if (isRequire) {
          requireCalls++;
          literal(n.arguments?.[0]);
        } else if (isOtherLoader) computed = true;
      }
    });
    // `const r = require; r('./x')`: require handed on as a value.
    if (requireNames > requireCalls) computed = true;
    if (specs.some((x) => UNFOLLOWABLE.has(x))) computed = true;
    return computed ? undefined : specs;
  }

  private follow(spec: string, from: string): void {
    if (spec.startsWith('node:') || builtins.has(spec)) return;
    const dir = path.dirname(from);
    if (spec.startsWith(FOLDER_MARK)) return this.wholeFolder(path.resolve(dir, spec.slice(FOLDER_MARK.length)));
    if (spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('file:')) {
      // `./lib.mjs?v=1` and `./lib.mjs#x` load ./lib.mjs: the query and fragment are not part of the file's name.
      spec = spec.replace(/[?#].*$/s, '');
      const target = spec.startsWith('file:') ? fileURLToPath(spec) : path.resolve(dir, spec);
      const resolved = resolveFrom(from, spec.startsWith('file:') ? target : spec) ?? target;
      if (insideNodeModules(resolved)) return this.addPackage(packageOfFile(resolved));
      return this.visit(resolved);
    }
    if (spec.startsWith('#')) {
      // Package imports map: every target it names counts (the import and require conditions may differ).
      const pkg = nearestPackageJson(dir);
      if (!pkg) return this.wholeFolder(dir);
      this.visit(pkg);
      for (const t of packageTargets(pkg, 'imports')) this.visit(t);
      return;
    }
    const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
    const pkgDir = findPackageDir(dir, name);
    if (!pkgDir) return void this.packages.set(name, MISSING);
    const real = realOrSelf(pkgDir);
    if (insideNodeModules(real)) return this.addPackage(pkgDir);
    // A local package linked into node_modules (`file:` or a workspace): its code is the folder's own,
    // every entry its package.json names (each condition of `exports`, `main`, `module`).
    this.visit(path.join(real, 'package.json'));
    const targets = packageTargets(path.join(real, 'package.json'), 'exports');
    const entry = resolveFrom(from, spec);
    if (entry) targets.push(entry);
    if (!targets.length) return this.wholeFolder(real);
    for (const t of targets) this.visit(t);
  }

  private addPackage(pkgDir: string | undefined): void {
    if (!pkgDir) return;
    try {
      const pkg = JSON.parse(readFileSync(path.join(pkgDir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      this.packages.set(pkg.name ?? path.basename(pkgDir), pkg.version ?? '(no version)');
    } catch {
      this.packages.set(path.basename(pkgDir), MISSING);
    }
  }

  /** Every file under `dir` (not node_modules or .git), sorted: what a program we cannot read may load. */
  wholeFolder(dir: string): void {
    const rel = this.rel(dir) || '.';
    if (this.folders.has(rel)) return;
    this.folders.add(rel);
    let count = 0;
    const stack = [dir];
    while (stack.length) {
      const d = stack.pop()!;
      let entries;
      try {
        entries = readdirSync(d, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) {
          if (e.name !== 'node_modules' && e.name !== '.git') stack.push(p);
        } else if (e.isSymbolicLink()) {
          // A link planted in the folder (`json.py -> /tmp/evil.py`) changes what runs: its target counts.
          try {
            this.files.set(this.rel(p), `${LINK_PREFIX}${readlinkSync(p)}`);
          } catch {
            this.files.set(this.rel(p), MISSING);
          }
        } else if (e.isFile()) {
          if (++count > FOLDER_FILE_LIMIT) return void this.folders.add(`${rel} (first ${FOLDER_FILE_LIMIT} files)`);
          if (!this.files.has(this.rel(p))) {
            const bytes = readRegularFile(p);
            this.files.set(this.rel(p), bytes === undefined ? MISSING : sha256(bytes));
          }
        }
      }
    }
  }

  private rel(p: string): string {
    return path.relative(this.root, p);
  }
}

function resolveFrom(from: string, spec: string): string | undefined {
  try {
    return createRequire(from).resolve(spec);
  } catch {
    return undefined;
  }
}

/** The package.json nearest above `dir` (not inside node_modules). */
function nearestPackageJson(dir: string): string | undefined {
  for (let d = dir; ; d = path.dirname(d)) {
    if (path.basename(d) === 'node_modules') return undefined;
    const p = path.join(d, 'package.json');
    if (existsSync(p)) return p;
    if (path.dirname(d) === d) return undefined;
  }
}

/** Every relative file a package.json's `exports` (with `main` and `module`) or `imports` map names, under any condition. */
function packageTargets(pkgJson: string, field: 'exports' | 'imports'): string[] {
  let pkg: Record<string, unknown>;
  try {
    pkg = JSON.parse(readFileSync(pkgJson, 'utf8')) as Record<string, unknown>;
  } catch {
    return [];
  }
  const out: string[] = [];
  const collect = (v: unknown): void => {
    if (typeof v === 'string') {
      if (v.startsWith('./') && !v.includes('*')) out.push(path.resolve(path.dirname(pkgJson), v));
    } else if (v && typeof v === 'object') for (const x of Object.values(v)) collect(x);
  };
  collect(pkg[field]);
  if (field === 'exports') for (const k of ['main', 'module']) if (typeof pkg[k] === 'string') collect(`./${String(pkg[k]).replace(/^\.\//, '')}`);
  return out;
}

function findPackageDir(dir: string, name: string): string | undefined {
  for (let d = dir; ; d = path.dirname(d)) {
    const candidate = path.join(d, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (path.dirname(d) === d) return undefined;
  }
}

/** The package folder a file inside node_modules belongs to: the folder right under the last node_modules (or its @scope). */
function packageOfFile(file: string): string | undefined {
  const parts = file.split(path.sep);
  const nm = parts.lastIndexOf('node_modules');
  if (nm < 0 || nm + 1 >= parts.length) return undefined;
  const end = parts[nm + 1].startsWith('@') ? nm + 3 : nm + 2;
  return parts.slice(0, end).join(path.sep);
}

const insideNodeModules = (p: string) => p.split(path.sep).includes('node_modules');
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');




function isInside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

