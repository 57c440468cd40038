/* eslint-disable no-control-regex */

/** C0 and C1 controls but tab and line feed, and DEL. */
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
/** Characters that reorder or hide text (Trojan Source): bidi overrides and isolates, invisible marks. ZWJ stays: emoji need it. */
const INVISIBLE = /[\u200b\u200c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;
const ANY = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b\u200c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/;

/**
 * Makes text from a model, a tool or a file safe to print, and honest: nothing is deleted, so what a
 * person reads (an approval, a trust screen) is what runs. Control characters become their visible
 * pictures (ESC ␛, BEL ␇; C1 as ⟨9B⟩), so an escape sequence shows as text and does nothing; a
 * carriage return is a line break; bidi overrides and invisible marks show as ⟨U+202E⟩. Tabs and
 * line breaks stay. adk's own styling is added after this, by Ink.
 */
export function sanitizeText(text: string): string {
  if (!ANY.test(text)) return text;
  return text
    .replace(/\r\n?/g, '\n')
    .replace(CONTROLS, (c) => {
      const code = c.charCodeAt(0);
      if (code < 0x20) return String.fromCharCode(0x2400 + code);
      return code === 0x7f ? '\u2421' : `⟨${code.toString(16).toUpperCase()}⟩`;
    })
    .replace(INVISIBLE, (c) => `⟨U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟩`);
}

/** True when printing `text` would change it (it holds controls or invisible characters). */
export function needsSanitizing(text: string): boolean {
  return ANY.test(text);
}

/** Sanitises every string inside plain objects and arrays; returns the same object when nothing changed. */
export function sanitizeDeep<T>(value: T): T {
  if (typeof value === 'string') return sanitizeText(value) as T;
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v) => {
      const s = sanitizeDeep(v);
      if (s !== v) changed = true;
      return s;
    });
    return (changed ? out : value) as T;
  }
  if (value && typeof value === 'object') {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return value;
    let out: Record<string, unknown> | undefined;
    for (const [k, v] of Object.entries(value)) {
      const s = sanitizeDeep(v);
      if (s !== v) (out ??= { ...(value as Record<string, unknown>) })[k] = s;
    }
    return (out ?? value) as T;
  }
  return value;
}
