import { lstat, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { realOrSelf } from '../fs-checks.js';

/** read_file and edit_file refuse larger files: they would flood the model's context anyway. */
export const MAX_READ_FILE_BYTES = 2 * 1024 * 1024;

export class WorkspaceError extends Error {
  override name = 'WorkspaceError';
}

export interface ResolveOptions {
  /** The path may not exist yet (write_file): its nearest existing parent is checked instead. */
  allowMissing?: boolean | undefined;
}

/** Whether `target` is `root` or lies below it (both absolute and normalized). */
export function isInside(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel === '' || (!rel.startsWith('..' + path.sep) && rel !== '..' && !path.isAbsolute(rel));
}

/**
 * Resolves a path the model gave against the workspace root and returns its real absolute path.
 * Refuses anything whose real location is outside the root (`../`, absolute paths, symlinks)
 * and anything that is not a regular file or directory (devices, FIFOs, sockets).
 * The caller must use the returned path, never the user's, so a symlink cannot redirect it later.
 */
export async function resolveInWorkspace(root: string, userPath: string, options: ResolveOptions = {}): Promise<string> {
  if (typeof userPath !== 'string' || userPath.trim() === '') throw new WorkspaceError('path is empty');
  if (userPath.includes('\0')) throw new WorkspaceError('path contains a NUL character');
  const realRoot = await realpath(root);
  const wanted = path.resolve(realRoot, userPath);
  if (!isInside(realRoot, wanted)) throw outside(userPath);

  const real = await realpathOrMissing(wanted);
  if (real !== undefined) {
    if (!isInside(realRoot, real)) throw outside(userPath, real);
    await assertFileOrDirectory(real, userPath);
    return real;
  }
  if (await isLink(wanted)) throw new WorkspaceError(`'${userPath}' is a symbolic link whose target does not exist`);
  if (!options.allowMissing) throw new WorkspaceError(`'${userPath}' does not exist`);

  // A file to be created: its nearest existing ancestor decides where it really lands.
  let parent = path.dirname(wanted);
  const rest = [path.basename(wanted)];
  for (;;) {
    const realParent = await realpathOrMissing(parent);
    if (realParent !== undefined) {
      if (!isInside(realRoot, realParent)) throw outside(userPath, realParent);
      if (!(await stat(realParent)).isDirectory()) throw new WorkspaceError(`'${userPath}': '${path.relative(realRoot, realParent)}' is not a directory`);
      return path.join(realParent, ...rest);
    }
    if (await isLink(parent)) throw new WorkspaceError(`'${userPath}': '${path.relative(realRoot, parent)}' is a symbolic link whose target does not exist`);
    rest.unshift(path.basename(parent));
    parent = path.dirname(parent);
  }
}

export interface WorkspacePath {
  /** Real absolute path of the workspace root. */
  root: string;
  /** Real absolute path: the one to open (through fs/verified-open, which checks what it opened). */
  real: string;
  /** The same path relative to the workspace root, for messages. */
  shown: string;
}

/** `resolveInWorkspace` plus the path to show the model. */
export async function locate(root: string, userPath: string, options: ResolveOptions = {}): Promise<WorkspacePath> {
  const real = await resolveInWorkspace(root, userPath, options);
  const realRoot = await realpath(root);
  return { root: realRoot, real, shown: displayPath(realRoot, real) };
}

/** Path shown to the model: relative to the root, `.` for the root itself. */
export function displayPath(root: string, abs: string): string {
  return path.relative(root, abs) || '.';
}

async function realpathOrMissing(p: string): Promise<string | undefined> {
  try {
    return await realpath(p);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new WorkspaceError(`cannot resolve '${p}': ${(e as Error).message}`);
  }
}

async function isLink(p: string): Promise<boolean> {
  try {
    return (await lstat(p)).isSymbolicLink();
  } catch {
    return false;
  }
}

async function assertFileOrDirectory(real: string, userPath: string): Promise<void> {
  const s = await stat(real);
  if (s.isFile() || s.isDirectory()) return;
  const kind = s.isFIFO() ? 'a FIFO' : s.isSocket() ? 'a socket' : s.isCharacterDevice() || s.isBlockDevice() ? 'a device' : 'a special file';
  throw new WorkspaceError(`'${userPath}' is ${kind}; only regular files and directories are allowed`);
}

function outside(userPath: string, real?: string): WorkspaceError {
  // The path the model gave, never where a link points: that would tell it about the outside.
  const via = real ? ' (through a symbolic link)' : '';
  return new WorkspaceError(`'${userPath}' is outside the workspace${via}; only paths inside the workspace root are allowed`);
}

/** What write_file and edit_file refuse beyond .git. */
export interface FileWriteOptions {
  /** Files and folders (with all below them) the file tools never write: see assertWritable. */
  protectedPaths?: readonly string[] | undefined;
}

/**
 * Files a model may not write even inside the workspace: git's own folder, whose hooks and config
 * (core.fsmonitor, aliases) run code the next time anyone, or an allow-listed `git status`, uses git;
 * and the host's `protectedPaths` (`real`: the path's real location): for adk's CLI, its home
 * (the person's own commands, settings and trust, inside the workspace when it is the home folder)
 * and the folder's settings files, whose deny rules bind without trust.
 */
export function assertWritable(shown: string, userPath: string, protect?: { real: string; protectedPaths?: readonly string[] | undefined }): void {
  if (shown.split(/[\\/]/).some((seg) => seg.toLowerCase() === '.git')) {
    throw new WorkspaceError(`'${userPath}' is inside .git; adk does not let a model write there (git runs its hooks and config as code)`);
  }
  if (protect?.protectedPaths?.some((p) => isInside(realLocation(p), protect.real))) {
    throw new WorkspaceError(`'${userPath}' is a protected file (adk's own settings, commands or trust, or this folder's .adk settings); adk does not let a model write there. Ask the user to change it themselves.`);
  }
}

/** Where `p` really is: the real path of its nearest existing ancestor, with the rest as written (ADK_HOME may not exist yet). */
function realLocation(p: string): string {
  const rest: string[] = [];
  for (let at = path.resolve(p); ; at = path.dirname(at)) {
    const real = realOrSelf(at);
    if (real !== at || existsSync(at) || path.dirname(at) === at) return path.join(real, ...rest);
    rest.unshift(path.basename(at));
  }
}
