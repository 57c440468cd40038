import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { sleep } from './helpers.js';
import { chatWorkspace, serverChatEnv, startChat, useTmux } from './tmux.js';

// Issue 15: editing keys people use every day: word motion (Alt-B/F, Ctrl-/Alt-arrows), Alt-D,
// Alt-Backspace, Ctrl-W, Home/End.
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';

describe('editing keys (tmux)', () => {
  it('move and delete by words, jump to the start and the end', async () => {
    server().onRequest((req) => ({ content: `got: ${req.body.messages.at(-1).content}` }));
    const { dir, work } = chatWorkspace('adk-keys-');
    startChat(tmux, 'keys', { dir, cwd: work, env: serverChatEnv(dir, server().url) });
    await tmux.waitForScreen('keys', (s) => s.includes(PROMPT), 'the prompt');
    const step = async (...keys: string[]) => {
      tmux.keys('keys', ...keys);
      await sleep(80);
    };
    tmux.type('keys', 'alpha beta gamma delta');
    await tmux.waitForScreen('keys', (s) => s.includes('› alpha beta gamma delta'), 'the text');
    await step('M-b'); // before "delta"
    await step('C-Left'); // before "gamma"
    await step('M-d'); // deletes "gamma"
    tmux.type('keys', 'GAMMA');
    await sleep(80);
    await step('Home');
    tmux.type('keys', '[');
    await sleep(80);
    await step('End');
    tmux.type('keys', ' epsilon');
    await sleep(80);
    await step('M-BSpace'); // deletes "epsilon"
    await step('C-Right'); // already at the end: stays
    tmux.type('keys', ']');
    await tmux.waitForScreen('keys', (s) => s.includes('› [alpha beta GAMMA delta ]'), 'the edited line');
    tmux.keys('keys', 'Enter');
    await tmux.waitForScreen('keys', (s) => s.includes('got: [alpha beta GAMMA delta ]'), 'the message sent');
    expect(server().chatRequests[0]!.body.messages.at(-1).content).toBe('[alpha beta GAMMA delta ]');
  }, 60_000);

  it('Delete removes the character after the cursor; Backspace the one before', async () => {
    server().onRequest((req) => ({ content: `got: ${req.body.messages.at(-1).content}` }));
    const { dir, work } = chatWorkspace('adk-del-');
    startChat(tmux, 'del', { dir, cwd: work, env: serverChatEnv(dir, server().url) });
    await tmux.waitForScreen('del', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('del', 'abcdef');
    await tmux.waitForScreen('del', (s) => s.includes('› abcdef'), 'the text');
    for (const k of ['Left', 'Left', 'Left', 'DC', 'BSpace']) {
      tmux.keys('del', k);
      await sleep(80);
    }
    await tmux.waitForScreen('del', (s) => s.includes('› abef'), 'd deleted forward, c backward');
    tmux.keys('del', 'Enter');
    await tmux.waitForScreen('del', (s) => s.includes('got: abef'), 'the message sent');
  }, 60_000);
});
