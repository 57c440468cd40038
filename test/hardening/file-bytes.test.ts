import { chmodSync, linkSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { editFileTool, writeFileTool } from '../../src/core/tools/builtin/index.js';
import { tempDir } from '../cli/helpers.js';
import { run } from '../tools/helpers.js';

// Issue 12, items 2 (hard links) and 5: edits keep every byte they do not change, or refuse.
describe('edit_file and write_file keep bytes intact', () => {
  it('a Latin-1 file and a binary whose first NUL is past 8 KB are refused, untouched', async () => {
    const ws = tempDir('adk-bytes-');
    const latin1 = Buffer.from('caf\u00e9 cr\u00e8me\n', 'latin1');
    writeFileSync(join(ws, 'l1.txt'), latin1);
    const r = await run(editFileTool(ws), { path: 'l1.txt', old: 'caf', new: 'CAF' });
    expect(r.isError).toBe(true);
    expect(r.content).toContain('not valid UTF-8');
    expect(readFileSync(join(ws, 'l1.txt')).equals(latin1)).toBe(true);

    const bin = Buffer.concat([Buffer.from('x'.repeat(9000)), Buffer.from([0, 1, 2]), Buffer.from('tail')]);
    writeFileSync(join(ws, 'b.dat'), bin);
    const b = await run(editFileTool(ws), { path: 'b.dat', old: 'tail', new: 'TAIL' });
    expect(b.isError).toBe(true);
    expect(b.content).toContain('NUL');
    expect(readFileSync(join(ws, 'b.dat')).equals(bin)).toBe(true);
    const w = await run(writeFileTool(ws), { path: 'b.dat', content: 'text' });
    expect(w.isError).toBe(true);
    expect(readFileSync(join(ws, 'b.dat')).equals(bin)).toBe(true);
  });

  it('CRLF line ends, a BOM and the file mode survive an edit', async () => {
    const ws = tempDir('adk-bytes-');
    const file = join(ws, 'win.txt');
    writeFileSync(file, '\ufeffline one\r\nline two\r\nline three\r\n');
    chmodSync(file, 0o755);
    const r = await run(editFileTool(ws), { path: 'win.txt', old: 'line two\nline three', new: 'line 2\nline 3\nline 4' });
    expect(r.isError, r.content).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe('\ufeffline one\r\nline 2\r\nline 3\r\nline 4\r\n');
    expect(statSync(file).mode & 0o777).toBe(0o755);
  });

  it('a file with a second hard link is not written (the other name may be outside the workspace)', async () => {
    const ws = tempDir('adk-bytes-');
    const outside = join(tempDir('adk-outside-'), 'secret.txt');
    writeFileSync(outside, 'outside\n');
    linkSync(outside, join(ws, 'link.txt'));
    for (const [tool, args] of [
      [writeFileTool(ws), { path: 'link.txt', content: 'overwritten\n' }],
      [editFileTool(ws), { path: 'link.txt', old: 'outside', new: 'edited' }],
    ] as const) {
      const r = await run(tool, args);
      expect(r.isError).toBe(true);
      expect(r.content).toContain('hard links');
      expect(r.content).not.toContain(outside);
    }
    expect(readFileSync(outside, 'utf8')).toBe('outside\n');
  });
});
