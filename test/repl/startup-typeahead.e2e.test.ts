import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { sleep } from './helpers.js';
import { chatWorkspace, serverChatEnv, startChat, useTmux } from './tmux.js';

// Issue 15, defect 2: text typed while adk chat starts is not echoed above the banner by the
// terminal, and its Enter sends it once the REPL is up.
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';

describe('typing while adk chat starts (tmux)', () => {
  it('is neither echoed above the banner nor left unsent', async () => {
    server().onRequest((req) => ({ content: `got: ${req.body.messages.at(-1).content}` }));
    const { dir, work } = chatWorkspace('adk-early-');
    startChat(tmux, 'early', { dir, cwd: work, env: serverChatEnv(dir, server().url) });
    // Before the first frame: node runs (the terminal is ours from then on) but is still loading adk.
    for (let i = 0; i < 200 && tmux.display('early', '#{pane_current_command}') !== 'node'; i++) await sleep(10);
    tmux.type('early', 'typed early');
    tmux.keys('early', 'Enter');
    const screen = await tmux.waitForScreen('early', (s) => s.includes('got: typed early') && s.includes(PROMPT), 'the early message sent', 30_000, true);
    const before = screen.slice(0, screen.indexOf('adk ·'));
    expect(before).not.toContain('typed early');
    expect(server().chatRequests).toHaveLength(1);
  }, 60_000);
});
