import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectExit, ofType, runCli, serverEnv, sessionIdOf, tempDir, tempHome, useServer, writeAgentsFile } from './helpers.js';

// Issue 44, goal mode: `adk run --until CHECK` keeps working until the check passes in the sandbox.
// Each attempt is a turn of the session; a failed check's output reaches the model.
const server = useServer();
const AGENTS = `version: 1
default: a
agents:
  a:
    description: A test agent.
    instruction: Be brief.
    tools: [shell]
`;
const CHECK = 'test -f fixed.txt || { echo "2 tests failed"; exit 1; }';

function setup() {
  const cwd = tempDir('adk-goal-');
  writeAgentsFile(cwd, AGENTS);
  return { cwd, env: serverEnv(server(), 'sk-goal-key-00000001', tempHome()) };
}

describe('goal mode (adk run --until)', () => {
  it('a model that needs three attempts: the check fails twice (its output reaches the model), then passes; three turns in the session', async () => {
    const { cwd, env } = setup();
    server().enqueue(
      { content: 'I think it works.' },
      { content: 'Still thinking.' },
      { toolCalls: [{ id: 'fix', name: 'shell', arguments: { command: 'touch fixed.txt' } }] },
      { content: 'Fixed it.' },
    );
    const r = await expectExit(['run', '--json', '--allow', 'shell', '--until', CHECK, 'make the tests pass'], 0, { env, cwd });
    const goals = ofType(r.lines, 'goal');
    expect(goals.map((g) => [g.attempt, g.passed])).toEqual([[1, false], [2, false], [3, true]]);
    expect(r.lines.at(-1)).toMatchObject({ type: 'done', status: 'completed', output: 'Fixed it.' });
    expect(r.stderr).toContain('adk: goal: attempt 2 · check failed (exit 1)');
    const second = JSON.stringify(server().chatRequests[1]!.body.messages.at(-1));
    expect(second).toContain('2 tests failed');
    expect(second).toContain('This is attempt 2 of 10');
    const shown = await runCli(['sessions', 'show', sessionIdOf(r), '--json'], { env, cwd });
    const record = JSON.parse(shown.stdout);
    expect(record.goal).toMatchObject({ attempt: 3, met: true });
    expect(record.messages.filter((m: { role: string }) => m.role === 'user')).toHaveLength(3);
  });

  it('--max-attempts: the goal not met ends incomplete (goal_not_met), exit 1', async () => {
    const { cwd, env } = setup();
    server().enqueue({ content: 'no' }, { content: 'no' });
    const r = await expectExit(['run', '--json', '--until', CHECK, '--max-attempts', '2', 'go'], 1, { env, cwd });
    expect(r.lines.at(-1)).toMatchObject({ type: 'done', status: 'incomplete', reason: 'goal_not_met' });
    expect(r.stderr).toContain('goal not met after 2 attempts');
    expect(server().chatRequests).toHaveLength(2);
    expect(existsSync(join(cwd, 'fixed.txt'))).toBe(false);
  });

  it('kill -9 in attempt 2: adk resume goes on from attempt 2 and reaches the goal', async () => {
    const { cwd, env } = setup();
    server().enqueue({ content: 'I think it works.' }, { content: 'never seen', delayMs: 60_000 });
    const killed = await runCli(['run', '--json', '--allow', 'shell', '--until', CHECK, 'make the tests pass'], {
      env,
      cwd,
      onLine: (line, child) => {
        if (line.includes('"type":"goal"')) setTimeout(() => child.kill('SIGKILL'), 500);
      },
    });
    expect(killed.signal).toBe('SIGKILL');
    expect(server().chatRequests).toHaveLength(2);
    const id = sessionIdOf(killed);
    server().reset();
    server().enqueue({ toolCalls: [{ id: 'fix', name: 'shell', arguments: { command: 'touch fixed.txt' } }] }, { content: 'Fixed it.' });
    const resumed = await runCli(['resume', id, '--json', '--allow', 'shell'], { env, cwd });
    expect(resumed.code, resumed.stderr).toBe(0);
    // The check after attempt 1 runs again (the workspace as the killed attempt left it), then attempt 2 starts over and passes.
    expect(ofType(resumed.lines, 'goal').map((g) => [g.attempt, g.passed])).toEqual([[1, false], [2, true]]);
    // Attempt 2 was asked again with the first check's output, not started from scratch.
    const asked = JSON.stringify(server().chatRequests[0]!.body.messages);
    expect(asked).toContain('2 tests failed');
    expect(asked).toContain('make the tests pass');
  }, 90_000);
});
