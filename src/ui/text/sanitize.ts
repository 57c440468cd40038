/* eslint-disable no-control-regex */

/**
 * Escape sequences a terminal would act on: CSI (colours, cursor moves, clears), the string
 * sequences OSC/DCS/SOS/PM/APC (titles, clipboard writes, hyperlinks, terminal queries) in their
 * 7- and 8-bit forms, and the short ESC sequences. An unterminated string sequence runs to the end.
 */
const SEQUENCES =
  /\u001b\[[0-?]*[ -/]*[@-~]|\u009b[0-?]*[ -/]*[@-~]|(?:\u001b[\]PX^_]|[\u0090\u0098\u009d\u009e\u009f])[\s\S]*?(?:\u0007|\u001b\\|\u009c|$)|\u001b[ -/]*[0-~]/g;
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const ANY_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/**
 * Makes text from a model, a tool or a file safe to print: escape sequences are removed, a lone
 * carriage return becomes a line break, and every other control character is shown as its visible
 * picture (␛, ␇, …). Tabs and line breaks stay. adk's own styling is added after this, by Ink.
 */
export function sanitizeText(text: string): string {
  if (!ANY_CONTROL.test(text)) return text;
  return text
    .replace(SEQUENCES, '')
    .replace(/\r\n?/g, '\n')
    .replace(CONTROLS, (c) => {
      const code = c.charCodeAt(0);
      return code < 0x20 ? String.fromCharCode(0x2400 + code) : code === 0x7f ? '\u2421' : '\ufffd';
    });
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
