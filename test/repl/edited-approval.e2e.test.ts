import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { sleep } from './helpers.js';
import { chatWorkspace, serverChatEnv, startChat, useTmux } from './tmux.js';

// Issue 15, defect 3: arguments a person edits before approving are what the row shows and what the
// model's history says ran, next to the output they produced.
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';

describe('edited approval arguments (tmux)', () => {
  it('the row shows the edited command; the next request tells the model what ran', async () => {
    server().onRequest((req) => {
      const last = req.body.messages.at(-1);
      if (last.role === 'tool') return { content: 'Saw the output.' };
      return { toolCalls: [{ id: 'c_sh', name: 'shell', arguments: { command: 'echo original-command' } }] };
    });
    const { dir, work } = chatWorkspace('adk-edited-');
    startChat(tmux, 'edited', { dir, cwd: work, env: serverChatEnv(dir, server().url, { ADK_SHELL_SANDBOX: 'off' }) });
    await tmux.waitForScreen('edited', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('edited', 'say something');
    tmux.keys('edited', 'Enter');
    await tmux.waitForScreen('edited', (s) => s.includes('approve once') && s.includes('original-command'), 'the approval');
    await sleep(500);
    tmux.type('edited', 'e');
    await tmux.waitForScreen('edited', (s) => s.includes('Edit the arguments'), 'the argument editor');
    for (let i = 0; i < 60; i++) tmux.keys('edited', 'BSpace');
    tmux.type('edited', '{"command": "echo edited-command"}');
    tmux.keys('edited', 'Enter');
    const screen = await tmux.waitForScreen('edited', (s) => s.includes('Saw the output.'), 'the answer', 30_000, true);
    expect(screen).toMatch(/shell \(edited\) command: "echo edited-command"/);
    expect(screen).toMatch(/⎿ edited-command/);
    const tool = server().chatRequests.at(-1)!.body.messages.find((m: any) => m.role === 'tool');
    expect(tool.content).toMatch(/^\[The user edited this call before approving it; it ran with {"command":"echo edited-command"}\]\nedited-command\n/);
  }, 60_000);
});
