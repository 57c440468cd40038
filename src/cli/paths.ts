import { realpathSync } from 'node:fs';

/** The real path (symlinks resolved), or the path as given when it does not exist: reading it later reports that. */
export function realPathOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}
