import { realPathOrSelf } from './paths.js';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { CodeManifest } from '../core/config/index.js';
import { dirname, join } from 'node:path';
import { isInside } from '../core/tools/workspace.js';
import { defaultAdkHome } from '../core/store/store-url.js';

/** One trusted agents file: the folder it governs and the exact bytes that were trusted. */
export interface TrustEntry {
  folder: string;
  file: string;
  sha256: string;
  trustedAt: string;
}

interface TrustFile {
  version: 1;
  files: Record<string, TrustEntry>;
}

export const TRUST_FILE_NAME = 'trusted-folders.json';

export const trustFile = (env: NodeJS.ProcessEnv = process.env): string => join(defaultAdkHome(env), TRUST_FILE_NAME);

/**
 * Folder trust, as gemini-cli and Claude Code have it: an agents file that would run code or move
 * keys is used only after the person trusted that very file (by path and content hash) for its
 * folder. A changed file must be trusted again.
 */
export class TrustStore {
  constructor(private readonly path: string = trustFile()) {}

  list(): TrustEntry[] {
    return Object.values(this.read().files).sort((a, b) => a.folder.localeCompare(b.folder));
  }

  isTrusted(file: string, hash: string): boolean {
    return this.read().files[realPathOrSelf(file)]?.sha256 === hash;
  }

  trust(file: string, hash: string): TrustEntry {
    const data = this.read();
    const key = realPathOrSelf(file);
    const entry: TrustEntry = { folder: dirname(key), file: key, sha256: hash, trustedAt: new Date().toISOString() };
    data.files[key] = entry;
    this.write(data);
    return entry;
  }

  /**
   * Removes every trusted file under `folder` (or that file); returns how many. By path, not by an
   * entry's own folder: a project's `.adk/settings.json` and `.adk/commands/*.md` are trusted too.
   */
  revoke(folder: string): number {
    const data = this.read();
    const dir = realPathOrSelf(folder);
    // Path-boundary containment: `/a/repo` does not hold `/a/repo-other`.
    const keys = Object.keys(data.files).filter((k) => isInside(dir, k));
    for (const k of keys) delete data.files[k];
    this.write(data);
    return keys.length;
  }

  private read(): TrustFile {
    try {
      const data = JSON.parse(readFileSync(this.path, 'utf8')) as TrustFile;
      if (data?.version === 1 && data.files && typeof data.files === 'object') return data;
    } catch {
      /* missing or unreadable: nothing is trusted */
    }
    return { version: 1, files: {} };
  }

  /** Atomic and owner-only: a half-written trust file must never read as trust. */
  private write(data: TrustFile): void {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const tmp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
    renameSync(tmp, this.path);
  }
}

/**
 * The code each fingerprint stood for (ADK_HOME/code/<hash>.json, 0600), so that a refused resume
 * can name the file that changed, however long ago the session started.
 */
export function rememberCode(hash: string, code: CodeManifest, env: NodeJS.ProcessEnv = process.env): void {
  const dir = join(defaultAdkHome(env), 'code');
  const file = join(dir, `${hash}.json`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(code), { mode: 0o600 });
    renameSync(tmp, file);
  } catch {
    /* only the wording of a later refusal depends on it */
  }
}

export function recalledCode(hash: string, env: NodeJS.ProcessEnv = process.env): CodeManifest | undefined {
  if (!/^[0-9a-f]{64}$/.test(hash)) return undefined;
  try {
    return JSON.parse(readFileSync(join(defaultAdkHome(env), 'code', `${hash}.json`), 'utf8')) as CodeManifest;
  } catch {
    return undefined;
  }
}

/** What `adk trust` and the trust question show of the code a file runs. */
export function describeCode(code: CodeManifest): string[] {
  const files = Object.keys(code.files);
  const lines: string[] = [];
  if (files.length) lines.push(`runs ${files.length} file${files.length > 1 ? 's' : ''} of code: ${files.slice(0, 6).join(', ')}${files.length > 6 ? ', …' : ''}`);
  const pkgs = Object.entries(code.packages);
  if (pkgs.length) lines.push(`imports ${pkgs.map(([n, v]) => `${n}@${v}`).join(', ')} (counted by name and version)`);
  for (const f of code.folders) lines.push(`counts every file under ${f}/: what runs there cannot be read (another language, a binary or a computed import)`);
  return lines;
}
