import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError } from '../../errors.js';
import { realOrSelf } from '../../fs-checks.js';

/** The code a person trusted: SHA-256 of each file, by path relative to `dir` (CodeManifest.files). */
export interface TrustedCode {
  dir: string;
  files: Readonly<Record<string, string>>;
}

/** The file in a pin folder that maps each real path to its copy. */
export const PIN_INDEX = 'index.json';

/** The checked copies: a private folder, and the copy's name in it by the real path of each file. */
export interface PinnedFiles {
  folder: string;
  copies: Record<string, string>;
}

/**
 * Closes the race between the code check and the load (issue 42, item 5): each trusted file is read
 * once, its hash taken from those bytes, and those bytes are kept in a private folder. The module
 * tool's process compiles the copy whenever it loads that path (its loader hooks, child-boot.ts), so a
 * file swapped a moment after the check is not what runs; one swapped before it is refused, naming
 * the file. (Binding the copies over the paths was tried: a rename from outside dissolves such a mount.)
 */
export class PinnedCode {
  /** One folder a pin: a process still setting up its mounts may be reading an earlier one. */
  private readonly folders: string[] = [];

  constructor(private readonly code: TrustedCode) {}

  /** Copies every trusted file as it is now into a private folder; throws if one differs from what was trusted. */
  pin(): PinnedFiles {
    const folder = mkdtempSync(path.join(tmpdir(), 'adk-pinned-'));
    this.folders.push(folder);
    const copies: Record<string, string> = {};
    let n = 0;
    for (const [rel, trusted] of Object.entries(this.code.files)) {
      const at = realOrSelf(path.resolve(this.code.dir, rel));
      const bytes = readRegularFile(at);
      if (bytes === undefined) continue; // gone or not a file: nothing to load from it (the guard says so)
      const now = createHash('sha256').update(bytes).digest('hex');
      if (now !== trusted) throw new ConfigError(`${rel} changed since it was trusted, so the module tool does not load it (run adk trust to review it again)`);
      const copy = String(n++);
      writeFileSync(path.join(folder, copy), bytes, { mode: 0o400, flag: 'wx' });
      copies[at] = copy;
    }
    // Read by the module's process (child-boot.ts): which paths to compile from which copy.
    writeFileSync(path.join(folder, PIN_INDEX), JSON.stringify(copies), { mode: 0o400, flag: 'wx' });
    return { folder, copies };
  }

  /** Removes the copies (a mount made from one keeps its bytes: the processes using them need not have ended). */
  release(): void {
    for (const f of this.folders.splice(0)) rmSync(f, { recursive: true, force: true });
  }
}

/** The bytes of a regular file, read through one descriptor that does not follow a last-step link. */
function readRegularFile(file: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    return fstatSync(fd).isFile() ? readFileSync(fd) : undefined;
  } finally {
    closeSync(fd);
  }
}
