import { execFile } from 'node:child_process';
import { hostGitEnv } from '../git/host-git-env.js';
import { existsSync } from 'node:fs';
import { cp, lstat, mkdir, readFile, realpath, rm, rmdir, symlink, unlink, writeFile } from 'node:fs/promises';
import { childPath, openDirForCreate, openInside } from '../../core/tools/fs/verified-open.js';
import { writeInside } from '../../core/tools/fs/write-inside.js';
import { basename, dirname, join, relative } from 'node:path';

/**
 * Snapshots of a workspace's files in a git repository of adk's own (under ADK_HOME, never the
 * workspace's `.git`): `git --git-dir=<shadow> --work-tree=<workspace>`, so the workspace's
 * `.gitignore` files decide what is kept and unchanged files are not read again (git's index).
 */

/** Files larger than this are left out of a snapshot (and never deleted by a restore). */
export const MAX_FILE_BYTES = 5 * 1024 * 1024;
/** A workspace with more files than this (after .gitignore) is not snapshotted. */
export const MAX_FILES = 20_000;
/** Nor one whose files add up to more than this. */
export const MAX_TOTAL_BYTES = 300 * 1024 * 1024;

/** The workspace cannot be snapshotted (too large); the message says why. */
export class SnapshotRefused extends Error {}

export interface Snapshot {
  tree: string;
  /** Files left out for their size. */
  big: string[];
}

export interface TreeEntry {
  mode: string;
  blob: string;
}

export class ShadowGit {
  constructor(
    readonly gitDir: string,
    readonly workspace: string,
    /** Where the file contents go: shared by the sessions of a workspace, so each version of a file is stored once. */
    readonly objectDir: string = join(gitDir, 'objects'),
  ) {}

  /** Runs git on the shadow repository; stdout as text (or bytes). */
  private git(args: string[], o: { input?: string; bytes?: boolean; bare?: boolean } = {}): Promise<string> {
    return new Promise((resolve, reject) => {
      const child = execFile(
        'git',
        o.bare ? args : ['--git-dir', this.gitDir, '--work-tree', this.workspace, ...args],
        {
          cwd: this.workspace,
          maxBuffer: 512 * 1024 * 1024,
          encoding: o.bytes ? 'buffer' : 'utf8',
          // The person's git config may run code (fsmonitor, hooks) or change what is read (autocrlf): none of it here.
          env: hostGitEnv(this.workspace, { HOME: this.gitDir, GIT_CONFIG_GLOBAL: '/dev/null', GIT_LITERAL_PATHSPECS: '1', GIT_OBJECT_DIRECTORY: this.objectDir }),
        },
        (err, stdout, stderr) => {
          if (err) return reject(new Error(`git ${args[0]}: ${String(stderr).trim() || err.message}`));
          resolve(stdout as unknown as string);
        },
      );
      if (o.input !== undefined) child.stdin?.end(o.input);
    });
  }

  private async init(): Promise<void> {
    if (existsSync(join(this.gitDir, 'HEAD'))) return;
    await mkdir(this.gitDir, { recursive: true, mode: 0o700 });
    await mkdir(this.objectDir, { recursive: true, mode: 0o700 });
    await this.git(['init', '-q', '--bare', this.gitDir], { bare: true });
    for (const [k, v] of [['core.bare', 'false'], ['gc.auto', '0'], ['core.autocrlf', 'false'], ['core.fileMode', 'true']]) await this.git(['config', k!, v!]);
  }

  /** The workspace's files as a tree id (written to the shadow repository). */
  async snapshot(): Promise<Snapshot> {
    await this.init();
    // One session, one process (its lease), one snapshot at a time: a lock left here is a killed adk's.
    await rm(join(this.gitDir, 'index.lock'), { force: true });
    await this.copyExcludes();
    const listed = (await this.git(['ls-files', '-z', '--cached', '--others', '--exclude-standard'])).split('\0').filter((p) => p && !p.endsWith('/'));
    const paths = [...new Set(listed)];
    if (paths.length > MAX_FILES) throw new SnapshotRefused(`it has more than ${MAX_FILES} files outside .gitignore`);
    const keep: string[] = [];
    const drop: string[] = [];
    const big: string[] = [];
    let total = 0;
    for (let i = 0; i < paths.length; i += 256) {
      const stats = await Promise.all(paths.slice(i, i + 256).map((p) => lstat(join(this.workspace, p)).catch(() => undefined)));
      stats.forEach((st, j) => {
        const p = paths[i + j]!;
        if (!st || !(st.isFile() || st.isSymbolicLink())) return void drop.push(p);
        if (st.size > MAX_FILE_BYTES) {
          big.push(p);
          return void drop.push(p);
        }
        total += st.size;
        keep.push(p);
      });
      if (total > MAX_TOTAL_BYTES) throw new SnapshotRefused(`its files add up to more than ${MAX_TOTAL_BYTES / 1024 / 1024} MB`);
    }
    if (drop.length) await this.git(['rm', '-q', '--cached', '--ignore-unmatch', '-r', '--pathspec-from-file=-', '--pathspec-file-nul'], { input: drop.join('\0') });
    if (keep.length) await this.git(['add', '-A', '-f', '--pathspec-from-file=-', '--pathspec-file-nul'], { input: keep.join('\0') });
    const tree = (await this.git(['write-tree'])).trim();
    return { tree, big };
  }

  /** The workspace's own `.git/info/exclude` counts too (a file, never written to). */
  private async copyExcludes(): Promise<void> {
    const own = await readFile(join(this.workspace, '.git', 'info', 'exclude'), 'utf8').catch(() => '');
    const target = join(this.gitDir, 'info', 'exclude');
    const current = await readFile(target, 'utf8').catch(() => undefined);
    if (current === own) return;
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, own);
  }

  /** Paths that differ between two trees. */
  async changed(from: string, to: string): Promise<string[]> {
    if (from === to) return [];
    const out = await this.git(['diff-tree', '-r', '-z', '--name-only', '--no-renames', from, to]);
    return out.split('\0').filter(Boolean);
  }

  /** Every file of a tree: path → mode and blob. */
  async entries(tree: string): Promise<Map<string, TreeEntry>> {
    const out = await this.git(['ls-tree', '-r', '-z', '--full-tree', tree]);
    const map = new Map<string, TreeEntry>();
    for (const line of out.split('\0')) {
      const m = /^(\d+) (\w+) ([0-9a-f]+)\t([\s\S]+)$/.exec(line);
      if (m && m[2] === 'blob') map.set(m[4]!, { mode: m[1]!, blob: m[3]! });
    }
    return map;
  }

  /**
   * Makes each of `paths` in the workspace what it is in `target`: written back (mode and symlinks
   * kept), or deleted when the tree does not have it (its folders too, once empty). Every change goes
   * through a verified descriptor of the file's folder, as the file tools' writes do: a folder swapped
   * for a symlink meanwhile (a background command) cannot carry a write or a delete out of the workspace.
   */
  async restore(target: Map<string, TreeEntry>, paths: readonly string[]): Promise<void> {
    const root = await realpath(this.workspace);
    for (const path of paths) {
      const file = this.inside(root, path);
      const rel = relative(root, dirname(file));
      const entry = target.get(path);
      if (!entry) {
        const dir = await openInside(root, dirname(file), path, 'dir').catch(() => undefined);
        if (!dir) continue; // its folder is gone (or is no folder of the workspace): nothing to delete
        try {
          await unlink(childPath(dir, basename(file))).catch(() => {});
        } finally {
          await dir.fh.close();
        }
        await this.pruneEmpty(root, rel);
        continue;
      }
      const data = (await this.git(['cat-file', 'blob', entry.blob], { bytes: true })) as unknown as Buffer;
      if (entry.mode !== '120000') {
        // A temp file renamed over the name through the folder's descriptor: a symlink or a second
        // hard link at the name is replaced, never written through.
        await writeInside(root, file, path, data, entry.mode === '100755' ? 0o755 : 0o644);
        continue;
      }
      const dir = await openDirForCreate(root, rel, path);
      try {
        const at = childPath(dir, basename(file));
        await unlink(at).catch(() => {});
        await symlink(data.toString('utf8'), at);
      } finally {
        await dir.fh.close();
      }
    }
  }

  /** The absolute path of `path`, refused when it is no workspace file (`..`, `.git`, absolute). */
  private inside(root: string, path: string): string {
    const parts = path.split('/');
    if (!path || path.startsWith('/') || parts.some((p) => p === '..' || p === '' || p === '.') || parts[0] === '.git') throw new Error(`refusing to restore ${path}: not a workspace file`);
    return join(root, path);
  }

  /** Removes `rel` and the folders above it while empty, each through its verified parent's descriptor. */
  private async pruneEmpty(root: string, rel: string): Promise<void> {
    for (let dir = rel; dir && dir !== '.'; dir = dirname(dir)) {
      const parent = await openInside(root, join(root, dirname(dir)), dirname(dir), 'dir').catch(() => undefined);
      if (!parent) return;
      try {
        await rmdir(childPath(parent, basename(dir)));
      } catch {
        return;
      } finally {
        await parent.fh.close();
      }
    }
  }

  /** A copy of a session's repository (its index; the objects are shared) for a forked session. */
  static async copy(from: string, to: string): Promise<void> {
    if (!existsSync(join(from, 'HEAD'))) return;
    await cp(from, to, { recursive: true, force: false, errorOnExist: false });
  }
}
