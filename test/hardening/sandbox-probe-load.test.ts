import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { sandboxStatus } from '../../src/core/tools/sandbox/bwrap.js';
import { expectExit, ofType, serverEnv, sessionIdOf, tempDir, tempHome, useServer, writeAgentsFile } from '../cli/helpers.js';

// A CI flake of interrupt-resume.test.ts under heavy load: the second `adk resume` asked for shell
// although the session had an --always grant. Shell asks every time when its sandbox is unavailable
// (and so, before this fix, while the probe had not answered yet, or when one probe failed or timed
// out under load). These runs put a bwrap in front of the real one (ADK_BWRAP) that is slow, or fails
// once, when adk probes it: the grant must hold; and where the sandbox is really missing, the
// approval must say why the grant did not apply.
const server = useServer();
const status = await sandboxStatus();

const AGENTS = `version: 1
default: chat
agents:
  chat:
    description: A test agent whose shell needs approval.
    instruction: You are a careful test agent.
    tools: [shell]
    approval: [shell]
`;

/** A bwrap that misbehaves on the first probe (command \`true\`) of each adk process, then is the real one. */
function flakyBwrap(dir: string, firstProbe: string): string {
  const file = join(dir, 'bwrap');
  writeFileSync(
    file,
    `#!/bin/sh
for a; do last="$a"; done
if [ "$last" = true ] && [ ! -e "${dir}/probed-$PPID" ]; then
  : > "${dir}/probed-$PPID"
  ${firstProbe}
fi
exec "${status.bwrap}" "$@"
`,
  );
  chmodSync(file, 0o755);
  return file;
}

let work: string;
let agents: string;
let home: string;
beforeEach(() => {
  work = tempDir('adk-probe-cwd-');
  agents = writeAgentsFile(tempDir('adk-probe-cfg-'), AGENTS);
  home = tempHome();
});

/** Runs the first shell call, answers it with --always, then a new prompt whose shell call must run unasked. */
async function alwaysThenAgain(env: Record<string, string>) {
  const opts = { env: { ...serverEnv(server(), 'test-key-123456', home), ...env }, cwd: work };
  server().enqueue(
    { toolCalls: [{ id: 'call_a', name: 'shell', arguments: { command: 'echo first-ran' } }] },
    { content: 'first done' },
    { toolCalls: [{ id: 'call_b', name: 'shell', arguments: { command: 'echo second-ran' } }] },
    { content: 'second done' },
  );
  const id = sessionIdOf(await expectExit(['run', '--agents', agents, '--json', 'run the first'], 3, opts));
  await expectExit(['resume', id, '--always', '--json'], 0, opts);
  return expectExit(['resume', id, 'run the second', '--json'], 0, opts);
}

describe('a session grant for shell under a slow or flaky sandbox probe', () => {
  it.runIf(status.bwrap)('holds when the probe answers late (slower than the model)', async () => {
    const bwrap = flakyBwrap(tempDir('adk-probe-bin-'), 'sleep 1');
    const next = await alwaysThenAgain({ ADK_BWRAP: bwrap });
    expect(ofType(next.lines, 'interrupt')).toEqual([]);
    expect(ofType(next.lines, 'tool_result')[0].content).toContain('second-ran');
    expect(next.stderr).not.toContain('WITHOUT a sandbox');
  });

  it.runIf(status.bwrap)('holds when the first probe fails and the retry succeeds', async () => {
    const bwrap = flakyBwrap(tempDir('adk-probe-bin-'), 'echo "bwrap: Creating new namespace failed: Resource temporarily unavailable" >&2; exit 1');
    const next = await alwaysThenAgain({ ADK_BWRAP: bwrap });
    expect(ofType(next.lines, 'interrupt')).toEqual([]);
    expect(ofType(next.lines, 'tool_result')[0].content).toContain('second-ran');
    expect(next.stderr).not.toContain('WITHOUT a sandbox');
  });

  it('without a sandbox at all, the approval says why the grant did not apply', async () => {
    const opts = { env: { ...serverEnv(server(), 'test-key-123456', home), ADK_BWRAP: '' }, cwd: work };
    server().enqueue(
      { toolCalls: [{ id: 'call_a', name: 'shell', arguments: { command: 'echo first-ran' } }] },
      { content: 'first done' },
      { toolCalls: [{ id: 'call_b', name: 'shell', arguments: { command: 'echo second-ran' } }] },
    );
    const asked = await expectExit(['run', '--agents', agents, '--json', 'run the first'], 3, opts);
    const id = sessionIdOf(asked);
    // No grant yet: nothing to explain.
    expect(ofType(asked.lines, 'interrupt')[0].interrupts[0].message).not.toMatch(/always allow/i);
    await expectExit(['resume', id, '--always', '--json'], 0, opts);
    const next = await expectExit(['resume', id, 'run the second', '--json'], 3, opts);
    const [point] = ofType(next.lines, 'interrupt')[0].interrupts;
    expect(point).toMatchObject({ kind: 'approval', tool: 'shell' });
    expect(point.message).toMatch(/always allow.*does not apply/i);
    expect(point.message).toContain('bwrap is not installed');
  });
});
