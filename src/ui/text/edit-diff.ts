import { diffLines } from 'diff';

/**
 * The lines an `edit_file` call changes, as `-`/`+` rows (from its `old` and `new` arguments; a
 * row of the transcript, so no file is read): undefined for any other call or unreadable arguments.
 */
export function editDiffRows(tool: string, args: string): Array<{ sign: '+' | '-'; text: string }> | undefined {
  if (tool !== 'edit_file') return undefined;
  let a: { old?: unknown; new?: unknown };
  try {
    a = JSON.parse(args || '{}') as { old?: unknown; new?: unknown };
  } catch {
    return undefined;
  }
  if (typeof a.old !== 'string' || typeof a.new !== 'string') return undefined;
  const rows: Array<{ sign: '+' | '-'; text: string }> = [];
  for (const part of diffLines(a.old, a.new)) {
    if (!part.added && !part.removed) continue;
    for (const line of part.value.replace(/\n$/, '').split('\n')) rows.push({ sign: part.added ? '+' : '-', text: line });
  }
  return rows;
}
