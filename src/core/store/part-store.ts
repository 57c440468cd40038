import { partArtifactName, withoutData } from '../schema/content-part.js';
import type { Message } from '../schema/message.js';
import type { KeyValueStore } from './key-value-store.js';

/** The key of a part's bytes: an artifact of the session named by the bytes' hash. */
export const partKey = (prefix: string, id: string, hash: string): string => `${prefix}${id}:${partArtifactName(hash)}`;

/** The message as its log record keeps it: parts without their bytes. */
export function storedForm(m: Message): Message {
  return m.parts?.some((p) => p.data !== undefined) ? { ...m, parts: m.parts.map(withoutData) } : m;
}

/**
 * Writes the bytes of every part of `messages` not stored yet, once per hash: the same image in two
 * turns is one artifact. Not redacted: a secret in base64 bytes is not the secret's text.
 */
export async function storeParts(kv: KeyValueStore, prefix: string, id: string, messages: readonly Message[]): Promise<void> {
  const byKey = new Map<string, string>();
  for (const m of messages) for (const p of m.parts ?? []) if (p.data !== undefined) byKey.set(partKey(prefix, id, p.hash), p.data);
  if (!byKey.size) return;
  const keys = [...byKey.keys()];
  const have = await kv.getMany(keys);
  const missing = keys.filter((_, i) => have[i] === undefined).map((key) => ({ key, value: JSON.stringify(byKey.get(key)) }));
  if (missing.length) await kv.setMany(missing);
}

/** Puts each part's bytes back from the session's artifacts (each distinct hash read once); a missing one stays without data. */
export async function loadParts(kv: KeyValueStore, prefix: string, id: string, messages: Message[]): Promise<void> {
  const hashes = [...new Set(messages.flatMap((m) => (m.parts ?? []).filter((p) => p.data === undefined).map((p) => p.hash)))];
  if (!hashes.length) return;
  const values = await kv.getMany(hashes.map((h) => partKey(prefix, id, h)));
  const data = new Map(hashes.map((h, i) => [h, values[i] === undefined ? undefined : (JSON.parse(values[i]!) as string)]));
  for (const m of messages) {
    if (!m.parts) continue;
    m.parts = m.parts.map((p) => (p.data === undefined && data.get(p.hash) !== undefined ? { ...p, data: data.get(p.hash) } : p));
  }
}
