import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MentionIndex } from '../../src/cli/chat/mention-index.js';

// Issue 42 (review of the MCP sandbox change): the REPL's `@` picker listed files with `git ls-files`
// on the host, with adk's whole environment. `.git/config` is writable from the sandbox: a command
// that set `core.fsmonitor` there ran on the host, with the API key, the next time the person typed `@`.
describe('git that adk runs on the host over a workspace', () => {
  it("runs no program a repository's config names (core.fsmonitor), and no git the workspace planted on PATH", () => {
    const ws = mkdtempSync(join(tmpdir(), 'adk-host-git-'));
    const out = mkdtempSync(join(tmpdir(), 'adk-host-git-out-'));
    execFileSync('git', ['init', '-q', ws]);
    writeFileSync(join(ws, 'a.txt'), 'a');
    const hook = join(ws, 'fsmonitor.sh');
    writeFileSync(hook, `#!/bin/sh\nenv > ${join(out, 'fsmonitor-ran')}\n`);
    chmodSync(hook, 0o755);
    execFileSync('git', ['-C', ws, 'config', 'core.fsmonitor', hook]);
    // A git of the workspace's, on a relative PATH entry (as `npx` puts node_modules/.bin first).
    mkdirSync(join(ws, 'node_modules/.bin'), { recursive: true });
    writeFileSync(join(ws, 'node_modules/.bin/git'), `#!/bin/sh\ntouch ${join(out, 'planted-git-ran')}\nexit 1\n`);
    chmodSync(join(ws, 'node_modules/.bin/git'), 0o755);
    const path = process.env.PATH;
    const cwd = process.cwd();
    try {
      process.env.PATH = `node_modules/.bin:${join(ws, 'node_modules/.bin')}:${path}`;
      process.chdir(ws);
      expect(new MentionIndex(ws).search('a.t')).toContain('a.txt');
    } finally {
      process.env.PATH = path;
      process.chdir(cwd);
    }
    expect(existsSync(join(out, 'fsmonitor-ran')), 'the repository’s fsmonitor ran on the host').toBe(false);
    expect(existsSync(join(out, 'planted-git-ran')), 'the workspace’s git ran').toBe(false);
  });
});
