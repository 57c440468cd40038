const MAX = 200;

/** A one-line description of a call for a person: `shell: rm -f *.log`, `write_file {"path":"a.txt",…}`. */
export function describeCall(tool: string, args: unknown): string {
  const a = args as Record<string, unknown> | undefined;
  if (a && typeof a === 'object' && !Array.isArray(a) && typeof a.command === 'string') return `${tool}: ${oneLine(a.command)}`;
  let text: string;
  try {
    text = typeof args === 'string' ? args : (JSON.stringify(args) ?? '');
  } catch {
    text = String(args);
  }
  return text && text !== '{}' ? `${tool} ${oneLine(text)}` : tool;
}

function oneLine(s: string): string {
  const flat = s.replace(/\s*\n\s*/g, ' ⏎ ').trim();
  return flat.length > MAX ? `${flat.slice(0, MAX - 1)}…` : flat;
}
