import type { Stats } from 'node:fs';
import { MAX_READ_FILE_BYTES, WorkspaceError, type WorkspacePath } from '../workspace.js';
import { openIfExists, type Opened } from '../fs/verified-open.js';
import { writeInside } from '../fs/write-inside.js';
import { formatBytes } from './file-io.js';

const BOM = '\ufeff';
// ignoreBOM keeps the BOM in the text, so it is seen and written back.
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A text file as an edit sees it: the text with `\n` line ends, and how to write it back byte-for-byte alike. */
export interface EditableText {
  text: string;
  bom: boolean;
  crlf: boolean;
  /** Permission bits, kept by the write. */
  mode: number;
}

/**
 * Reads a file for editing through a verified descriptor, refusing what an edit would corrupt:
 * a second hard link, bytes that are not UTF-8 (a Latin-1 file would come back with U+FFFD in
 * place of its accents) and NUL anywhere (binary). A BOM and CRLF line ends are noted, so the edit
 * writes them back. Undefined when the file does not exist.
 */
export async function readEditableText(loc: WorkspacePath, maxBytes = MAX_READ_FILE_BYTES): Promise<EditableText | undefined> {
  const opened = await openIfExists(loc.root, loc.real, loc.shown);
  if (!opened) return undefined;
  try {
    return await decodeEditable(opened, loc.shown, maxBytes);
  } finally {
    await opened.fh.close();
  }
}

async function decodeEditable({ fh, stat }: Opened, shown: string, maxBytes: number): Promise<EditableText> {
  if (stat.isDirectory()) throw new WorkspaceError(`'${shown}' is a directory`);
  assertOneName(stat, shown);
  if (stat.size > maxBytes) throw new WorkspaceError(`'${shown}' is too large to edit (${formatBytes(stat.size)}; the limit is ${formatBytes(maxBytes)})`);
  const buf = await fh.readFile();
  if (buf.includes(0)) throw new WorkspaceError(`'${shown}' contains NUL bytes (a binary file); adk only edits and replaces text, it would corrupt this one`);
  let decoded: string;
  try {
    decoded = STRICT_UTF8.decode(buf);
  } catch {
    throw new WorkspaceError(`'${shown}' is not valid UTF-8 (perhaps Latin-1 or another legacy encoding); adk would corrupt it. Convert it first (e.g. iconv) or edit it with shell`);
  }
  const bom = decoded.startsWith(BOM);
  const body = bom ? decoded.slice(1) : decoded;
  const crlf = body.includes('\r\n') && !/(^|[^\r])\n/.test(body);
  return { text: crlf ? body.replace(/\r\n/g, '\n') : body, bom, crlf, mode: stat.mode & 0o7777 };
}

/** Writes edited text back with the file's own BOM, line ends and mode. */
export async function writeEditableText(loc: WorkspacePath, file: EditableText, text: string): Promise<void> {
  const body = file.crlf ? text.replace(/\r?\n/g, '\r\n') : text;
  await writeInside(loc.root, loc.real, loc.shown, file.bom ? BOM + body : body, file.mode);
}

/**
 * The file a write would replace, if any, checked that adk can replace it faithfully: a regular text
 * file with one name (a second hard link, perhaps outside the workspace, would silently stop being
 * the same file; binary or non-UTF-8 bytes would be lost). Returns its mode to keep.
 */
export async function replaceableMode(loc: WorkspacePath): Promise<number | undefined> {
  const opened = await openIfExists(loc.root, loc.real, loc.shown);
  if (!opened) return undefined;
  try {
    return (await decodeEditable(opened, loc.shown, Math.max(opened.stat.size, MAX_READ_FILE_BYTES))).mode;
  } finally {
    await opened.fh.close();
  }
}

function assertOneName(stat: Stats, shown: string): void {
  if (stat.nlink > 1) throw new WorkspaceError(`'${shown}' has ${stat.nlink} hard links; adk does not write to a file that has other names (one may be outside the workspace)`);
}
