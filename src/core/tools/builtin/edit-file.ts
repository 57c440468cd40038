import * as z from 'zod';
import type { Tool } from '../tool.js';
import { assertWritable, locate, type FileWriteOptions } from '../workspace.js';
import { readEditableText, writeEditableText } from './text-file.js';
import { unifiedDiff } from './unified-diff.js';

const parameters = z.object({
  path: z.string().describe('Path of the file, relative to the workspace root'),
  old: z.string().describe('The exact text to replace; it must occur exactly once in the file (whitespace matters)'),
  new: z.string().describe('The replacement text'),
});

/**
 * The `edit_file` tool: replaces one exact, unique occurrence of `old` in a file of the workspace,
 * keeping CRLF line ends. Refuses files inside `.git`.
 */
export function editFileTool(workspaceRoot: string, opts: FileWriteOptions = {}): Tool<z.infer<typeof parameters>> {
  return {
    name: 'edit_file',
    description:
      'Replace one exact occurrence of `old` with `new` in a workspace file. `old` must match exactly once; include surrounding lines to make it unique.',
    parameters,
    async preview(args) {
      const loc = await locate(workspaceRoot, args.path);
      const file = await readEditableText(loc);
      if (!file || !args.old) return undefined;
      const old = file.crlf ? args.old.replace(/\r\n/g, '\n') : args.old;
      const at = file.text.indexOf(old);
      if (at < 0 || occurrences(file.text, old) > 1) return undefined;
      const replacement = file.crlf ? args.new.replace(/\r\n/g, '\n') : args.new;
      return unifiedDiff(loc.shown, file.text, file.text.slice(0, at) + replacement + file.text.slice(at + old.length));
    },
    async execute(args) {
      const loc = await locate(workspaceRoot, args.path);
      const { shown } = loc;
      assertWritable(shown, args.path, { real: loc.real, protectedPaths: opts.protectedPaths });
      if (args.old === '') return { content: 'Error: `old` is empty; give the exact text to replace (use write_file to create a file)', isError: true };
      // CRLF files are matched and written with their own line ends; the model's `\n` means a line break.
      // The disk through adk's verified descriptors, as write_file: never an editor's by-path access.
      const file = await readEditableText(loc);
      if (!file) return { content: `Error: '${shown}' does not exist (it was removed while adk opened it)`, isError: true };
      const text = file.text;
      const old = file.crlf ? args.old.replace(/\r\n/g, '\n') : args.old;
      const replacement = file.crlf ? args.new.replace(/\r\n/g, '\n') : args.new;
      const at = text.indexOf(old);
      if (at < 0) {
        return {
          content: `Error: the text of \`old\` was not found in ${shown}. Read the file and copy the exact text, including whitespace and indentation`,
          isError: true,
        };
      }
      const count = occurrences(text, old);
      if (count > 1) {
        return {
          content: `Error: the text of \`old\` occurs ${count} times in ${shown}; include more surrounding lines so that it matches exactly once`,
          isError: true,
        };
      }
      if (args.old === args.new) return `No change: \`old\` and \`new\` are identical in ${shown}`;
      const edited = text.slice(0, at) + replacement + text.slice(at + old.length);
      await writeEditableText(loc, file, edited);
      const line = text.slice(0, at).split('\n').length;
      return `Edited ${shown}: replaced 1 occurrence at line ${line}`;
    },
  };
}

/** Counts overlapping matches too: "aa" in "aaa" is ambiguous for the model. */
function occurrences(text: string, needle: string): number {
  let n = 0;
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) n++;
  return n;
}
