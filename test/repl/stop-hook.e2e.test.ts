import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { sleep } from './helpers.js';
import { chatWorkspace, clearsIn, serverChatEnv, startChat, useTmux } from './tmux.js';

// Issue 32: a Stop hook that blocks (Claude Code's `decision: "block"`) makes the agent go on in
// the REPL: its reason reaches the model, the second answer is shown, and the hook lets it stop.
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';

describe('Stop hook (tmux)', () => {
  it('a blocking Stop hook sends the agent on once; both answers are shown; 0 full clears', async () => {
    const ws = chatWorkspace('adk-stop-hook-');
    mkdirSync(join(ws.work, '.adk'), { recursive: true });
    const hook = `input=$(cat); case "$input" in *'"stop_hook_active":false'*) echo '{"decision":"block","reason":"run the tests first (hook 31)"}';; esac`;
    writeFileSync(join(ws.work, '.adk', 'settings.json'), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: hook }] }] } }, null, 2));
    server().onRequest((req) => {
      const last = req.body.messages.at(-1);
      return { content: String(last.content).includes('run the tests first (hook 31)') ? 'Ran the tests: all green.' : 'First answer: done.' };
    });
    const raw = join(ws.dir, 'stop.raw');
    startChat(tmux, 'stop', { dir: ws.dir, cwd: ws.work, raw, env: serverChatEnv(ws.dir, server().url) });
    await tmux.waitForScreen('stop', (s) => s.includes("Do you trust this folder's hooks?"), 'the trust prompt');
    await sleep(700); // the prompt ignores keys until it is armed
    tmux.type('stop', 'y');
    await tmux.waitForScreen('stop', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('stop', 'fix the bug');
    tmux.keys('stop', 'Enter');
    const screen = await tmux.waitForScreen('stop', (s) => s.includes('Ran the tests: all green.'), 'the second answer');
    expect(screen).toContain('First answer: done.');
    expect(server().chatRequests).toHaveLength(2);
    expect(clearsIn(readFileSync(raw, 'latin1'))).toBe(0);
  }, 60_000);
});
