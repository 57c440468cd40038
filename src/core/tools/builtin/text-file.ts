import { readFile, stat } from 'node:fs/promises';
import { MAX_READ_FILE_BYTES, WorkspaceError } from '../workspace.js';
import { formatBytes, writeFileAtomic } from './file-io.js';

const BOM = '\ufeff';
// ignoreBOM keeps the BOM in the text, so it is seen and written back.
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A text file as an edit sees it: the text with `\n` line ends, and how to write it back byte-for-byte alike. */
export interface EditableText {
  text: string;
  bom: boolean;
  crlf: boolean;
}

/**
 * Reads a file for editing, refusing what an edit would corrupt: bytes that are not UTF-8 (a
 * Latin-1 file would come back with U+FFFD in place of its accents) and NUL anywhere (binary).
 * A BOM and CRLF line ends are noted, so the edit writes them back.
 */
export async function readEditableText(real: string, shown: string, maxBytes = MAX_READ_FILE_BYTES): Promise<EditableText> {
  const s = await stat(real);
  if (s.isDirectory()) throw new WorkspaceError(`'${shown}' is a directory`);
  if (s.size > maxBytes) throw new WorkspaceError(`'${shown}' is too large to edit (${formatBytes(s.size)}; the limit is ${formatBytes(maxBytes)})`);
  const buf = await readFile(real);
  if (buf.includes(0)) throw new WorkspaceError(`'${shown}' contains NUL bytes (a binary file); edit_file only edits text, it would corrupt this one`);
  let decoded: string;
  try {
    decoded = STRICT_UTF8.decode(buf);
  } catch {
    throw new WorkspaceError(`'${shown}' is not valid UTF-8 (perhaps Latin-1 or another legacy encoding); edit_file would corrupt it. Convert it first (e.g. iconv) or edit it with shell`);
  }
  const bom = decoded.startsWith(BOM);
  const body = bom ? decoded.slice(1) : decoded;
  const crlf = body.includes('\r\n') && !/(^|[^\r])\n/.test(body);
  return { text: crlf ? body.replace(/\r\n/g, '\n') : body, bom, crlf };
}

/** Writes edited text back with the file's own BOM and line ends (and, through writeFileAtomic, its mode). */
export async function writeEditableText(real: string, file: EditableText, text: string): Promise<void> {
  const body = file.crlf ? text.replace(/\r?\n/g, '\r\n') : text;
  await writeFileAtomic(real, file.bom ? BOM + body : body);
}

/**
 * A file a write would replace must be one adk can replace faithfully: a regular text file with
 * one name. A second hard link (perhaps to a file outside the workspace) would silently stop being
 * the same file; binary or non-UTF-8 bytes would be lost.
 */
export async function assertReplaceable(real: string, shown: string): Promise<void> {
  const s = await stat(real).catch(() => undefined);
  if (!s) return;
  if (s.nlink > 1) throw new WorkspaceError(`'${shown}' has ${s.nlink} hard links; adk does not write to a file that has other names (one may be outside the workspace)`);
  if (s.isFile()) await readEditableText(real, shown, Math.max(s.size, MAX_READ_FILE_BYTES));
}
