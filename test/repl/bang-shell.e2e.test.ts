import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { sleep } from './helpers.js';
import { chatWorkspace, serverChatEnv, startChat, useTmux } from './tmux.js';

// Issue 15: `!command` runs a shell command directly (the person typed it: no approval), shows its
// output, and adds it to the context; the model is not called for it.
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';

describe('!command (tmux)', () => {
  it('runs in the workspace without asking, shows the output, and the next turn sees it; no key reaches it', async () => {
    server().onRequest(() => ({ content: 'I see the listing.' }));
    const { dir, work } = chatWorkspace('adk-bang-');
    writeFileSync(join(work, 'notes-4711.txt'), 'x');
    startChat(tmux, 'bang', { dir, cwd: work, env: serverChatEnv(dir, server().url) });
    await tmux.waitForScreen('bang', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('bang', '!ls; echo "key=[$OPENAI_API_KEY]"');
    tmux.keys('bang', 'Enter');
    const screen = await tmux.waitForScreen('bang', (s) => s.includes('notes-4711.txt') && s.includes('key=[]') && s.includes(PROMPT), 'the command output');
    expect(screen).not.toMatch(/approve once/);
    expect(server().chatRequests).toHaveLength(0);
    tmux.type('bang', 'what did you see?');
    tmux.keys('bang', 'Enter');
    await tmux.waitForScreen('bang', (s) => s.includes('I see the listing.'), 'the answer');
    const users = server().chatRequests[0]!.body.messages.filter((m: any) => m.role === 'user').map((m: any) => String(m.content));
    expect(users.join('\n')).toMatch(/I ran this shell command myself \(exit code 0\):\n\$ ls; echo .*\nnotes-4711\.txt/);
    expect(users.at(-1)).toContain('what did you see?');
  }, 60_000);

  it('Esc stops a running !command: its row says it was stopped, not that it succeeded', async () => {
    const { dir, work } = chatWorkspace('adk-bang-stop-');
    startChat(tmux, 'stop', { dir, cwd: work, env: serverChatEnv(dir, server().url) });
    await tmux.waitForScreen('stop', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('stop', `!echo begun; sleep 307.${process.pid % 1000}`);
    tmux.keys('stop', 'Enter');
    await tmux.waitForScreen('stop', (s) => s.includes('esc to cancel'), 'the command running');
    await sleep(300);
    tmux.keys('stop', 'Escape');
    const screen = await tmux.waitForScreen('stop', (s) => s.includes(PROMPT) && !s.includes('esc to cancel'), 'the command stopped');
    expect(screen).toMatch(/✗ shell command: "echo begun; sleep 307\.\d+"/);
    expect(screen).toMatch(/stopped \(SIGKILL\)/);
    expect(screen).not.toMatch(/✓ shell command/);
  }, 60_000);
});
