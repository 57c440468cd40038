import * as z from 'zod';
import { writeInside } from '../fs/write-inside.js';
import type { Tool } from '../tool.js';
import { assertWritable, locate, type FileWriteOptions } from '../workspace.js';
import { readEditableText, replaceableMode } from './text-file.js';
import { unifiedDiff } from './unified-diff.js';

const parameters = z.object({
  path: z.string().describe('Path of the file, relative to the workspace root; missing parent folders are created'),
  content: z.string().describe('The complete new content of the file'),
});

/** The `write_file` tool: creates or overwrites a workspace file, creating parent folders. Refuses paths inside `.git`. */
export function writeFileTool(workspaceRoot: string, opts: FileWriteOptions = {}): Tool<z.infer<typeof parameters>> {
  return {
    name: 'write_file',
    description: 'Create a file in the workspace, or replace its whole content. Parent folders are created as needed.',
    parameters,
    async preview({ path, content }) {
      const loc = await locate(workspaceRoot, path, { allowMissing: true });
      const before = (await replaceableMode(loc)) === undefined ? '' : ((await readEditableText(loc).catch(() => undefined))?.text ?? '');
      return unifiedDiff(loc.shown, before, content);
    },
    async execute({ path, content }, ctx) {
      const loc = await locate(workspaceRoot, path, { allowMissing: true });
      const { shown } = loc;
      assertWritable(shown, path, { real: loc.real, protectedPaths: opts.protectedPaths });
      const mode = await replaceableMode(loc);
      const existed = mode !== undefined;
      // Always adk's own verified write, even inside an editor: an editor writes by path, following
      // whatever a racing command swapped into it (an editor reloads the file from disk).
      await writeInside(loc.root, loc.real, shown, content, mode);
      const bytes = Buffer.byteLength(content, 'utf8');
      return `${existed ? 'Overwrote' : 'Created'} ${shown} (${bytes} bytes, ${countLines(content)} lines)`;
    },
  };
}

export function countLines(text: string): number {
  if (text === '') return 0;
  const n = text.split('\n').length;
  return text.endsWith('\n') ? n - 1 : n;
}
