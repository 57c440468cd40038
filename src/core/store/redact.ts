import { isSecretName } from './secret-names.js';

export { isSecretName };

/** What a secret is replaced with before anything is persisted. */
export const REDACTED = '[REDACTED]';

const MIN_SECRET_LENGTH = 8;

/**
 * The values that must never be persisted: OPENAI_API_KEY and every variable named `*_KEY`,
 * `*_TOKEN` or `*_SECRET`. Values shorter than 8 characters are ignored: they are not real
 * secrets, and redacting them would mangle ordinary words.
 */
export function secretsFromEnv(env: NodeJS.ProcessEnv = process.env): string[] {
  const out = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (!value || value.length < MIN_SECRET_LENGTH) continue;
    if (isSecretName(name)) out.add(value);
  }
  return [...out];
}

/**
 * The forms of a secret that redaction looks for, compared without regard to ASCII case (so an
 * upper- or lower-cased copy, and hex in either case, are found too): the secret; its upper and
 * lower case (for letters beyond ASCII); reversed; hex; URL-encoded (encodeURIComponent, and every
 * byte percent-encoded); base64 in both alphabets at each of the 3 alignments a secret can have
 * inside a longer base64 text (for each, the characters that only the secret's bytes decide: a few
 * at either edge, which mix in the neighbours' bits, stay); each also as it reads inside JSON text.
 * Every form is at least 8 characters long (a secret is at least 8), so ordinary words are left alone.
 */
function encodings(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const hex = bytes.toString('hex');
  const out = [secret, secret.toUpperCase(), secret.toLowerCase(), [...secret].reverse().join(''), hex, hex.replace(/../g, '%$&')];
  try {
    out.push(encodeURIComponent(secret));
  } catch {
    // A lone surrogate: no URL form.
  }
  for (let skip = 0; skip < 3; skip++) {
    const whole = Math.floor((bytes.length - skip) / 3) * 3;
    if (whole < 6) continue;
    const b64 = bytes.subarray(skip, skip + whole).toString('base64');
    out.push(b64, b64.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return out.flatMap((e) => [e, JSON.stringify(e).slice(1, -1)]);
}

/** ASCII letters to lower case, nothing else: the text keeps its length, so positions carry over. */
export function foldCase(text: string): string {
  return /[A-Z]/.test(text) ? text.replace(/[A-Z]+/g, (m) => m.toLowerCase()) : text;
}

let needleCache: { key: string; needles: string[] } | undefined;

/** Every form of every secret, case-folded, without duplicates; computed once per set of secrets. */
export function needlesOf(secrets: readonly string[]): string[] {
  const key = secrets.join('\u0000');
  if (needleCache?.key === key) return needleCache.needles;
  const out = new Set<string>();
  for (const s of secrets) {
    if (!s || s.length < MIN_SECRET_LENGTH) continue;
    for (const e of encodings(s)) if (e.length >= MIN_SECRET_LENGTH) out.add(foldCase(e));
  }
  needleCache = { key, needles: [...out] };
  return needleCache.needles;
}

/**
 * Replaces every form of a secret in `text`. One case fold of the text, then one indexOf scan per
 * needle (no regular expression is built from a secret); overlapping finds are merged, so a secret
 * that contains another is replaced whole.
 */
export function redactString(text: string, needles: readonly string[]): string {
  if (text.length < MIN_SECRET_LENGTH) return text;
  const folded = foldCase(text);
  const found: Array<[number, number]> = [];
  for (const n of needles) {
    for (let at = folded.indexOf(n); at >= 0; at = folded.indexOf(n, at + n.length)) found.push([at, at + n.length]);
  }
  if (!found.length) return text;
  found.sort((a, b) => a[0] - b[0]);
  let out = '';
  let copied = 0;
  let [from, to] = found[0]!;
  for (const [f, t] of found) {
    if (f <= to) {
      to = Math.max(to, t);
      continue;
    }
    out += text.slice(copied, from) + REDACTED;
    copied = to;
    [from, to] = [f, t];
  }
  return out + text.slice(copied, from) + REDACTED + text.slice(to);
}

/** True when `text` contains any secret in any of its forms (see encodings). Cheap check before a deep copy. */
export function containsSecret(text: string, secrets: readonly string[]): boolean {
  const needles = needlesOf(secrets);
  if (!needles.length || text.length < MIN_SECRET_LENGTH) return false;
  const folded = foldCase(text);
  return needles.some((n) => folded.includes(n));
}

/**
 * Keys whose values are structure, not text: roles, statuses, kinds, ids, names. A secret that
 * happens to equal one of them (`CACHE_KEY=assistant`) must not break the record it is in.
 */
const STRUCTURAL_KEYS = new Set([
  'role',
  'status',
  'kind',
  'type',
  'version',
  'id',
  'name',
  'toolCallId',
  'toolName',
  'callId',
  'providerId',
  'address',
  'agentName',
  'rootAgent',
  'finishReason',
  'sessionId',
  'checkpointId',
  'createdAt',
  'updatedAt',
]);

/**
 * Replaces every occurrence of a secret with `[REDACTED]` in a string, or in the string values of a
 * JSON-like value, which is copied. Keys, structural values (see STRUCTURAL_KEYS), numbers and
 * booleans are left alone, so a redacted record still parses as the same kind of record.
 */
export function redactSecrets<T>(value: T, secrets: readonly string[]): T {
  const list = needlesOf(secrets);
  if (!list.length) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redactString(v, list);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object' && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null)) {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = STRUCTURAL_KEYS.has(k) && typeof x === 'string' ? x : walk(x);
      return out;
    }
    return v;
  };
  return walk(value) as T;
}

/**
 * Redacts JSON text without changing its meaning: parsed and rewritten only when a secret occurs.
 * Text that is not JSON is redacted as plain text.
 */
export function redactJsonText(text: string, secrets: readonly string[]): string {
  if (!containsSecret(text, secrets)) return text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return redactSecrets(text, secrets);
  }
  return JSON.stringify(redactSecrets(parsed, secrets));
}
