import { readFile, stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { ContentPartError } from '../errors.js';
import { checkSize, contentPart, PART_EXTENSIONS, type ContentPart } from './content-part.js';

/** True when the path names a file the faces attach as a part (by its extension). */
export function isPartPath(path: string): boolean {
  return extname(path).slice(1).toLowerCase() in PART_EXTENSIONS;
}

/**
 * A file as a message part: an image (PNG, JPEG, WebP, GIF) or a PDF, its type read from its bytes.
 * Too large a file is refused before it is read; every failure is a ContentPartError naming the file.
 */
export async function readContentPart(path: string): Promise<ContentPart> {
  const name = basename(path);
  const ext = extname(path).slice(1).toLowerCase();
  const type = PART_EXTENSIONS[ext];
  if (!type) throw new ContentPartError('unsupported_part', `${name}: only .png, .jpg, .jpeg, .webp, .gif and .pdf files can be attached`);
  let size: number;
  try {
    const s = await stat(path);
    if (!s.isFile()) throw new Error('not a file');
    size = s.size;
  } catch (e) {
    throw new ContentPartError('unsupported_part', `${path}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  // The limit is checked on the size first: a 2 GB file is not read to be refused.
  checkSize(name, type, size);
  return contentPart(await readFile(path), { name });
}
