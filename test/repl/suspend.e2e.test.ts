import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { ADK_BIN } from '../support/cli.js';
import { sleep } from './helpers.js';
import { chatWorkspace, clearsIn, serverChatEnv, useTmux } from './tmux.js';
import { readFileSync } from 'node:fs';

// Issue 15: Ctrl-Z suspends adk chat to the shell (job control) and `fg` brings the REPL back.
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';

describe('Ctrl-Z and fg (tmux, an interactive bash)', () => {
  it('stops the REPL as a job; fg continues it, keys work again, nothing is cleared', async () => {
    server().onRequest((req) => ({ content: `got: ${req.body.messages.at(-1).content}` }));
    const { dir, work } = chatWorkspace('adk-suspend-');
    const env = serverChatEnv(dir, server().url);
    const rc = join(dir, 'rc.sh');
    writeFileSync(rc, `PS1='$ '\nunset ADK_STORE\n${Object.entries(env).map(([k, v]) => `export ${k}='${v}'`).join('\n')}\ncd '${work}'\n`);
    const raw = join(dir, 'raw.out');
    tmux.start('susp', `bash --rcfile '${rc}' -i`, 100, 30, { TERM: 'xterm-256color' });
    tmux.pipe('susp', raw);
    await tmux.waitForScreen('susp', (s) => /^\$\s*$/m.test(s), 'the shell');
    tmux.type('susp', `node '${ADK_BIN}' chat`);
    tmux.keys('susp', 'Enter');
    await tmux.waitForScreen('susp', (s) => s.includes(PROMPT), 'the REPL');
    tmux.type('susp', 'half typed');
    await tmux.waitForScreen('susp', (s) => s.includes('› half typed'), 'text in the box');
    tmux.keys('susp', 'C-z');
    await tmux.waitForScreen('susp', (s) => /Stopped/.test(s), 'the job stopped');
    tmux.type('susp', 'echo shell-works');
    tmux.keys('susp', 'Enter');
    await tmux.waitForScreen('susp', (s) => s.includes('shell-works\n'), 'the shell taking commands');
    tmux.type('susp', 'fg');
    tmux.keys('susp', 'Enter');
    await tmux.waitForScreen('susp', (s) => s.includes('› half typed'), 'the REPL back with its text');
    await sleep(200);
    tmux.type('susp', ' and sent');
    tmux.keys('susp', 'Enter');
    await tmux.waitForScreen('susp', (s) => s.includes('got: half typed and sent') && s.includes(PROMPT), 'the message sent after fg');
    // Issue 32, item 8: the frame is taken off the screen before the shell gets it, so no ghost copy
    // of the input box or the status line stays in the scrollback.
    const history = tmux.capture('susp', true);
    expect(history.split('gpt-test · session').length - 1, history).toBe(1);
    expect(history.match(/^› half typed\s*$/gm) ?? [], history).toEqual([]);
    expect(clearsIn(readFileSync(raw, 'latin1'))).toBe(0);
  }, 60_000);
});
