import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readdirSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useOpenAIServer, type OpenAITestServer } from '../support/openai-server.js';
import { cli, expectCleanStderr, jsonLines, modelEnv, spawnCli, tempDir } from './helpers.js';

/*
 * The disk fills up while a run streams: the session cannot be saved, and neither can the file it
 * falls back to (ADK_HOME/unsaved/<id>.json). A real full file system: a small tmpfs (needs root).
 */

let server: OpenAITestServer;
useOpenAIServer((s) => (server = s));

/** A 4 MB tmpfs, or undefined where mounting is not allowed (the test then skips). */
function smallDisk(): string | undefined {
  const dir = tempDir('disk');
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m,mode=0700', 'tmpfs', dir], { stdio: 'ignore' });
    return dir;
  } catch {
    return undefined;
  }
}

/** Writes zeros until the file system has no space left. */
function fill(dir: string): void {
  const fd = openSync(join(dir, 'filler'), 'w');
  const chunk = Buffer.alloc(64 * 1024);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
  } finally {
    closeSync(fd);
  }
}

const mounted: string[] = [];
afterEach(() => {
  for (const dir of mounted.splice(0)) execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
});

const disk = smallDisk();
if (disk) execFileSync('umount', [disk], { stdio: 'ignore' });

describe.skipIf(!disk)('a full disk', () => {
  it('the session cannot be saved and neither can its fallback file: the message says so and why, and no empty file is left', async () => {
    const home = smallDisk()!;
    mounted.push(home);
    const cwd = tempDir('work');
    const env = modelEnv(server, home);
    server.enqueue({ content: 'a reply that is still streaming when the disk fills up', chunkSize: 4, chunkDelayMs: 40 });
    const p = spawnCli(['run', '--json', 'remember this'], { env, cwd });
    await p.waitForLine((l) => l.includes('"delta"'));
    mkdirSync(join(home, 'unsaved'), { mode: 0o700 }); // so only the file itself can fail
    fill(home);
    const exit = await p.exited;
    expect(exit.code, p.stderr()).toBe(1);
    const id = jsonLines(p.stdout())[0].sessionId;
    const stderr = p.stderr().trim().split('\n');
    expectCleanStderr(p.stderr());
    // One line: not saved, why (the disk, not the step that met it), and where nothing was written.
    expect(stderr).toEqual([expect.stringMatching(new RegExp(`^adk: could not save session ${id}: no space left for the store ${join(home, 'adk.sqlite')}: SQLITE_FULL: database or disk is full; `))]);
    expect(stderr[0]).toContain(`; the conversation was not kept either: nothing was written to ${join(home, 'unsaved')} (ENOSPC: no space left on device)`);
    // Neither an empty nor a partial file, nor a temp file, is left behind.
    expect(readdirSync(join(home, 'unsaved'))).toEqual([]);

    // The lease could not be dropped on the full disk either: the next command meets it, and names the disk, not a step.
    const again = await cli(['resume', id, 'more'], { env, cwd });
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toBe(`adk: no space left for the store ${join(home, 'adk.sqlite')}: SQLITE_FULL: database or disk is full`);
  });
});
