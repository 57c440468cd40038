import { closeSync, constants, fstatSync, openSync, readFileSync, realpathSync, statSync } from 'node:fs';

/** The real path (symlinks resolved), or the path as given when it does not exist: reading it later reports that. */
export function realOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** Whether `p` is a folder now (links followed); false when it is missing or unreadable. */
export function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** Whether `p` is a regular file now (links followed); false when it is missing or unreadable. */
export function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/**
 * A regular file's bytes, read through one non-blocking descriptor (a FIFO cannot hang the read);
 * undefined for anything else or nothing. `noFollow`: a link at the last step is refused, not followed.
 */
export function readRegularFile(file: string, opts: { noFollow?: boolean } = {}): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | (opts.noFollow ? constants.O_NOFOLLOW : 0));
  } catch {
    return undefined;
  }
  try {
    return fstatSync(fd).isFile() ? readFileSync(fd) : undefined;
  } finally {
    closeSync(fd);
  }
}
