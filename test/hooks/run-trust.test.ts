import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, serverEnv, tempDir, tempHome, useServer } from '../cli/helpers.js';

// Issue 32: `adk run` never asks; a folder's untrusted hooks are left out with a warning, and run
// once the file is trusted with `adk trust .adk/settings.json`. The person's own hooks always run.
const server = useServer();

describe('hooks in adk run', () => {
  it("an untrusted folder's hook never runs; after adk trust it does; your own settings' hooks always run", async () => {
    const work = tempDir('adk-run-hooks-');
    const home = tempHome();
    mkdirSync(join(work, '.adk'));
    writeFileSync(join(work, '.adk', 'settings.json'), JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'touch folder-hook-ran' }] }] } }));
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'touch own-hook-ran' }] }] } }));
    server().onRequest(() => ({ content: 'ok' }));
    const env = serverEnv(server(), 'test-key-123456', home);

    const first = await runCli(['run', 'hello'], { cwd: work, env });
    expect(first.code).toBe(0);
    expect(first.stderr).toContain('are not run');
    expect(existsSync(join(work, 'folder-hook-ran'))).toBe(false);
    expect(existsSync(join(work, 'own-hook-ran'))).toBe(true);

    const trusted = await runCli(['trust', '.adk/settings.json', '--yes'], { cwd: work, env });
    expect(trusted.stdout).toContain('runs `touch folder-hook-ran` in the sandbox on UserPromptSubmit');
    const second = await runCli(['run', 'hello'], { cwd: work, env });
    expect(second.code).toBe(0);
    expect(existsSync(join(work, 'folder-hook-ran'))).toBe(true);
  }, 60_000);

  // A hook entry adk cannot read (here a `sandbox` value it does not know) is left out of a run with a
  // warning; `adk trust` said only "It runs no hooks." and trusted the file. It now says what it leaves out.
  it('adk trust names, at file:line:col, a hook entry it leaves out', async () => {
    const work = tempDir('adk-trust-bad-hook-');
    mkdirSync(join(work, '.adk'));
    writeFileSync(join(work, '.adk', 'settings.json'), JSON.stringify({ hooks: { PostToolUse: [{ matcher: 'read_file', hooks: [{ type: 'command', command: 'true', sandbox: 'on' }] }] } }));
    const r = await runCli(['trust', '.adk/settings.json', '--yes'], { cwd: work, env: serverEnv(server(), 'test-key-123456', tempHome()) });
    expect(r.stdout).toMatch(/Left out \(not run\):\n  - .*\.adk\/settings\.json:1:\d+: sandbox must be 'off'/);
  }, 30_000);
});
