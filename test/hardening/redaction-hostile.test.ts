import { describe, expect, it } from 'vitest';
import { expectExit, runCli, serverEnv, sessionIdOf, tempDir, tempHome, useServer } from '../cli/helpers.js';

// Issue 12, item 6: redaction touches only secret values inside string values, so hostile variable
// values that equal roles, statuses or keys cannot corrupt a session.
const server = useServer();

describe('secret-named variables whose values are words of the record itself', () => {
  it('CACHE_KEY=assistant, BUILD_TOKEN=messages, DONE_SECRET=completed, FLAG_TOKEN=true: the session saves, reads back and continues', async () => {
    const home = tempHome();
    const cwd = tempDir('adk-redact-');
    const env = {
      ...serverEnv(server(), 'test-key-123456', home),
      CACHE_KEY: 'assistant',
      BUILD_TOKEN: 'messages',
      DONE_SECRET: 'completed',
      FLAG_TOKEN: 'true',
      ROLE_KEY: 'user-role-x',
    };
    server().enqueue({ content: 'the assistant read the messages; completed: true' }, { content: 'second answer' });
    const first = await expectExit(['run', '--json', 'hello assistant, mind the messages'], 0, { env, cwd });
    const id = sessionIdOf(first);
    const shown = await runCli(['sessions', 'show', id, '--json'], { env, cwd });
    expect(shown.code, shown.stderr).toBe(0);
    const record = JSON.parse(shown.stdout);
    expect(record.status).toBe('completed');
    expect(record.messages.map((m: any) => m.role)).toEqual(['user', 'assistant']);
    // The values are still redacted where they are text.
    expect(record.messages[1].content).toBe('the [REDACTED] read the [REDACTED]; [REDACTED]: true');
    const list = await runCli(['sessions', '--json'], { env, cwd });
    expect(JSON.parse(list.stdout).find((s: any) => s.id === id)).toMatchObject({ status: 'completed', corrupt: false });
    await expectExit(['run', '--session', id, '--json', 'and again'], 0, { env, cwd });
  });
});
