import { readdir, stat } from 'node:fs/promises';
import * as z from 'zod';
import { childPath, openedPath, openInside } from '../fs/verified-open.js';
import type { Tool } from '../tool.js';
import { locate, WorkspaceError } from '../workspace.js';

export const LIST_DIR_MAX_ENTRIES = 1000;

const parameters = z.object({
  path: z.string().default('.').describe('Folder to list, relative to the workspace root; default "." (the root)'),
});

/** The `list_dir` tool: the entries of a workspace folder, sorted, folders marked with `/`, at most LIST_DIR_MAX_ENTRIES. */
export function listDirTool(workspaceRoot: string): Tool<z.infer<typeof parameters>> {
  return {
    name: 'list_dir',
    readOnly: true,
    description: 'List the entries of a workspace folder, sorted by name. Folders end with "/".',
    parameters,
    async execute({ path: userPath }) {
      const loc = await locate(workspaceRoot, userPath || '.');
      const { shown } = loc;
      const dir = await openInside(loc.root, loc.real, shown, 'either');
      let names: string[];
      try {
        if (!dir.stat.isDirectory()) throw new WorkspaceError(`'${shown}' is a file, not a folder; use read_file to read it`);
        // Listed through the verified descriptor: a folder swapped for a symlink meanwhile is not what is read.
        const entries = await readdir(openedPath(dir), { withFileTypes: true });
        names = await Promise.all(
          entries.map(async (e) => {
            let isDir = e.isDirectory();
            if (e.isSymbolicLink()) isDir = await stat(childPath(dir, e.name)).then((s) => s.isDirectory(), () => false);
            return isDir ? `${e.name}/` : e.name;
          }),
        );
      } finally {
        await dir.fh.close();
      }
      names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      if (names.length === 0) return `(${shown} is empty)`;
      if (names.length <= LIST_DIR_MAX_ENTRIES) return names.join('\n');
      return `${names.slice(0, LIST_DIR_MAX_ENTRIES).join('\n')}\n[showing ${LIST_DIR_MAX_ENTRIES} of ${names.length} entries]`;
    },
  };
}
