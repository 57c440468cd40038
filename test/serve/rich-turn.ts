// The rich turn the web page's screenshots show (reasoning, todos, a listing, a table, code, an
// approval with a diff), scripted for the local model server, so other front ends can be shown the same turn.
export const TODOS = [
  { content: 'List the files', status: 'completed' },
  { content: 'Compare their sizes', status: 'in_progress', activeForm: 'Comparing their sizes' },
  { content: 'Write the report', status: 'pending' },
];
export const ANSWER = [
  'Two files stand out:',
  '',
  '| file | lines | size |',
  '|:-----|------:|-----:|',
  '| notes.md | 120 | 4.1 KB |',
  '| todo.md | 18 | 0.6 KB |',
  '',
  'The report is made by this function:',
  '',
  '```ts',
  'export function report(files: File[]): string {',
  "  // Largest first, sizes in KB.",
  '  return files.sort((a, b) => b.size - a.size).map((f) => `${f.name}: ${(f.size / 1024).toFixed(1)} KB`).join("\\n");',
  '}',
  '```',
].join('\n');
export const REPORT = '# Report\n\n- notes.md: 4.1 KB\n- todo.md: 0.6 KB\n';


/** The deep team's turn: reasoning and todos, a directory listing, then the answer and a report to write. */
export function richTurn(req: { body: { messages: Array<{ role: string }> } }) {
  const msgs = req.body.messages;
  const last = msgs.at(-1)!;
  const tools = msgs.filter((m) => m.role === 'tool').length;
  if (last.role === 'user') return { reasoning: 'The person wants sizes compared: list the folder first, then write a short report.', content: 'I will plan this first.', toolCalls: [{ id: 'c_todos', name: 'write_todos', arguments: { todos: TODOS } }] };
  if (tools === 1) return { toolCalls: [{ id: 'c_ls', name: 'list_dir', arguments: { path: '.' } }] };
  if (tools === 2) return { content: ANSWER, toolCalls: [{ id: 'c_write', name: 'write_file', arguments: { path: 'report.md', content: REPORT } }] };
  return { content: 'The report is written.' };
}
