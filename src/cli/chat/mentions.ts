import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { locate } from '../../core/tools/workspace.js';
import { readTextFile } from '../../core/tools/builtin/file-io.js';

/** Characters of one mentioned file attached to a message; the rest is left for read_file. */
export const MENTION_MAX_CHARS = 20_000;
const SKIP = new Set(['node_modules', '.git']);

/** `@path` tokens in a message (a path runs to the next space; `@` must start a word). */
export function mentionedPaths(text: string): string[] {
  return [...new Set([...text.matchAll(/(?:^|\s)@([^\s@]+)/g)].map((m) => m[1]!.replace(/[.,;:!?)]+$/, '')))].filter(Boolean);
}

/**
 * The message with each mentioned workspace file attached (capped), as the model gets it. Paths
 * outside the workspace, links out of it, folders, binary and unreadable files are not attached;
 * the person's text is kept as typed either way.
 */
export async function withMentions(text: string, workspace: string): Promise<string> {
  const files: string[] = [];
  for (const path of mentionedPaths(text)) {
    try {
      const loc = await locate(workspace, path);
      const body = await readTextFile(loc);
      const cut = body.length > MENTION_MAX_CHARS ? `${body.slice(0, MENTION_MAX_CHARS)}\n[… ${body.length - MENTION_MAX_CHARS} more characters: read_file ${loc.shown} with an offset to read on]` : body;
      files.push(`<file path="${loc.shown}">\n${cut}\n</file>`);
    } catch {
      // Not a readable text file in the workspace: the mention stays plain text.
    }
  }
  return files.length ? `${text}\n\n${files.join('\n\n')}` : text;
}

/** Workspace paths that complete `prefix` (folders end in `/`), for Tab after `@`. */
export function completePaths(workspace: string, prefix: string, max = 50): string[] {
  if (prefix.startsWith('/') || prefix.split('/').includes('..')) return [];
  const slash = prefix.lastIndexOf('/');
  const dir = prefix.slice(0, slash + 1);
  const start = prefix.slice(slash + 1);
  let entries;
  try {
    entries = readdirSync(join(workspace, dir), { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((e) => e.name.startsWith(start) && !SKIP.has(e.name) && (start.startsWith('.') || !e.name.startsWith('.')))
    .map((e) => `${dir}${e.name}${e.isDirectory() ? '/' : ''}`)
    .sort()
    .slice(0, max);
}
