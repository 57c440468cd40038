import { describe, expect, it } from 'vitest';
import { bypassRefusal, nextPermissionMode, permissionModePolicy, startingMode, type SandboxProbe } from '../../src/cli/chat/permission-mode.js';

const probe = (o: Partial<SandboxProbe> & { files?: string[]; cgroup?: string }): SandboxProbe => ({
  uid: o.uid,
  env: o.env ?? {},
  exists: (p) => (o.files ?? []).includes(p),
  read: (p) => (p === '/proc/1/cgroup' ? (o.cgroup ?? '0::/\n') : undefined),
});

describe('permission modes', () => {
  it('bypass is refused as root outside a sandbox, with a clear message', () => {
    expect(bypassRefusal(probe({ uid: 0 }))).toMatch(/cannot be used as root outside a sandbox/);
    const m = startingMode({ dangerouslySkipPermissions: true }, probe({ uid: 0 }));
    expect(m).toEqual({ error: expect.stringMatching(/--dangerously-skip-permissions cannot be used as root/) });
  });

  it('bypass is allowed for another user, or as root in a container or a declared sandbox', () => {
    expect(bypassRefusal(probe({ uid: 1000 }))).toBeUndefined();
    expect(bypassRefusal(probe({ uid: 0, files: ['/.dockerenv'] }))).toBeUndefined();
    expect(bypassRefusal(probe({ uid: 0, cgroup: '0::/kubepods/besteffort/pod1\n' }))).toBeUndefined();
    expect(bypassRefusal(probe({ uid: 0, env: { IS_SANDBOX: '1' } }))).toBeUndefined();
    expect(startingMode({ dangerouslySkipPermissions: true }, probe({ uid: 1000 }))).toEqual({ mode: 'bypass', bypassAllowed: true });
  });

  it('bypass needs the flag: --permission-mode bypass alone is an error, a settings defaultMode of bypass is ignored', () => {
    expect(startingMode({ permissionMode: 'bypass' }, probe({ uid: 1000 }))).toEqual({ error: expect.stringMatching(/needs --dangerously-skip-permissions/) });
    expect(startingMode({ defaultMode: 'bypassPermissions' }, probe({ uid: 1000 }))).toEqual({ mode: 'default', bypassAllowed: false });
    expect(startingMode({ defaultMode: 'acceptEdits' }, probe({ uid: 1000 }))).toEqual({ mode: 'accept-edits', bypassAllowed: false });
    expect(startingMode({ permissionMode: 'nope' })).toEqual({ error: expect.stringMatching(/expected one of default, accept-edits, plan, bypass/) });
  });

  it('Shift-Tab cycles default → accept-edits → plan (→ bypass when allowed) → default', () => {
    expect(nextPermissionMode('default', false)).toBe('accept-edits');
    expect(nextPermissionMode('accept-edits', false)).toBe('plan');
    expect(nextPermissionMode('plan', false)).toBe('default');
    expect(nextPermissionMode('plan', true)).toBe('bypass');
    expect(nextPermissionMode('bypass', true)).toBe('default');
  });

  it('accept-edits lets file edits run unasked, not shell; plan refuses what is not read-only', () => {
    const edits = permissionModePolicy('accept-edits')!;
    expect(edits.allows({ tool: 'write_file', arguments: {}, agentName: 'a' })).toBe(true);
    expect(edits.allows({ tool: 'shell', arguments: {}, agentName: 'a' })).toBe(false);
    const plan = permissionModePolicy('plan')!;
    expect(plan.refuses!({ tool: 'write_file', arguments: {}, agentName: 'a', readOnly: false })).toMatch(/Plan mode is on/);
    expect(plan.refuses!({ tool: 'read_file', arguments: {}, agentName: 'a', readOnly: true })).toBeUndefined();
    expect(permissionModePolicy('default')).toBeUndefined();
  });
});
