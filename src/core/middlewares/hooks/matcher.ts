/**
 * Claude Code's matcher rule: empty or `*` matches everything; plain names joined by `|` match
 * those names exactly (`shell|write_file`); anything else is a regular expression that must match
 * the whole value (`mcp__.*`, `.*_file`).
 */
export function matches(matcher: string | undefined, value: string | undefined): boolean {
  if (!matcher || matcher === '*') return true;
  if (value === undefined) return false;
  if (/^[\w|-]+$/.test(matcher)) return matcher.split('|').includes(value);
  try {
    return new RegExp(`^(?:${matcher})$`).test(value);
  } catch {
    return false; // checked when loaded; never a reason to run a hook
  }
}
