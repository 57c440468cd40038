import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { containerIsTheSandbox } from '../../src/cli/shell-sandbox-env.js';
import { expectExit, ofType, runCli, serverEnv, tempDir, tempHome, useServer, writeAgentsFile } from './helpers.js';

// Issue 44: where bwrap cannot make its sandbox (a container without user namespaces), the person can
// say the container is the boundary; adk believes it only where it sees a container.
const server = useServer();
const host = (over: Partial<{ env: Record<string, string>; files: string[]; cgroup: string }> = {}) => ({
  uid: 0,
  env: over.env ?? {},
  exists: (p: string) => (over.files ?? []).includes(p),
  read: () => over.cgroup ?? '0::/\n',
});

describe('--sandbox container', () => {
  it('is believed only inside a container: the container variable, a marker file, or a container cgroup', () => {
    const on = { ADK_SANDBOX: 'container' };
    expect(() => containerIsTheSandbox(on, host())).toThrow(/adk sees no container here .* commands would run on the host unsandboxed/);
    expect(containerIsTheSandbox(on, host({ env: { container: 'podman' } }))).toBe(true);
    expect(containerIsTheSandbox(on, host({ files: ['/.dockerenv'] }))).toBe(true);
    expect(containerIsTheSandbox(on, host({ cgroup: '0::/kubepods/besteffort/pod1\n' }))).toBe(true);
    expect(containerIsTheSandbox({}, host())).toBe(false);
    expect(() => containerIsTheSandbox({ ADK_SANDBOX: 'docker' }, host())).toThrow('ADK_SANDBOX (--sandbox) must be "container" or "bwrap"');
  });

  it('adk run --sandbox container: commands run in the container without bwrap, said once at start', async () => {
    const cwd = tempDir('adk-container-');
    writeAgentsFile(cwd, `version: 1\ndefault: a\nagents:\n  a: { description: A., instruction: Go., tools: [shell] }\n`);
    // A file outside the workspace: bwrap would not show it; the container does.
    const outside = mkdtempSync(join(tmpdir(), 'adk-outside-'));
    writeFileSync(join(outside, 'note.txt'), 'seen-from-the-container');
    server().enqueue({ toolCalls: [{ id: 'c', name: 'shell', arguments: { command: `cat ${join(outside, 'note.txt')}` } }] }, { content: 'ok' });
    const env = { ...serverEnv(server(), 'sk-container-key-0001', tempHome()), container: 'podman' };
    const r = await expectExit(['run', '--json', '--sandbox', 'container', '--allow', 'shell', 'go'], 0, { env, cwd });
    expect(ofType(r.lines, 'tool_result')[0].content).toContain('seen-from-the-container');
    expect(r.stderr.match(/the container is the sandbox \(--sandbox container\)/g)).toHaveLength(1);
    const wrong = await runCli(['run', '--sandbox', 'vm', 'go'], { env, cwd });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('must be "container" or "bwrap"');
  });
});
