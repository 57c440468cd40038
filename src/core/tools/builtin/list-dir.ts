import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { Tool } from '../tool.js';
import { locate, WorkspaceError } from '../workspace.js';

export const LIST_DIR_MAX_ENTRIES = 1000;

const parameters = z.object({
  path: z.string().default('.').describe('Folder to list, relative to the workspace root; default "." (the root)'),
});

export function listDirTool(workspaceRoot: string): Tool<z.infer<typeof parameters>> {
  return {
    name: 'list_dir',
    description: 'List the entries of a workspace folder, sorted by name. Folders end with "/".',
    parameters,
    async execute({ path: userPath }) {
      const { real, shown } = await locate(workspaceRoot, userPath || '.');
      if (!(await stat(real)).isDirectory()) throw new WorkspaceError(`'${shown}' is a file, not a folder; use read_file to read it`);
      const entries = await readdir(real, { withFileTypes: true });
      const names = await Promise.all(
        entries.map(async (e) => {
          let dir = e.isDirectory();
          if (e.isSymbolicLink()) dir = await stat(path.join(real, e.name)).then((s) => s.isDirectory(), () => false);
          return dir ? `${e.name}/` : e.name;
        }),
      );
      names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      if (names.length === 0) return `(${shown} is empty)`;
      if (names.length <= LIST_DIR_MAX_ENTRIES) return names.join('\n');
      return `${names.slice(0, LIST_DIR_MAX_ENTRIES).join('\n')}\n[showing ${LIST_DIR_MAX_ENTRIES} of ${names.length} entries]`;
    },
  };
}
