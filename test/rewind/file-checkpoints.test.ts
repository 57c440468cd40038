import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileCheckpoints, describeRewindFiles } from '../../src/cli/rewind/file-checkpoints.js';
import type { SessionRecord } from '../../src/core/store/index.js';
import { typedText, rewindPoints } from '../../src/cli/rewind/rewind-command.js';

// Issue 32: the REPL checkpoints the workspace's files around each turn (a shadow git repository
// under ADK_HOME, never the workspace's own .git) and restores those the turns since changed.
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'adk-files-'));
  dirs.push(dir);
  const work = join(dir, 'work');
  mkdirSync(work);
  const record = { id: 'sess1', workspace: work, messages: [], fileCheckpoints: undefined } as unknown as SessionRecord;
  return { dir, work, home: join(dir, 'home'), session: { id: 'sess1', record } };
}
const read = (p: string) => readFileSync(p, 'utf8');

describe('file checkpoints (issue 32)', () => {
  it('code only: files the turns changed go back, files they made are deleted, the person’s own edits between turns stay', async () => {
    const { work, home, session } = setup();
    writeFileSync(join(work, 'a.txt'), 'a before\n');
    writeFileSync(join(work, 'b.txt'), 'b before\n');
    writeFileSync(join(work, 'mine.txt'), 'mine before\n');
    writeFileSync(join(work, 'run.sh'), '#!/bin/sh\n');
    chmodSync(join(work, 'run.sh'), 0o755);
    writeFileSync(join(work, '.gitignore'), 'ignored/\n');
    mkdirSync(join(work, 'ignored'));
    writeFileSync(join(work, 'ignored', 'x.txt'), 'x before\n');
    mkdirSync(join(work, '.git'));
    writeFileSync(join(work, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    const files = new FileCheckpoints(home);

    // Turn 1 (message 0): a write_file and an edit_file.
    files.anchor(session, 0, await files.snapshot(session));
    writeFileSync(join(work, 'a.txt'), 'a by the model\n');
    writeFileSync(join(work, 'b.txt'), 'b before\nand an edit\n');
    await files.after(session);
    // The person edits a file between turns: not the tools' doing.
    writeFileSync(join(work, 'mine.txt'), 'mine edited by hand\n');
    // Turn 2 (message 2): a shell command makes a file in a new folder, removes one, touches an ignored one.
    files.anchor(session, 2, await files.snapshot(session));
    mkdirSync(join(work, 'new', 'deep'), { recursive: true });
    writeFileSync(join(work, 'new', 'deep', 'made.txt'), 'made\n');
    rmSync(join(work, 'run.sh'));
    writeFileSync(join(work, 'ignored', 'x.txt'), 'x after\n');
    await files.after(session);

    const plan = await files.plan(session, 0);
    expect(describeRewindFiles(plan!.files)).toEqual(['M a.txt', 'M b.txt', 'D new/deep/made.txt', 'A run.sh']);
    await files.restore(session, plan!);
    expect(read(join(work, 'a.txt'))).toBe('a before\n');
    expect(read(join(work, 'b.txt'))).toBe('b before\n');
    expect(existsSync(join(work, 'new'))).toBe(false);
    expect(read(join(work, 'run.sh'))).toBe('#!/bin/sh\n');
    expect(statSync(join(work, 'run.sh')).mode & 0o111).not.toBe(0);
    expect(read(join(work, 'mine.txt'))).toBe('mine edited by hand\n');
    expect(read(join(work, 'ignored', 'x.txt'))).toBe('x after\n');
    // The workspace's own .git is left alone; the snapshots live under ADK_HOME.
    expect(readdirSync(join(work, '.git'))).toEqual(['HEAD']);
    expect(existsSync(join(home, 'checkpoints', 'sess1', 'HEAD'))).toBe(true);
    expect(readdirSync(join(home, 'checkpoints', 'objects'))).toHaveLength(1);
    // Nothing left to restore.
    expect((await files.plan(session, 0))!.files).toEqual([]);
  });

  it('a rewind to the second turn restores only what came after it; a later message has no plan', async () => {
    const { work, home, session } = setup();
    writeFileSync(join(work, 'a.txt'), '1\n');
    const files = new FileCheckpoints(home);
    files.anchor(session, 0, await files.snapshot(session));
    writeFileSync(join(work, 'a.txt'), '2\n');
    await files.after(session);
    files.anchor(session, 2, await files.snapshot(session));
    writeFileSync(join(work, 'a.txt'), '3\n');
    await files.after(session);
    const plan = await files.plan(session, 2);
    expect(describeRewindFiles(plan!.files)).toEqual(['M a.txt']);
    await files.restore(session, plan!);
    expect(read(join(work, 'a.txt'))).toBe('2\n');
    expect(await files.plan(session, 4)).toBeUndefined();
    // Anchors are plain data in the session record: what `adk resume` brings back.
    expect(session.record.fileCheckpoints).toEqual([
      { message: 0, before: expect.stringMatching(/^[0-9a-f]{40}$/), after: expect.stringMatching(/^[0-9a-f]{40}$/) },
      { message: 2, before: expect.stringMatching(/^[0-9a-f]{40}$/), after: expect.stringMatching(/^[0-9a-f]{40}$/) },
    ]);
  });

  it('is off in the home folder and the root folder, and when git refuses nothing breaks', async () => {
    const files = new FileCheckpoints(join(tmpdir(), 'unused'));
    expect(files.offReason(process.env.HOME ?? '/root')).toMatch(/home folder/);
    expect(files.offReason('/')).toMatch(/root folder/);
    const record = { id: 'x', workspace: '/', messages: [] } as unknown as SessionRecord;
    expect(await files.snapshot({ id: 'x', record })).toBeUndefined();
  });

  it('a file that was too large to keep is never deleted by a restore', async () => {
    const { work, home, session } = setup();
    writeFileSync(join(work, 'big.bin'), Buffer.alloc(6 * 1024 * 1024, 1));
    const files = new FileCheckpoints(home);
    files.anchor(session, 0, await files.snapshot(session));
    writeFileSync(join(work, 'big.bin'), 'small now\n');
    await files.after(session);
    const plan = await files.plan(session, 0);
    expect(plan!.files).toEqual([]);
    expect(session.record.fileCheckpoints![0]!.big).toEqual(['big.bin']);
  });

  it('the message put back in the input is what was typed (attached @files left out)', () => {
    expect(typedText('look at @a.ts\n\n<file path="a.ts">\nconst a = 1;\n</file>')).toBe('look at @a.ts');
    expect(typedText('plain\n\ntext')).toBe('plain\n\ntext');
    const points = rewindPoints([
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'x', agentName: 'bot' },
      { role: 'user', content: 'two' },
    ]);
    expect(points).toEqual([{ index: 2, text: 'two' }, { index: 0, text: 'one' }]);
  });
});

