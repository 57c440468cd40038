/** What a secret is replaced with before anything is persisted. */
export const REDACTED = '[REDACTED]';

const SECRET_NAME = /(_KEY|_TOKEN|_SECRET)$/;
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
    if (name === 'OPENAI_API_KEY' || SECRET_NAME.test(name.toUpperCase())) out.add(value);
  }
  return [...out];
}

/** Secrets as they may appear inside JSON text too (a secret with `"` or `\` is escaped there). */
function variants(secrets: readonly string[]): string[] {
  const out = new Set<string>();
  for (const s of secrets) {
    if (!s || s.length < MIN_SECRET_LENGTH) continue;
    out.add(s);
    out.add(JSON.stringify(s).slice(1, -1));
  }
  // Longest first, so a secret that contains another is replaced whole.
  return [...out].sort((a, b) => b.length - a.length);
}

function redactString(text: string, list: readonly string[]): string {
  let out = text;
  for (const s of list) if (out.includes(s)) out = out.split(s).join(REDACTED);
  return out;
}

/** True when `text` contains any secret (raw or JSON-escaped). Cheap check before a deep copy. */
export function containsSecret(text: string, secrets: readonly string[]): boolean {
  return variants(secrets).some((s) => text.includes(s));
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
  const list = variants(secrets);
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
