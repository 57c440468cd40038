import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { sleep } from './helpers.js';
import { chatWorkspace, serverChatEnv, startChat, useTmux } from './tmux.js';

// Issue 15, defect 2: keys that arrive in one read (slow SSH, a busy machine) are each the key they are.
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';

describe('keys in one read (tmux send-keys -l writes them in one go)', () => {
  it('text, Backspace, text and Enter; Ctrl-U, text and Enter; text then Ctrl-D', async () => {
    server().onRequest((req) => ({ content: `got: ${req.body.messages.at(-1).content}` }));
    const { dir, work } = chatWorkspace('adk-oneread-');
    startChat(tmux, 'oneread', { dir, cwd: work, env: serverChatEnv(dir, server().url) });
    await tmux.waitForScreen('oneread', (s) => s.includes(PROMPT), 'the prompt');

    tmux.type('oneread', 'helo\u007flo world\r');
    await tmux.waitForScreen('oneread', (s) => s.includes('got: hello world') && s.includes(PROMPT), 'the first message sent');

    tmux.type('oneread', 'scratch this');
    await tmux.waitForScreen('oneread', (s) => s.includes('› scratch this'), 'text in the box');
    tmux.type('oneread', '\u0015hello there\r');
    await tmux.waitForScreen('oneread', (s) => s.includes('got: hello there') && s.includes(PROMPT), 'the second message sent');

    tmux.type('oneread', 'abc\u0004');
    await sleep(500);
    const screen = tmux.capture('oneread');
    expect(screen).toContain('› abc');
    expect(screen).not.toContain('adk-exit');
    expect(server().chatRequests.map((r) => r.body.messages.at(-1).content)).toEqual(['hello world', 'hello there']);
  }, 60_000);
});
