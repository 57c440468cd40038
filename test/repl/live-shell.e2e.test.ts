import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { sleep } from './helpers.js';
import { chatWorkspace, serverChatEnv, startChat, useTmux } from './tmux.js';

// Issue 15: live output from a running shell command: its last lines stream under the row.
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';

describe('live shell output (tmux)', () => {
  it('the last lines show under the running row, then the result replaces them', async () => {
    server().onRequest((req) => {
      const last = req.body.messages.at(-1);
      if (last.role === 'tool') return { content: 'Counted.' };
      return { toolCalls: [{ id: 'c_sh', name: 'shell', arguments: { command: 'for i in 1 2 3 4 5 6; do echo tick-$i; sleep 0.5; done' } }] };
    });
    const { dir, work } = chatWorkspace('adk-live-');
    startChat(tmux, 'live', { dir, cwd: work, env: serverChatEnv(dir, server().url, { ADK_SHELL_SANDBOX: 'off' }) });
    await tmux.waitForScreen('live', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('live', 'count');
    tmux.keys('live', 'Enter');
    await tmux.waitForScreen('live', (s) => s.includes('approve once'), 'the approval');
    await sleep(500);
    tmux.keys('live', 'y');
    const running = await tmux.waitForScreen('live', (s) => s.includes('tick-2') && !s.includes('exit code'), 'output while it runs', 10_000);
    expect(running).not.toContain('tick-6');
    expect(running).not.toContain('Counted.');
    await tmux.waitForScreen('live', (s) => s.includes('Counted.'), 'the answer', 20_000);
  }, 60_000);
});
