import type { MessagePartBody } from './api.js';
import type { ShownPart } from './transcript.js';

/**
 * Images and PDFs the person attaches: checked here as the server checks them (type read from the
 * bytes, 20 MB an image, 32 MB a PDF, the same messages), so a refused file never leaves the page.
 */

type PartType = 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif' | 'application/pdf';

export const ACCEPT = 'image/png,image/jpeg,image/webp,image/gif,application/pdf,.png,.jpg,.jpeg,.webp,.gif,.pdf';
const IMAGE_MAX_BYTES = 20 * 1024 * 1024;
const PDF_MAX_BYTES = 32 * 1024 * 1024;
/** The server takes up to 20 parts in a message. */
const MAX_PARTS = 20;
/** The server's body limit is 64 MB of JSON; base64 makes 3 bytes 4. */
const MAX_TOTAL_BYTES = 47 * 1024 * 1024;

export interface Attachment {
  /** Tells chips apart (two drops of the same file are two attachments). */
  id: number;
  type: 'image' | 'file';
  mimeType: PartType;
  name: string;
  size: number;
  /** The bytes, base64. */
  data: string;
  /** SHA-256 of the bytes, hex, as the server names the part (absent outside a secure context). */
  hash?: string | undefined;
}

/** The type the bytes' signature says, as the server reads it (src/core/schema/content-part.ts). */
function sniff(b: Uint8Array): PartType | undefined {
  const at = (i: number, s: string) => [...s].every((c, j) => b[i + j] === c.charCodeAt(0));
  if (b[0] === 0x89 && at(1, 'PNG')) return 'image/png';
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (at(0, 'GIF8')) return 'image/gif';
  if (at(0, 'RIFF') && at(8, 'WEBP')) return 'image/webp';
  if (at(0, '%PDF-')) return 'application/pdf';
  return undefined;
}

const mb = (bytes: number) => {
  const v = bytes / (1024 * 1024);
  return `${v >= 10 ? Math.round(v) : Math.round(v * 10) / 10} MB`;
};

/** `1 KB`, `2.5 MB`: the size as the other faces show it. */
export const formatSize = (bytes: number) => (bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : mb(bytes));

export const kindOf = (p: { type: 'image' | 'file' }) => (p.type === 'image' ? 'image' : 'PDF');

let nextId = 1;

/** The file as an attachment, or why it cannot be one. Only its first bytes are read before the checks. */
export async function readAttachment(file: File): Promise<Attachment | string> {
  const name = file.name || 'pasted';
  const type = sniff(new Uint8Array(await file.slice(0, 16).arrayBuffer()));
  if (!type) return `${name}: not a PNG, JPEG, WebP, GIF or PDF file`;
  const isImage = type !== 'application/pdf';
  const limit = isImage ? IMAGE_MAX_BYTES : PDF_MAX_BYTES;
  if (file.size > limit) return `${name}: ${mb(file.size)} is over the ${mb(limit)} limit for ${isImage ? 'an image' : 'a PDF'}`;
  const bytes = new Uint8Array(await file.arrayBuffer());
  return { id: nextId++, type: isImage ? 'image' : 'file', mimeType: type, name, size: file.size, data: base64(bytes), hash: await sha256(bytes) };
}

/** Why `next` cannot join `taken` (the server's count and body limits), or undefined. */
export function overLimits(taken: readonly Attachment[], next: Attachment): string | undefined {
  if (taken.length >= MAX_PARTS) return `${next.name}: a message takes at most ${MAX_PARTS} images and PDFs`;
  const total = taken.reduce((n, a) => n + a.size, next.size);
  if (total > MAX_TOTAL_BYTES) return `${next.name}: the attachments would be over ${mb(MAX_TOTAL_BYTES)} together; send it in another message`;
  return undefined;
}

/** What the API takes. */
export const toPart = (a: Attachment): MessagePartBody => ({ type: a.type, mimeType: a.mimeType, name: a.name, data: a.data });

// Thumbnails of images sent from this tab, by hash: the saved history lists parts without their
// bytes, so a message read back from it finds its thumbnail here. (The page's CSP allows data: images, not blob:.)
const thumbnails = new Map<string, string>();

/** How a chip shows an attachment (an image with its thumbnail). */
export function preview(a: Attachment): ShownPart & { id: number } {
  const url = a.type === 'image' ? `data:${a.mimeType};base64,${a.data}` : undefined;
  return { id: a.id, type: a.type, mimeType: a.mimeType, name: a.name, size: a.size, hash: a.hash, url };
}

/** How the transcript shows a sent attachment; its thumbnail is kept for the history read back. */
export function toShown(a: Attachment): ShownPart {
  const { id: _, ...shown } = preview(a);
  if (shown.url && shown.hash) thumbnails.set(shown.hash, shown.url);
  return shown;
}

export const thumbnailOf = (p: ShownPart): string | undefined => p.url ?? (p.hash ? thumbnails.get(p.hash) : undefined);

function base64(bytes: Uint8Array): string {
  let s = '';
  // In slices: a spread of millions of arguments overflows the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<string | undefined> {
  // crypto.subtle exists only in a secure context (https, localhost): elsewhere no thumbnail comes back after a reload of the history.
  if (!globalThis.crypto?.subtle) return undefined;
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}
