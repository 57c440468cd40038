import * as z from 'zod';
import type { Tool } from '../tool.js';
import { locate, type WorkspacePath } from '../workspace.js';
import { readTextFile } from './file-io.js';
import { openInside } from '../fs/verified-open.js';
import { editorAccess } from '../editor-access.js';

/** Reads stop here, at a line boundary, and tell the model how to read on. */
export const READ_FILE_MAX_CHARS = 100_000;

const parameters = z.object({
  path: z.string().describe('Path of the file, relative to the workspace root'),
  offset: z.number().int().min(1).optional().describe('First line to read (1-based); default 1'),
  limit: z.number().int().min(1).optional().describe('Maximum number of lines to read; default: the whole file'),
});

/** The `read_file` tool: a workspace text file, whole or a range of lines, cut at READ_FILE_MAX_CHARS. */
export function readFileTool(workspaceRoot: string): Tool<z.infer<typeof parameters>> {
  return {
    name: 'read_file',
    description:
      'Read a text file in the workspace. For large files, read `limit` lines starting at line `offset` (1-based).',
    parameters,
    readOnly: true,
    async execute({ path, offset, limit }, ctx) {
      const loc = await locate(workspaceRoot, path);
      const { shown } = loc;
      // Inside an editor its buffer is the file the person sees (unsaved changes included). The editor
      // reads by path: the path is verified again after (a descriptor that must still be the same file
      // inside the workspace), so a link swapped in meanwhile makes the read fail, not leak.
      const editor = editorAccess(ctx?.options)?.readTextFile;
      const text = editor ? await verifiedAfter(loc, () => editor(loc.real)) : await readTextFile(loc);
      if (text === '') return `(${shown} is empty)`;
      if (offset === undefined && limit === undefined) return capLines(text, shown, 1);

      const lines = text.split('\n');
      if (lines[lines.length - 1] === '') lines.pop();
      const start = (offset ?? 1) - 1;
      if (start >= lines.length) {
        return { content: `Error: '${shown}' has only ${lines.length} lines; offset ${offset} is past the end`, isError: true };
      }
      const end = limit === undefined ? lines.length : Math.min(lines.length, start + limit);
      const body = capLines(lines.slice(start, end).join('\n'), shown, start + 1);
      if (start === 0 && end === lines.length) return body;
      const more = end < lines.length ? `; use offset=${end + 1} to read on` : '';
      return `${body}\n[lines ${start + 1}-${end} of ${lines.length} in ${shown}${more}]`;
    },
  };
}

function capLines(text: string, shown: string, firstLine: number): string {
  if (text.length <= READ_FILE_MAX_CHARS) return text;
  const cut = text.lastIndexOf('\n', READ_FILE_MAX_CHARS);
  const head = text.slice(0, cut > 0 ? cut : READ_FILE_MAX_CHARS);
  const next = firstLine + head.split('\n').length;
  return `${head}\n[output cut at ${head.length} characters: ${shown} continues at line ${next}; use offset=${next} and limit to read on]`;
}

/** What `read` returned, the file checked before and after to be the workspace file `loc` names. */
async function verifiedAfter(loc: WorkspacePath, read: () => Promise<string>): Promise<string> {
  await verify(loc);
  const text = await read();
  // A path that now leads out of the workspace (a link swapped in meanwhile) throws here.
  await verify(loc);
  return text;
}

/** Opens the file through adk's verified descriptor (no link out of the workspace), and closes it. */
async function verify(loc: WorkspacePath): Promise<void> {
  const { fh } = await openInside(loc.root, loc.real, loc.shown, 'either');
  await fh.close();
}
