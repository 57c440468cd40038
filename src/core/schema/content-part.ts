import { createHash } from 'node:crypto';
import { ContentPartError } from '../errors.js';

/** Image formats every provider adk speaks takes. */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
/** One of IMAGE_TYPES. */
export type ImageType = (typeof IMAGE_TYPES)[number];
/** Documents: PDF only (the one file type every provider with documents takes). */
export const FILE_TYPES = ['application/pdf'] as const;
/** One of FILE_TYPES. */
export type FileType = (typeof FILE_TYPES)[number];

/** Largest image adk sends (OpenAI's per-image limit; the strictest common one). */
export const IMAGE_MAX_BYTES = 20 * 1024 * 1024;
/** Largest PDF adk sends (Anthropic's and OpenAI's request limit for documents). */
export const PDF_MAX_BYTES = 32 * 1024 * 1024;

/** File extensions the faces accept as parts, with the type each stands for. */
export const PART_EXTENSIONS: Readonly<Record<string, ImageType | FileType>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  pdf: 'application/pdf',
};

/**
 * A non-text piece of a user message: an image, or a file (PDF). `hash` (SHA-256 of the bytes) names
 * it in the session's artifacts, where the bytes are stored once; `data` holds them (base64) in memory
 * and in requests, and is absent from stored messages.
 */
export interface ContentPart {
  type: 'image' | 'file';
  mimeType: ImageType | FileType;
  /** SHA-256 of the bytes, hex. */
  hash: string;
  /** Size in bytes. */
  size: number;
  /** The file's name, when it came from one (shown as a chip; a PDF's document title). */
  name?: string | undefined;
  /** The bytes, base64. */
  data?: string | undefined;
}

/** What a face hands a turn: text, plus parts. A plain string is text alone. */
export type UserInput = string | { text: string; parts?: readonly ContentPart[] | undefined };

/** The artifact name of a part's bytes in a session (`part:<sha256>`): one per distinct content. */
export const partArtifactName = (hash: string): string => `part:${hash}`;

/** The type the bytes' signature says (PNG, JPEG, GIF, WebP, PDF), or undefined. */
export function sniffType(bytes: Uint8Array): ImageType | FileType | undefined {
  const at = (i: number, s: string) => [...s].every((c, j) => bytes[i + j] === c.charCodeAt(0));
  if (bytes[0] === 0x89 && at(1, 'PNG')) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (at(0, 'GIF8')) return 'image/gif';
  if (at(0, 'RIFF') && at(8, 'WEBP')) return 'image/webp';
  if (at(0, '%PDF-')) return 'application/pdf';
  return undefined;
}

const SHOWN_TYPES = 'PNG, JPEG, WebP, GIF or PDF';

/**
 * A part from a file's bytes. The type is read from the bytes (a declared `mimeType` must agree);
 * an unknown type or a part over its size limit is a ContentPartError saying which.
 */
export function contentPart(bytes: Uint8Array, opts: { name?: string | undefined; mimeType?: string | undefined } = {}): ContentPart {
  const label = opts.name ? `${opts.name}: ` : '';
  const sniffed = sniffType(bytes);
  if (!sniffed) throw new ContentPartError('unsupported_part', `${label}not a ${SHOWN_TYPES} file${opts.mimeType ? ` (declared ${opts.mimeType})` : ''}`);
  const declared = opts.mimeType === 'image/jpg' ? 'image/jpeg' : opts.mimeType;
  if (declared && declared !== sniffed) throw new ContentPartError('unsupported_part', `${label}declared ${declared}, but the bytes are ${sniffed}`);
  const isImage = sniffed !== 'application/pdf';
  checkSize(opts.name, sniffed, bytes.byteLength);
  const part: ContentPart = { type: isImage ? 'image' : 'file', mimeType: sniffed, hash: createHash('sha256').update(bytes).digest('hex'), size: bytes.byteLength };
  if (opts.name) part.name = opts.name;
  part.data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  return part;
}

/** Refuses a part over its limit (20 MB an image, 32 MB a PDF), saying which limit. */
export function checkSize(name: string | undefined, type: ImageType | FileType, size: number): void {
  const isImage = type !== 'application/pdf';
  const limit = isImage ? IMAGE_MAX_BYTES : PDF_MAX_BYTES;
  if (size <= limit) return;
  throw new ContentPartError('part_too_large', `${name ? `${name}: ` : ''}${mb(size)} is over the ${mb(limit)} limit for ${isImage ? 'an image' : 'a PDF'}`);
}

/** A part from base64 text (JSON APIs), checked as `contentPart` checks bytes. */
export function contentPartFromBase64(data: string, opts: { name?: string | undefined; mimeType?: string | undefined } = {}): ContentPart {
  const clean = data.replace(/^data:[^;,]*;base64,/, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean)) throw new ContentPartError('unsupported_part', `${opts.name ? `${opts.name}: ` : ''}data is not base64`);
  return contentPart(Buffer.from(clean, 'base64'), opts);
}

/** A part's bytes as base64; a ContentPartError when only its hash is known (stored and not loaded). */
export function partData(p: ContentPart): string {
  if (p.data === undefined) throw new ContentPartError('part_missing', `the ${p.type} ${p.name ?? p.hash.slice(0, 12)} has no data: it was not found in the session's artifacts`);
  return p.data;
}

/** `shot.png (image, 120 KB)`: how faces show a part. */
export function describePart(p: Pick<ContentPart, 'type' | 'mimeType' | 'name' | 'size'>): string {
  const kind = p.type === 'image' ? 'image' : 'PDF';
  return `${p.name ?? p.mimeType} (${kind}, ${p.size < 1024 * 1024 ? `${Math.max(1, Math.round(p.size / 1024))} KB` : mb(p.size)})`;
}

/** The input's text and parts. */
export function splitInput(input: UserInput): { text: string; parts: ContentPart[] } {
  return typeof input === 'string' ? { text: input, parts: [] } : { text: input.text, parts: [...(input.parts ?? [])] };
}

/** A part without its bytes: what a stored record keeps. */
export function withoutData(p: ContentPart): ContentPart {
  const { data: _, ...rest } = p;
  return rest;
}

function mb(bytes: number): string {
  const v = bytes / (1024 * 1024);
  return `${v >= 10 ? Math.round(v) : Math.round(v * 10) / 10} MB`;
}

/** `data:<type>;base64,<bytes>`: how OpenAI's APIs take inline images and files. */
export function dataUrl(p: ContentPart): string {
  return `data:${p.mimeType};base64,${partData(p)}`;
}

/** The file name a provider shows for a document: the part's name, else one made from its hash. */
export function partFileName(p: ContentPart): string {
  return p.name ?? `${p.type === 'file' ? 'document' : 'image'}-${p.hash.slice(0, 12)}.${p.mimeType.split('/')[1]}`;
}
