import { MAX_READ_FILE_BYTES, WorkspaceError, type WorkspacePath } from '../workspace.js';
import { openInside } from '../fs/verified-open.js';

/** Reads a workspace file as UTF-8 through a verified descriptor, refusing directories, huge and binary files. */
export async function readTextFile(loc: WorkspacePath, maxBytes = MAX_READ_FILE_BYTES): Promise<string> {
  const { fh, stat } = await openInside(loc.root, loc.real, loc.shown, 'either');
  try {
    if (stat.isDirectory()) throw new WorkspaceError(`'${loc.shown}' is a directory; use list_dir to see its entries`);
    if (stat.size > maxBytes) {
      throw new WorkspaceError(`'${loc.shown}' is too large (${formatBytes(stat.size)}; the limit is ${formatBytes(maxBytes)}). Use grep or shell (e.g. head, sed -n) to read parts of it`);
    }
    const buf = await fh.readFile();
    if (looksBinary(buf)) throw new WorkspaceError(`'${loc.shown}' looks like a binary file; it is not shown`);
    return buf.toString('utf8');
  } finally {
    await fh.close();
  }
}

/** A NUL byte in the first 8 KB is how git and grep tell binary from text. */
export function looksBinary(buf: Uint8Array): boolean {
  return buf.subarray(0, 8192).includes(0);
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
