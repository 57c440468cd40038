import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { ADK_BIN } from '../support/cli.js';
import { chatWorkspace, serverChatEnv } from './tmux.js';

// Issue 15: Shift-Enter where the terminal reports it. Terminals with the kitty keyboard protocol
// (kitty, WezTerm, ghostty) report it only once asked to; adk asks after confirming support, reads
// the keys that terminal then sends (Shift-Enter CSI 13;2u, Ctrl-C CSI 99;5u), and hands the
// terminal back as it was on exit.
const server = useServer();
const PLAYER = fileURLToPath(new URL('../support/kitty-pty.py', import.meta.url));

describe('the kitty keyboard protocol (pty)', () => {
  it('is switched on in a kitty terminal: Shift-Enter adds a line, Ctrl-C twice exits, the protocol is popped', async () => {
    server().onRequest(() => ({ content: 'got it' }));
    const { dir, work } = chatWorkspace('adk-kitty-');
    const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: dir, TERM: 'xterm-kitty', KITTY_WINDOW_ID: '1', ...serverChatEnv(dir, server().url) };
    const { stdout } = await promisify(execFile)('python3', [PLAYER, work, process.execPath, ADK_BIN], { env, encoding: 'utf8', timeout: 60_000 });
    const report = JSON.parse(stdout.trim().split('\n').at(-1)!);
    expect(report).toMatchObject({ queried: true, enabled: true, prompt: true, answered: true, exit: 0, popped: true, clears: 0, leaked: false });
    expect(server().chatRequests[0]!.body.messages.at(-1).content).toBe('hello\nworld');
  }, 90_000);
});
