/**
 * `${VAR}` and `${VAR:-default}` in string values; `$${` is a literal `${`.
 * `:-` uses the default when the variable is unset or empty, as in POSIX shells.
 */

export interface InterpolationError {
  /** Offset of the `${` in the input string. */
  offset: number;
  /** The reference as written, e.g. `${API_HOST}`, used to find it in the source text. */
  reference: string;
  message: string;
  hint?: string | undefined;
}

export interface InterpolationResult {
  value: string;
  changed: boolean;
  errors: InterpolationError[];
}

const TOKEN = /\$\$\{|\$\{([^}]*)(\}?)/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Expands the `${…}` references of one string from `env`. Never throws: bad or unset references
 * are collected in `errors` (an unset variable becomes '', a malformed reference stays as written).
 */
export function interpolate(input: string, env: Record<string, string | undefined>): InterpolationResult {
  if (!input.includes('${')) return { value: input, changed: false, errors: [] };
  const errors: InterpolationError[] = [];
  const value = input.replace(TOKEN, (match: string, body: string | undefined, close: string, offset: number) => {
    if (match === '$${') return '${';
    const reference = match;
    if (close !== '}') {
      errors.push({ offset, reference, message: `unterminated '\${' in value`, hint: "close it with '}' or write '$${' for a literal '${'" });
      return match;
    }
    const sep = body!.indexOf(':-');
    const name = sep >= 0 ? body!.slice(0, sep) : body!;
    if (!NAME.test(name)) {
      errors.push({ offset, reference, message: `invalid variable reference '${reference}'`, hint: "use ${NAME} or ${NAME:-default}; write '$${' for a literal '${'" });
      return match;
    }
    const v = env[name];
    if (sep >= 0) return v === undefined || v === '' ? body!.slice(sep + 2) : v;
    if (v === undefined) {
      errors.push({
        offset,
        reference,
        message: `environment variable '${name}' is not set`,
        hint: `set ${name}, or give a default: \${${name}:-value}`,
      });
      return '';
    }
    return v;
  });
  return { value, changed: true, errors };
}
