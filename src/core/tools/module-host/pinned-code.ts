import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError } from '../../errors.js';
import { readRegularFile, realOrSelf } from '../../fs-checks.js';
import { LINK_PREFIX, MISSING } from './manifest-marks.js';

/** The code a person trusted: SHA-256 of each file, by path relative to `dir` (CodeManifest.files). */
export interface TrustedCode {
  dir: string;
  files: Readonly<Record<string, string>>;
}

/** The file in a pin folder that maps each real path to its copy. */
export const PIN_INDEX = 'index.json';
const FOLDER_PREFIX = 'adk-pinned-';

/** The checked copies: a private folder, and the copy's name in it by the real path of each file. */
export interface PinnedFiles {
  folder: string;
  copies: Record<string, string>;
  /** Removes this folder (its process has ended). */
  release(): void;
}

/**
 * Closes the race between the code check and the load (issue 42, item 5): each trusted file is read
 * once, its hash taken from those bytes, and those bytes are kept in a private folder. The module
 * tool's process compiles the copy whenever it loads that path, and refuses to load any other file
 * outside node_modules (its loader hooks, child-boot.ts), so a file swapped a moment after the check
 * (for other bytes, or for a link elsewhere) is not what runs; one swapped before it is refused,
 * naming the file. (Binding the copies over the paths was tried: a rename from outside dissolves such a mount.)
 */
export class PinnedCode {
  /** One folder a start: a process still setting up may be reading an earlier one. */
  private readonly folders = new Set<string>();
  private readonly base: string;

  /** `exposed`: folders sandboxed commands can write or read (the workspace); the copies never go there. */
  constructor(
    private readonly code: TrustedCode,
    exposed: readonly string[] = [],
  ) {
    const inside = (p: string) => exposed.some((e) => p === e || p.startsWith(`${e}/`));
    const candidates = [realOrSelf(tmpdir()), '/tmp'];
    const base = candidates.find((c) => !inside(c));
    if (!base) throw new ConfigError(`module tools need a temporary folder outside the workspace (TMPDIR=${tmpdir()} is inside it)`);
    this.base = base;
    sweepLeftovers(base);
  }

  /** Copies every trusted file as it is now into a private folder; throws if one differs from what was trusted. */
  pin(): PinnedFiles {
    const folder = mkdtempSync(path.join(this.base, `${FOLDER_PREFIX}${process.pid}-`));
    this.folders.add(folder);
    const release = () => {
      this.folders.delete(folder);
      rmSync(folder, { recursive: true, force: true });
    };
    try {
      const copies: Record<string, string> = {};
      let n = 0;
      for (const [rel, trusted] of Object.entries(this.code.files)) {
        const written = path.resolve(this.code.dir, rel);
        const changed = () => new ConfigError(`${rel} changed since it was trusted, so the module tool does not load it (run adk trust to review it again)`);
        if (trusted.startsWith(LINK_PREFIX)) {
          if (readLink(written) !== trusted.slice(LINK_PREFIX.length)) throw changed();
          continue;
        }
        const at = realOrSelf(written);
        const bytes = readRegularFile(at, { noFollow: true });
        // Missing when trusted must still be missing; anything else trusted must be there, as it was.
        if (trusted === MISSING) {
          if (bytes !== undefined) throw changed();
          continue;
        }
        if (bytes === undefined || createHash('sha256').update(bytes).digest('hex') !== trusted) throw changed();
        const copy = String(n++);
        writeFileSync(path.join(folder, copy), bytes, { mode: 0o400, flag: 'wx' });
        copies[at] = copy;
      }
      // Read by the module's process (child-boot.ts): which paths to compile from which copy.
      writeFileSync(path.join(folder, PIN_INDEX), JSON.stringify(copies), { mode: 0o400, flag: 'wx' });
      return { folder, copies, release };
    } catch (e) {
      release();
      throw e;
    }
  }

  /** Removes every copy (a mount or an open file made from one keeps its bytes). */
  release(): void {
    for (const f of this.folders) rmSync(f, { recursive: true, force: true });
    this.folders.clear();
  }
}

/** Folders left by an adk that was killed (its pid in the name, no longer running), removed. */
function sweepLeftovers(base: string): void {
  let names: string[];
  try {
    names = readdirSync(base).filter((n) => n.startsWith(FOLDER_PREFIX));
  } catch {
    return;
  }
  const uid = process.getuid?.();
  for (const name of names) {
    const pid = Number(/^adk-pinned-(\d+)-/.exec(name)?.[1]);
    if (!pid || pid === process.pid || alive(pid)) continue;
    const p = path.join(base, name);
    try {
      if (uid !== undefined && statSync(p).uid !== uid) continue;
      rmSync(p, { recursive: true, force: true });
    } catch {
      // another adk removed it first
    }
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const readLink = (p: string): string | undefined => {
  try {
    return readlinkSync(p);
  } catch {
    return undefined;
  }
};
