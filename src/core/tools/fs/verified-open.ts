import { constants, existsSync, type Stats } from 'node:fs';
import { mkdir, open, readlink, realpath, stat as statPath, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { isInside, WorkspaceError } from '../workspace.js';

/**
 * Opening what was checked, not what a path names a moment later. A path checked with realpath can
 * be swapped for a symlink before it is opened; so every open here uses O_NOFOLLOW and is then
 * verified on the descriptor itself: where the kernel says the open file lives
 * (`/proc/self/fd/N`) must be inside the workspace. Children of a verified folder are reached
 * through that folder's descriptor (`/proc/self/fd/N/name`), one component at a time, so a folder
 * swapped for a symlink after its check cannot redirect them.
 */

const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK, O_DIRECTORY } = constants;
/** O_NONBLOCK: a FIFO put where a file was expected opens at once (and is then refused) instead of hanging. */
const READ_FLAGS = O_RDONLY | O_NOFOLLOW | O_NONBLOCK;
const DIR_FLAGS = O_RDONLY | O_NOFOLLOW | O_DIRECTORY;

/** Linux gives every descriptor a path that reaches exactly the open object; elsewhere we fall back to checked paths. */
const PROC_FD = existsSync('/proc/self/fd') ? '/proc/self/fd' : undefined;

export type OpenKind = 'file' | 'dir' | 'either';

export interface Opened {
  fh: FileHandle;
  stat: Stats;
  /** The real path it was opened at (for messages relative to the root and the non-Linux fallback). */
  real: string;
}

/** A path that reaches `name` inside the opened folder itself, whatever its path names by now. */
export function childPath(dir: Opened, name: string): string {
  if (name === '' || name === '.' || name === '..' || name.includes('/') || name.includes('\0')) throw new WorkspaceError(`invalid file name '${name}'`);
  return PROC_FD ? `${PROC_FD}/${dir.fh.fd}/${name}` : path.join(dir.real, name);
}

/** A path that reaches the opened folder itself (readdir through it lists what was verified). */
export function openedPath(dir: Opened): string {
  return PROC_FD ? `${PROC_FD}/${dir.fh.fd}` : dir.real;
}

/**
 * Opens `real` (a path resolveInWorkspace returned) for reading and proves the open file or folder
 * lies inside `realRoot`; otherwise closes it and refuses, naming only `userPath`.
 */
export async function openInside(realRoot: string, real: string, userPath: string, kind: OpenKind): Promise<Opened> {
  const fh = await openOrExplain(real, kind === 'dir' ? DIR_FLAGS : READ_FLAGS, userPath);
  return verified(fh, realRoot, real, userPath, kind);
}

/** openInside, or undefined when nothing is there (a file about to be created). */
export async function openIfExists(realRoot: string, real: string, userPath: string): Promise<Opened | undefined> {
  let fh: FileHandle;
  try {
    fh = await open(real, READ_FLAGS);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return openInside(realRoot, real, userPath, 'either');
  }
  return verified(fh, realRoot, real, userPath, 'either');
}

/**
 * Opens the entry `name` of a verified folder without following a symlink. Returns undefined when
 * the entry is a symlink, is gone, or is not of the kind wanted (a walk skips those).
 */
export async function openChild(realRoot: string, dir: Opened, name: string, kind: OpenKind): Promise<Opened | undefined> {
  let fh: FileHandle;
  try {
    fh = await open(childPath(dir, name), kind === 'dir' ? DIR_FLAGS : READ_FLAGS);
  } catch {
    return undefined;
  }
  try {
    return await verified(fh, realRoot, path.join(dir.real, name), name, kind);
  } catch {
    return undefined;
  }
}

/**
 * The folder a new file is created in, opened and verified: walks from the root one component at a
 * time, creating missing folders, never following a symlink. `relDir` is relative to the root.
 */
export async function openDirForCreate(realRoot: string, relDir: string, userPath: string): Promise<Opened> {
  let dir = await openInside(realRoot, realRoot, '.', 'dir');
  const segments = relDir === '' ? [] : relDir.split(path.sep);
  try {
    for (const seg of segments) {
      const next = childPath(dir, seg);
      try {
        await mkdir(next);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const fh = await openOrExplain(next, DIR_FLAGS, userPath);
      const child = await verified(fh, realRoot, path.join(dir.real, seg), userPath, 'dir');
      await dir.fh.close();
      dir = child;
    }
    return dir;
  } catch (e) {
    await dir.fh.close().catch(() => {});
    throw e;
  }
}

async function openOrExplain(p: string, flags: number, userPath: string): Promise<FileHandle> {
  try {
    return await open(p, flags);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // The path was checked a moment ago: a symlink or a missing entry now means it changed under us.
    if (code === 'ELOOP') throw new WorkspaceError(`'${userPath}' was replaced by a symbolic link while adk opened it; refused`);
    if (code === 'ENOTDIR') throw new WorkspaceError(`'${userPath}': a part of the path is not a folder (it may have changed while adk opened it)`);
    if (code === 'ENOENT') throw new WorkspaceError(`'${userPath}' does not exist (it may have changed while adk opened it)`);
    throw new WorkspaceError(`cannot open '${userPath}': ${code ?? (e as Error).message}`);
  }
}

async function verified(fh: FileHandle, realRoot: string, real: string, userPath: string, kind: OpenKind): Promise<Opened> {
  try {
    const stat = await fh.stat();
    if (kind === 'file' && !stat.isFile()) throw new WorkspaceError(stat.isDirectory() ? `'${userPath}' is a directory` : notRegular(stat, userPath));
    if (kind === 'dir' && !stat.isDirectory()) throw new WorkspaceError(`'${userPath}' is not a folder`);
    if (!stat.isFile() && !stat.isDirectory()) throw new WorkspaceError(notRegular(stat, userPath));
    if (!(await liesInside(fh, stat, realRoot, real))) {
      throw new WorkspaceError(`'${userPath}' is outside the workspace (through a symbolic link); only paths inside the workspace root are allowed`);
    }
    return { fh, stat, real };
  } catch (e) {
    await fh.close().catch(() => {});
    throw e;
  }
}

async function liesInside(fh: FileHandle, stat: Stats, realRoot: string, real: string): Promise<boolean> {
  if (PROC_FD) {
    const where = await readlink(`${PROC_FD}/${fh.fd}`);
    return path.isAbsolute(where) && isInside(realRoot, where);
  }
  // Without /proc: the checked path must still name this very file (same device and inode).
  const now = await realpath(real).catch(() => undefined);
  if (now === undefined || !isInside(realRoot, now)) return false;
  const s = await statPath(now).catch(() => undefined);
  return s !== undefined && s.dev === stat.dev && s.ino === stat.ino;
}

function notRegular(s: Stats, userPath: string): string {
  const kind = s.isFIFO() ? 'a FIFO' : s.isSocket() ? 'a socket' : s.isCharacterDevice() || s.isBlockDevice() ? 'a device' : 'a special file';
  return `'${userPath}' is ${kind}; only regular files and directories are allowed`;
}
