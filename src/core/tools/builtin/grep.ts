import { open, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { RE2JS } from 're2js';
import { z } from 'zod';
import { CancelledError } from '../../errors.js';
import type { Tool } from '../tool.js';
import { isInside, locate } from '../workspace.js';
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

export function grepTool(workspaceRoot: string): Tool<z.infer<typeof parameters>> {
  return {
    name: 'grep',
    description:
      'Search workspace files for lines matching a regular expression. Prints "file:line: text". Skips node_modules, .git and binary files.',
    parameters,
    async execute({ pattern, path: userPath }, ctx) {
      // RE2 runs in time linear in the input: no pattern (`^(a+)+$`) can stall adk or make it deaf to Ctrl-C.
      let re: RE2JS;
      try {
        re = RE2JS.compile(pattern);
      } catch (e) {
        return { content: `Error: invalid regular expression for grep, which uses RE2 syntax (linear time: no backreferences or lookaround): ${(e as Error).message}`, isError: true };
      }
      const root = await locate(workspaceRoot, '.');
      const start = await locate(workspaceRoot, userPath || '.');
      const matches: string[] = [];
      let total = 0;
      for await (const file of walk(start.real, root.real, ctx.signal)) {
        const text = await readSmallText(file);
        if (text === undefined) continue;
        const lines = text.split('\n');
        for (let i = 0; i < lines.length; i++) {
          if (!re.test(lines[i])) continue;
          total++;
          if (matches.length < GREP_MAX_MATCHES) matches.push(`${path.relative(root.real, file)}:${i + 1}: ${clip(lines[i])}`);
        }
      }
      if (total === 0) return `No matches for /${pattern}/ in ${start.shown}`;
      if (total <= matches.length) return matches.join('\n');
      return `${matches.join('\n')}\n[showing the first ${matches.length} of ${total} matches; narrow the pattern or the path]`;
    },
  };
}

/** Regular files under `start` in name order. Symlinks are not followed, so the walk stays inside. */
async function* walk(start: string, root: string, signal: AbortSignal): AsyncGenerator<string> {
  const s = await stat(start);
  if (s.isFile()) {
    yield start;
    return;
  }
  const stack = [start];
  while (stack.length) {
    if (signal.aborted) throw new CancelledError();
    const dir = stack.pop()!;
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
    const files: string[] = [];
    for (const e of entries) {
      const full = path.join(dir, e.name);
      if (!isInside(root, full)) continue;
      if (e.isDirectory() && !SKIPPED_DIRS.has(e.name)) stack.push(full);
      else if (e.isFile()) files.unshift(full);
    }
    yield* files;
  }
}

async function readSmallText(file: string): Promise<string | undefined> {
  try {
    const fh = await open(file, 'r');
    try {
      if ((await fh.stat()).size > MAX_FILE_BYTES) return undefined;
      const buf = await fh.readFile();
      return looksBinary(buf) ? undefined : buf.toString('utf8');
    } finally {
      await fh.close();
    }
  } catch {
    return undefined;
  }
}

function clip(line: string): string {
  const l = line.endsWith('\r') ? line.slice(0, -1) : line;
  return l.length <= MAX_LINE_CHARS ? l : `${l.slice(0, MAX_LINE_CHARS)}…`;
}
