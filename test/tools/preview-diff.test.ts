import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ChatModelAgent, InMemoryCheckpointStore, Runner, ScriptedChatModel } from '../../src/core/index.js';
import { editFileTool, writeFileTool } from '../../src/core/entries/tools.js';

// Issue 15: an approval of edit_file / write_file carries a unified diff of what the call would change.
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
const ws = () => {
  const d = mkdtempSync(join(tmpdir(), 'adk-preview-'));
  dirs.push(d);
  return d;
};
const signal = new AbortController().signal;

describe('write previews', () => {
  it('edit_file: the real lines around the change, with line numbers; nothing is written', async () => {
    const root = ws();
    writeFileSync(join(root, 'a.txt'), 'one\ntwo\nthree\nfour\n');
    const diff = await editFileTool(root).preview!({ path: 'a.txt', old: 'three', new: 'THREE' }, { signal });
    expect(diff).toContain('--- a/a.txt\n+++ b/a.txt\n@@ -1,4 +1,4 @@\n one\n two\n-three\n+THREE\n four');
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('one\ntwo\nthree\nfour\n');
    expect(await editFileTool(root).preview!({ path: 'a.txt', old: 'missing', new: 'x' }, { signal })).toBeUndefined();
  });

  it('write_file: against the current content, or all added for a new file', async () => {
    const root = ws();
    writeFileSync(join(root, 'b.txt'), 'keep\nold\n');
    expect(await writeFileTool(root).preview!({ path: 'b.txt', content: 'keep\nnew\n' }, { signal })).toContain('-old\n+new');
    expect(await writeFileTool(root).preview!({ path: 'dir/c.txt', content: 'x\ny\n' }, { signal })).toContain('@@ -0,0 +1,2 @@\n+x\n+y');
  });

  it('the approval interrupt carries the diff', async () => {
    const root = ws();
    writeFileSync(join(root, 'a.txt'), 'hello\n');
    const model = new ScriptedChatModel([{ toolCalls: [{ name: 'edit_file', arguments: { path: 'a.txt', old: 'hello', new: 'goodbye' } }] }]);
    const agent = new ChatModelAgent({ name: 'ed', description: 'edits', model, tools: [editFileTool(root)], approval: ['edit_file'] });
    const r = await new Runner({ agent, checkpointStore: new InMemoryCheckpointStore() }).query('edit', { checkpointId: 'x' }).result;
    expect(r.status).toBe('interrupted');
    expect((r.interrupts[0]!.info as { diff?: string }).diff).toContain('-hello\n+goodbye');
  });
});
