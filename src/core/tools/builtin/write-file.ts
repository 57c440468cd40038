import { stat } from 'node:fs/promises';
import { z } from 'zod';
import type { Tool } from '../tool.js';
import { assertWritable, locate, WorkspaceError } from '../workspace.js';
import { writeFileAtomic } from './file-io.js';
import { assertReplaceable } from './text-file.js';

const parameters = z.object({
  path: z.string().describe('Path of the file, relative to the workspace root; missing parent folders are created'),
  content: z.string().describe('The complete new content of the file'),
});

export function writeFileTool(workspaceRoot: string): Tool<z.infer<typeof parameters>> {
  return {
    name: 'write_file',
    description: 'Create a file in the workspace, or replace its whole content. Parent folders are created as needed.',
    parameters,
    async execute({ path, content }) {
      const { real, shown } = await locate(workspaceRoot, path, { allowMissing: true });
      assertWritable(shown, path);
      const existed = await stat(real).then(
        (s) => {
          if (s.isDirectory()) throw new WorkspaceError(`'${shown}' is a directory`);
          return true;
        },
        () => false,
      );
      if (existed) await assertReplaceable(real, shown);
      await writeFileAtomic(real, content);
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
