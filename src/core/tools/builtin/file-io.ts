import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { MAX_READ_FILE_BYTES, WorkspaceError } from '../workspace.js';

/** Reads a workspace file (already resolved) as UTF-8, refusing directories, huge and binary files. */
export async function readTextFile(real: string, shownPath: string, maxBytes = MAX_READ_FILE_BYTES): Promise<string> {
  const s = await stat(real);
  if (s.isDirectory()) throw new WorkspaceError(`'${shownPath}' is a directory; use list_dir to see its entries`);
  if (s.size > maxBytes) {
    throw new WorkspaceError(`'${shownPath}' is too large (${formatBytes(s.size)}; the limit is ${formatBytes(maxBytes)}). Use grep or shell (e.g. head, sed -n) to read parts of it`);
  }
  const fh = await open(real, 'r');
  try {
    const buf = await fh.readFile();
    if (looksBinary(buf)) throw new WorkspaceError(`'${shownPath}' looks like a binary file; it is not shown`);
    return buf.toString('utf8');
  } finally {
    await fh.close();
  }
}

/** A NUL byte in the first 8 KB is how git and grep tell binary from text. */
export function looksBinary(buf: Uint8Array): boolean {
  return buf.subarray(0, 8192).includes(0);
}

/** Writes through a temp file in the same folder and renames it, so readers never see half a file. */
export async function writeFileAtomic(real: string, content: string): Promise<void> {
  const dir = path.dirname(real);
  await mkdir(dir, { recursive: true });
  const tmp = path.join(dir, `.${path.basename(real)}.${randomBytes(6).toString('hex')}.tmp`);
  let mode: number | undefined;
  try {
    mode = (await stat(real)).mode & 0o7777;
  } catch {
    /* a new file */
  }
  try {
    await writeFile(tmp, content, { encoding: 'utf8', flag: 'wx' });
    if (mode !== undefined) await chmod(tmp, mode);
    await rename(tmp, real);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
