import { realpathSync, statSync } from 'node:fs';

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
