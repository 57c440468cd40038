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
      const found = await findEdit(workspaceRoot, args);
      if ('error' in found) return undefined;
      const { loc, file, at, old, replacement } = found;
      return unifiedDiff(loc.shown, file.text, file.text.slice(0, at) + replacement + file.text.slice(at + old.length));
    },
    async check(args) {
      const found = await findEdit(workspaceRoot, args);
      return 'error' in found ? found.error : undefined;
    },
    async execute(args) {
      const loc = await locate(workspaceRoot, args.path);
      assertWritable(loc.shown, args.path, { real: loc.real, protectedPaths: opts.protectedPaths });
      // Found again here: the file may have changed since the call was checked and approved.
      const found = await findEdit(workspaceRoot, args, loc);
      if ('error' in found) return { content: found.error, isError: true };
      const { file, at, old, replacement } = found;
      const { shown } = loc;
      if (args.old === args.new) return `No change: \`old\` and \`new\` are identical in ${shown}`;
      const edited = file.text.slice(0, at) + replacement + file.text.slice(at + old.length);
      await writeEditableText(loc, file, edited);
      const line = file.text.slice(0, at).split('\n').length;
      return `Edited ${shown}: replaced 1 occurrence at line ${line}`;
    },
  };
}

type Located = Awaited<ReturnType<typeof locate>>;
type EditableText = NonNullable<Awaited<ReturnType<typeof readEditableText>>>;

/**
 * Where `old` is in the file, once and exactly, or why not (as the model is told). CRLF files are
 * matched with their own line ends; the model's `\n` means a line break. The disk is read through
 * adk's verified descriptors, as write_file: never an editor's by-path access.
 */
async function findEdit(
  workspaceRoot: string,
  args: { path: string; old: string; new: string },
  located?: Located,
): Promise<{ error: string } | { loc: Located; file: EditableText; at: number; old: string; replacement: string }> {
  if (args.old === '') return { error: 'Error: `old` is empty; give the exact text to replace (use write_file to create a file)' };
  const loc = located ?? (await locate(workspaceRoot, args.path));
  const file = await readEditableText(loc);
  if (!file) return { error: `Error: '${loc.shown}' does not exist (it was removed while adk opened it)` };
  const old = file.crlf ? args.old.replace(/\r\n/g, '\n') : args.old;
  const replacement = file.crlf ? args.new.replace(/\r\n/g, '\n') : args.new;
  const at = file.text.indexOf(old);
  if (at < 0) return { error: `Error: the text of \`old\` was not found in ${loc.shown}. Read the file and copy the exact text, including whitespace and indentation` };
  const count = occurrences(file.text, old);
  if (count > 1) return { error: `Error: the text of \`old\` occurs ${count} times in ${loc.shown}; include more surrounding lines so that it matches exactly once` };
  return { loc, file, at, old, replacement };
}

/** Counts overlapping matches too: "aa" in "aaa" is ambiguous for the model. */
function occurrences(text: string, needle: string): number {
  let n = 0;
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) n++;
  return n;
}
