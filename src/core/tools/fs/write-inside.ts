import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { childPath, openDirForCreate } from './verified-open.js';

const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = constants;

/**
 * Writes `content` to `real` (a checked path inside `realRoot`) through a temp file renamed over it,
 * so readers never see half a file. Both the temp file and the rename go through the verified parent
 * folder's descriptor: a folder swapped for a symlink meanwhile cannot carry the write outside, and
 * a symlink put at the name is replaced, never written through.
 */
export async function writeInside(realRoot: string, real: string, userPath: string, content: string | Uint8Array, mode?: number): Promise<void> {
  const dir = await openDirForCreate(realRoot, path.relative(realRoot, path.dirname(real)), userPath);
  const name = path.basename(real);
  const tmp = childPath(dir, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const fh = await open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o666);
    try {
      await fh.writeFile(content);
      if (mode !== undefined) await fh.chmod(mode);
    } finally {
      await fh.close();
    }
    await rename(tmp, childPath(dir, name));
  } catch (e) {
    await rm(tmp, { force: true }).catch(() => {});
    throw e;
  } finally {
    await dir.fh.close().catch(() => {});
  }
}
