import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectExit, serverEnv, sessionIdOf, useServer, writeAgentsFile, shellApprovalAgents } from '../cli/helpers.js';
import { sleep } from './helpers.js';
import { chatWorkspace, clearsIn, serverChatEnv, startChat, useTmux } from './tmux.js';

// Security review, HIGH: shell without its sandbox asks before every command, whatever the session's
// grants say (core's `alwaysAsk`). The REPL answered that approval itself when `shell` was among the
// session's grants (given earlier, where bwrap worked): every command then ran unsandboxed, unasked.
// ADK_BWRAP='' makes the probe say "bwrap is not installed" (see sandbox-probe-load.test.ts).
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';

describe('a session grant for shell when shell has no sandbox (tmux)', () => {
  it('does not answer the approval: it is shown, nothing runs until y, and "always" is not offered', async () => {
    server().onRequest((req) => {
      const last = req.body.messages.at(-1);
      if (last.role === 'tool') return { content: last.tool_call_id === 'call_b' ? 'second finished' : 'first finished' };
      const text = String(last.content);
      if (text.includes('run the second')) return { toolCalls: [{ id: 'call_b', name: 'shell', arguments: { command: 'touch ran-second.txt' } }] };
      return { toolCalls: [{ id: 'call_a', name: 'shell', arguments: { command: 'echo first-ran' } }] };
    });
    const { dir, work } = chatWorkspace('adk-nosandbox-grant-');
    const agents = writeAgentsFile(work, shellApprovalAgents());
    const env = serverChatEnv(dir, server().url, { ADK_BWRAP: '' });
    // The session's grant: `adk resume --always` answers the first approval and grants shell.
    const opts = { env: { ...serverEnv(server(), env.OPENAI_API_KEY, env.ADK_HOME), ADK_BWRAP: '' }, cwd: work };
    const id = sessionIdOf(await expectExit(['run', '--agents', agents, '--json', 'run the first'], 3, opts));
    await expectExit(['resume', id, '--always', '--json'], 0, opts);

    startChat(tmux, 'ng', { dir, cwd: work, env, command: 'resume', args: [id] });
    await tmux.waitForScreen('ng', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('ng', 'run the second');
    tmux.keys('ng', 'Enter');
    const screen = await tmux.waitForScreen('ng', (s) => s.includes('approve once') || s.includes('second finished'), 'the approval (or the command run unasked)', 20_000);
    expect(existsSync(join(work, 'ran-second.txt'))).toBe(false);
    expect(screen).toContain('approve once');
    // Neither "always allow shell" nor a rule ("don't ask again") is offered: neither would apply.
    expect(screen).not.toMatch(/always allow shell/);
    expect(screen).not.toMatch(/don't ask again/);
    expect(screen).toMatch(/asks every time here/);
    // `a` does nothing here: no "always" step opens.
    await sleep(600);
    tmux.keys('ng', 'a');
    await sleep(300);
    expect(tmux.capture('ng')).not.toMatch(/without asking for the rest of this session/);
    expect(existsSync(join(work, 'ran-second.txt'))).toBe(false);
    tmux.keys('ng', 'y');
    await tmux.waitForScreen('ng', (s) => s.includes('second finished') && s.includes(PROMPT), 'the command run once approved');
    expect(existsSync(join(work, 'ran-second.txt'))).toBe(true);
    expect(clearsIn(readFileSync(join(dir, 'ng.raw'), 'latin1'))).toBe(0);
  }, 60_000);
});
