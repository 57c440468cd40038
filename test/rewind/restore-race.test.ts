import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileCheckpoints } from '../../src/cli/rewind/file-checkpoints.js';
import type { SessionRecord } from '../../src/core/store/index.js';

// Issue 42, item 4: rewind's restore checked a file's folder with realpath, then wrote by path; a
// background job swapping that folder for a symlink in between carried the write out of the
// workspace. Restores now go through verified folder descriptors, as the file tools' writes do.
describe("rewind's restore while a folder is swapped for a symlink", () => {
  it('writes nothing outside the workspace over 300 restores against a swap loop, and still restores', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'adk-restore-race-')));
    const work = join(dir, 'work');
    const out = join(dir, 'outside');
    mkdirSync(join(work, 'sub'), { recursive: true });
    mkdirSync(out);
    writeFileSync(join(work, 'sub', 'a.txt'), 'before\n');
    const session = { id: 's', record: { id: 's', workspace: work, messages: [], fileCheckpoints: undefined } as unknown as SessionRecord };
    const files = new FileCheckpoints(join(dir, 'home'));
    files.anchor(session, 0, await files.snapshot(session));
    writeFileSync(join(work, 'sub', 'a.txt'), 'after\n');
    await files.after(session);
    const plan = (await files.plan(session, 0))!;
    const swapper = spawn(process.execPath, ['-e', `
      const fs = require('fs');
      const [sub, out] = process.argv.slice(1);
      for (;;) { try { fs.renameSync(sub, sub + '.real'); fs.symlinkSync(out, sub); fs.unlinkSync(sub); fs.renameSync(sub + '.real', sub); } catch {} }
    `, join(work, 'sub'), out], { stdio: 'ignore' });
    try {
      await new Promise((r) => setTimeout(r, 100));
      for (let i = 0; i < 300; i++) await files.restore(session, plan).catch(() => {});
    } finally {
      swapper.kill('SIGKILL');
      await new Promise((r) => swapper.once('exit', r));
    }
    expect(existsSync(join(out, 'a.txt'))).toBe(false);
    // With nothing racing it, the restore does its work.
    if (!existsSync(join(work, 'sub'))) mkdirSync(join(work, 'sub'));
    writeFileSync(join(work, 'sub', 'a.txt'), 'after\n');
    await files.restore(session, plan);
    expect(readFileSync(join(work, 'sub', 'a.txt'), 'utf8')).toBe('before\n');
  }, 60_000);
});
