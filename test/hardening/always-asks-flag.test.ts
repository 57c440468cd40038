import { describe, expect, it } from 'vitest';
import { permissionRequest } from '../../src/cli/acp/permission.js';
import { describeInterrupt } from '../../src/core/conversation/describe-interrupt.js';
import { autoAnswer, mustAsk } from '../../src/ui/app/answers.js';
import type { PendingInterrupt } from '../../src/ui/state/transcript.js';
import { expectExit, ofType, serverEnv, shellApprovalAgents, tempDir, tempHome, useServer, writeAgentsFile } from '../cli/helpers.js';

// Security review, HIGH: an approval of a tool that asks every time (shell without its sandbox) is
// marked so on the interrupt, as data every face gets (JSON lines, serve, ACP, the REPL), and the
// REPL's session grants never answer it.
const server = useServer();

async function firstApproval(env: Record<string, string>) {
  const work = tempDir('adk-always-asks-');
  const agents = writeAgentsFile(tempDir('adk-always-asks-cfg-'), shellApprovalAgents());
  server().enqueue({ toolCalls: [{ id: 'call_a', name: 'shell', arguments: { command: 'echo hi' } }] });
  const r = await expectExit(['run', '--agents', agents, '--json', 'go'], 3, { env: { ...serverEnv(server(), 'test-key-123456', tempHome()), ...env }, cwd: work });
  return ofType(r.lines, 'interrupt')[0].interrupts[0];
}

describe('an approval that must always ask', () => {
  it('is marked alwaysAsks where shell has no sandbox, and not where it is off on purpose', async () => {
    expect(await firstApproval({ ADK_BWRAP: '' })).toMatchObject({ kind: 'approval', tool: 'shell', alwaysAsks: true });
    expect((await firstApproval({ ADK_SHELL_SANDBOX: 'off' })).alwaysAsks).toBeUndefined();
  });

  it('is never answered from a session grant in the REPL', () => {
    const p = (info: Partial<PendingInterrupt['info']>): PendingInterrupt => ({ id: 'i1', address: 'agent:a;tool:shell:c1', agent: 'a', info: { kind: 'approval', message: 'Allow shell?', tool: 'shell', ...info } });
    const granted = new Set(['shell']);
    expect(autoAnswer(p({}), granted)).toEqual({ kind: 'approval', choice: { approved: true } });
    expect(autoAnswer(p({ alwaysAsks: true }), granted)).toBeUndefined();
    // One an earlier process left unmarked: the host's list decides.
    expect(autoAnswer(p({}), granted, (tool) => tool === 'shell')).toBeUndefined();
    expect(mustAsk(p({}), (tool) => tool === 'shell')).toBe(true);
    expect(mustAsk(p({}), () => false)).toBe(false);
  });

  it('is not offered "always allow" in an editor (ACP)', async () => {
    const waiting = (alwaysAsks: boolean) => describeInterrupt({ id: 'i1', address: 'agent:a;tool:shell:c1', info: { kind: 'approval', message: 'Allow shell?', tool: 'shell', arguments: { command: 'ls' }, ...(alwaysAsks ? { alwaysAsks: true } : {}) } });
    const kinds = async (alwaysAsks: boolean) => (await permissionRequest('s1', waiting(alwaysAsks), tempDir('adk-acp-ws-'))).options.map((o) => o.kind);
    expect(await kinds(false)).toContain('allow_always');
    expect(await kinds(true)).toEqual(['allow_once', 'reject_once', 'reject_always']);
  });
});
