import { describe, expect, it } from 'vitest';
import { expectExit, ofType, serverEnv, shellApprovalAgents, tempDir, tempHome, useServer, writeAgentsFile } from '../cli/helpers.js';

// Issue 12, item 4: no secret-named variable reaches a shell command; ADK_SHELL_ENV opens named ones.
const server = useServer();

describe('the environment of shell commands', () => {
  it('`env` in the shell shows the allow-list only: no tokens, keys or secrets', async () => {
    const home = tempHome();
    const cwd = tempDir('adk-shellenv-');
    const agents = writeAgentsFile(tempDir('adk-shellenv-cfg-'), shellApprovalAgents(['shell']));
    const env = {
      ...serverEnv(server(), 'sk-test-key-000111222', home),
      GITHUB_TOKEN: 'ghp_leaked_token_000',
      AWS_SECRET_ACCESS_KEY: 'aws_leaked_secret_000',
      ANTHROPIC_AUTH_TOKEN: 'anthropic_leaked_000',
      MY_PROJECT_FLAG: 'visible-when-listed',
    };
    server().enqueue({ toolCalls: [{ id: 'e', name: 'shell', arguments: { command: 'env' } }] }, { content: 'done' });
    const r = await expectExit(['run', '--agents', agents, '--json', 'env'], 3, { env, cwd });
    const id = ofType(r.lines, 'session')[0].sessionId;
    const done = await expectExit(['resume', id, '--approve', '--json'], 0, { env: { ...env, ADK_SHELL_ENV: 'MY_PROJECT_FLAG' }, cwd });
    const out: string = ofType(done.lines, 'tool_result')[0].content;
    for (const name of ['GITHUB_TOKEN', 'AWS_SECRET_ACCESS_KEY', 'ANTHROPIC_AUTH_TOKEN', 'OPENAI_API_KEY', 'OPENAI_BASE_URL', 'ADK_HOME']) expect(out).not.toContain(`${name}=`);
    expect(out).toMatch(/^PATH=/m);
    expect(out).toContain('MY_PROJECT_FLAG=visible-when-listed');
  });
});
