import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectExit, ofType, runCli, serverEnv, sessionIdOf, tempDir, tempHome, useServer, writeAgentsFile } from './helpers.js';

// Issue 44: `adk run` in a script or CI, where nobody answers approvals. --permission-mode, --allow and
// --deny set what runs unasked for this run; --on-approval says what happens to a call that would
// still ask: ask (wait, exit 3, as before), deny (answered "no" with a reason the model sees), fail
// (the run ends incomplete, exit 1, naming the call; the session stays saved and answerable).
const server = useServer();
const AGENTS = `version: 1
default: a
agents:
  a:
    description: A test agent.
    instruction: Be brief.
    tools: [shell, write_file]
    approval: [shell, write_file]
`;

function setup() {
  const work = tempDir('adk-unattended-');
  writeAgentsFile(work, AGENTS);
  return { cwd: work, env: serverEnv(server(), 'sk-unattended-key-0001', tempHome()) };
}
const writeCall = { id: 'w', name: 'write_file', arguments: { path: 'notes.txt', content: 'edited\n' } };
const shellCall = { id: 's', name: 'shell', arguments: { command: 'touch ran.txt' } };

describe('adk run unattended', () => {
  it('--permission-mode accept-edits --on-approval deny: the edit runs, shell is denied with a reason the model sees, exit 0 done', async () => {
    const { cwd, env } = setup();
    server().enqueue({ toolCalls: [writeCall] }, { toolCalls: [shellCall] }, { content: 'did what I could' });
    const r = await expectExit(['run', '--json', '--permission-mode', 'accept-edits', '--on-approval', 'deny', 'go'], 0, { env, cwd });
    expect(readFileSync(join(cwd, 'notes.txt'), 'utf8')).toBe('edited\n');
    expect(existsSync(join(cwd, 'ran.txt'))).toBe(false);
    expect(r.lines.at(-1)).toMatchObject({ type: 'done', status: 'completed', output: 'did what I could' });
    expect(ofType(r.lines, 'interrupt')).toEqual([]);
    expect(r.stderr).toContain('denied, nobody is there to approve it (--on-approval deny): shell {"command":"touch ran.txt"}');
    const toolMessages = server().chatRequests[2]!.body.messages.filter((m: { role: string }) => m.role === 'tool');
    expect(JSON.stringify(toolMessages.at(-1))).toContain('running unattended (--on-approval deny)');
    // Tokens of every round are counted in the one done line.
    expect(r.lines.at(-1).usage.promptTokens).toBeGreaterThan(0);
    expect(server().chatRequests).toHaveLength(3);
  });

  it('--on-approval fail: exit 1, incomplete/approval_needed naming the call; nothing ran; the session is answerable later', async () => {
    const { cwd, env } = setup();
    server().enqueue({ toolCalls: [shellCall] });
    const r = await expectExit(['run', '--json', '--on-approval', 'fail', 'go'], 1, { env, cwd });
    expect(r.lines.at(-1)).toMatchObject({ type: 'done', status: 'incomplete', reason: 'approval_needed' });
    expect(r.stderr).toContain('approval needed (nobody is there to answer it, --on-approval fail): shell {"command":"touch ran.txt"}; nothing of it ran');
    expect(existsSync(join(cwd, 'ran.txt'))).toBe(false);
    server().enqueue({ content: 'done now' });
    const resumed = await expectExit(['resume', sessionIdOf(r), '--approve', '--json'], 0, { env, cwd });
    expect(resumed.lines.at(-1)).toMatchObject({ status: 'completed', output: 'done now' });
    expect(existsSync(join(cwd, 'ran.txt'))).toBe(true);
  });

  it('--allow runs a matching call unasked; --deny refuses one, told to the model; without --on-approval a call still waits (exit 3)', async () => {
    const { cwd, env } = setup();
    server().enqueue({ toolCalls: [{ ...shellCall, arguments: { command: 'touch allowed.txt' } }] }, { toolCalls: [writeCall] }, { toolCalls: [shellCall] });
    const r = await expectExit(['run', '--json', '--allow', 'shell(touch allowed.txt)', '--deny', 'write_file', 'go'], 3, { env, cwd });
    expect(existsSync(join(cwd, 'allowed.txt'))).toBe(true);
    expect(existsSync(join(cwd, 'notes.txt'))).toBe(false);
    const results = ofType(r.lines, 'tool_result');
    expect(results.find((x) => x.id === 'w').content).toContain('A deny rule (write_file) forbids this write_file call');
    expect(ofType(r.lines, 'interrupt')[0].interrupts[0]).toMatchObject({ tool: 'shell', arguments: { command: 'touch ran.txt' } });
  });

  it('adk resume --on-approval deny answers what a session waits on, and the run goes on', async () => {
    const { cwd, env } = setup();
    server().enqueue({ toolCalls: [shellCall] });
    const r = await expectExit(['run', '--json', 'go'], 3, { env, cwd });
    server().enqueue({ content: 'fine without it' });
    const resumed = await expectExit(['resume', sessionIdOf(r), '--json', '--on-approval', 'deny'], 0, { env, cwd });
    expect(resumed.lines.at(-1)).toMatchObject({ status: 'completed', output: 'fine without it' });
    expect(existsSync(join(cwd, 'ran.txt'))).toBe(false);
  });

  it('bad flags are usage errors before anything starts', async () => {
    const { cwd, env } = setup();
    const bad = await runCli(['run', '--on-approval', 'maybe', 'go'], { env, cwd });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--on-approval maybe: expected one of ask, deny, fail');
    const bypass = await runCli(['run', '--permission-mode', 'bypass', 'go'], { env, cwd });
    expect(bypass.code).toBe(2);
    expect(bypass.stderr).toContain('--permission-mode bypass needs --dangerously-skip-permissions');
    const rule = await runCli(['run', '--allow', 'shell(', 'go'], { env, cwd });
    expect(rule.code).toBe(2);
    expect(rule.stderr).toContain("--allow 'shell(' is not a rule");
    expect(server().chatRequests).toHaveLength(0);
  });
});
