import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { RE2JS } from 're2js';
import * as z from 'zod';
import { cancelledBy } from '../../errors.js';
import type { Tool } from '../tool.js';
import { openChild, openedPath, openInside, type Opened } from '../fs/verified-open.js';
import { locate, type WorkspacePath } from '../workspace.js';
import { looksBinary } from './file-io.js';

export const GREP_MAX_MATCHES = 200;
const MAX_LINE_CHARS = 300;
/** Larger files are skipped: they are rarely source and would stall the search. */
const MAX_FILE_BYTES = 5 * 1024 * 1024;
const SKIPPED_DIRS = new Set(['node_modules', '.git', '.hg', '.svn']);

const parameters = z.object({
  pattern: z.string().describe('A regular expression (RE2 syntax: no backreferences or lookaround) searched for in each line'),
  path: z.string().optional().describe('File or folder to search, relative to the workspace root; default "." (the whole workspace)'),
});

/**
 * The `grep` tool: searches the workspace's text files line by line with an RE2 pattern (linear
 * time) and lists `file:line: text`, at most GREP_MAX_MATCHES of them.
 */
export function grepTool(workspaceRoot: string): Tool<z.infer<typeof parameters>> {
  return {
    name: 'grep',
    readOnly: true,
    description:
      'Search workspace files for lines matching a regular expression. Prints "file:line: text". Skips node_modules, .git and binary files.',
    parameters,
    async execute({ pattern, path: userPath }, ctx) {
      // RE2 runs in time linear in the input: no pattern (`^(a+)+$`) can stall adk or make it deaf to Ctrl-C.
      let re: RE2JS;
      try {
        re = (await import('re2js')).RE2JS.compile(pattern);
      } catch (e) {
        return { content: `Error: invalid regular expression for grep, which uses RE2 syntax (linear time: no backreferences or lookaround): ${(e as Error).message}`, isError: true };
      }
      const start = await locate(workspaceRoot, userPath || '.');
      const matches: string[] = [];
      let total = 0;
      for await (const { rel, text } of walk(start, ctx.signal)) {
        const lines = text.split('\n');
        for (let i = 0; i < lines.length; i++) {
          if (!re.test(lines[i])) continue;
          total++;
          if (matches.length < GREP_MAX_MATCHES) matches.push(`${rel}:${i + 1}: ${clip(lines[i])}`);
        }
      }
      if (total === 0) return `No matches for /${pattern}/ in ${start.shown}`;
      if (total <= matches.length) return matches.join('\n');
      return `${matches.join('\n')}\n[showing the first ${matches.length} of ${total} matches; narrow the pattern or the path]`;
    },
  };
}

/**
 * Text of the regular files under `start`, in name order, each with its path relative to the root.
 * Every folder and file is opened through its verified parent's descriptor without following
 * symlinks, so nothing swapped in during the walk can lead it outside.
 */
async function* walk(start: WorkspacePath, signal: AbortSignal): AsyncGenerator<{ rel: string; text: string }> {
  const top = await openInside(start.root, start.real, start.shown, 'either');
  if (top.stat.isFile()) {
    const text = await readSmallText(top);
    if (text !== undefined) yield { rel: start.shown, text };
    return;
  }
  yield* walkDir(start.root, top, start.shown === '.' ? '' : start.shown, signal);
}

async function* walkDir(root: string, dir: Opened, rel: string, signal: AbortSignal): AsyncGenerator<{ rel: string; text: string }> {
  try {
    if (signal.aborted) throw cancelledBy(signal);
    let entries: Dirent[];
    try {
      entries = await readdir(openedPath(dir), { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: string[] = [];
    for (const e of entries) {
      if (e.isDirectory() && !SKIPPED_DIRS.has(e.name)) subdirs.push(e.name);
      if (!e.isFile()) continue;
      const file = await openChild(root, dir, e.name, 'file');
      if (!file) continue;
      const text = await readSmallText(file);
      if (text !== undefined) yield { rel: path.join(rel, e.name), text };
    }
    for (const name of subdirs) {
      const sub = await openChild(root, dir, name, 'dir');
      if (sub) yield* walkDir(root, sub, path.join(rel, name), signal);
    }
  } finally {
    await dir.fh.close().catch(() => {});
  }
}

/** The file's text, or undefined for large and binary files; closes it either way. */
async function readSmallText({ fh, stat }: Opened): Promise<string | undefined> {
  try {
    if (stat.size > MAX_FILE_BYTES) return undefined;
    const buf = await fh.readFile();
    return looksBinary(buf) ? undefined : buf.toString('utf8');
  } catch {
    return undefined;
  } finally {
    await fh.close().catch(() => {});
  }
}

function clip(line: string): string {
  const l = line.endsWith('\r') ? line.slice(0, -1) : line;
  return l.length <= MAX_LINE_CHARS ? l : `${l.slice(0, MAX_LINE_CHARS)}…`;
}
