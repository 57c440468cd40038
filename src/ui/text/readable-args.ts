import { sanitizeText } from './sanitize.js';

/**
 * Tool arguments as a person reads them: one `key: value` per line, a string with line breaks as
 * its own indented lines (a file's content, a multi-line command), anything else as JSON. A value
 * that is not an object is shown as JSON. Control characters are removed (the model wrote it).
 */
export function readableArgs(args: unknown): string {
  const value = typeof args === 'string' ? parseOr(args) : args;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return sanitizeText(json(value));
  const out: string[] = [];
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (typeof v === 'string' && v.includes('\n')) {
      out.push(`${key}:`);
      for (const line of v.replace(/\r\n?/g, '\n').split('\n')) out.push(`  ${line}`);
    } else {
      out.push(`${key}: ${typeof v === 'string' ? v : json(v)}`);
    }
  }
  return sanitizeText(out.join('\n') || '{}');
}

function parseOr(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}

function json(v: unknown): string {
  return JSON.stringify(v ?? null, null, 2) ?? String(v);
}
