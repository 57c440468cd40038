import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { ADK_BIN } from '../support/cli.js';
import { sleep } from './helpers.js';
import { chatWorkspace, clearsIn, serverChatEnv, startChat, useTmux } from './tmux.js';

// Issue 32, items 2 and 8: handing the terminal to $EDITOR (Ctrl-G) erased the end of the answer
// above the input box, on screen and in the scrollback; Ctrl-Z then `fg` left a copy of the input box
// and the status line in the scrollback.
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';
const count = (text: string, part: string) => text.split(part).length - 1;

describe('Ctrl-G keeps the answers above the box (tmux)', () => {
  it('two answers, then Ctrl-G with a scripted editor: both answers whole, on screen and in the scrollback; no clear', async () => {
    server().onRequest((req, i) => ({ content: i === 0 ? 'first answer line one\n\nfirst answer last line' : `second answer\n\n${Array.from({ length: 30 }, (_, n) => `row ${n + 1} of the second answer`).join('\n\n')}\n\nsecond answer very last line` }));
    const { dir, work } = chatWorkspace('adk-handover-editor-');
    const editor = join(dir, 'fake-editor.sh');
    writeFileSync(editor, `#!/bin/sh\nprintf 'edited draft' > "$1"\n`);
    chmodSync(editor, 0o755);
    const raw = join(dir, 'raw.out');
    startChat(tmux, 'edit', { dir, cwd: work, raw, size: [100, 30], env: serverChatEnv(dir, server().url, { EDITOR: editor }) });
    await tmux.waitForScreen('edit', (s) => s.includes(PROMPT), 'the prompt');
    for (const text of ['one', 'two']) {
      tmux.type('edit', text);
      tmux.keys('edit', 'Enter');
      await tmux.waitForScreen('edit', (s) => s.includes(text === 'one' ? 'first answer last line' : 'second answer very last line') && s.includes(PROMPT), `the answer to ${text}`);
    }
    await sleep(300);
    tmux.keys('edit', 'C-g');
    const screen = await tmux.waitForScreen('edit', (s) => s.includes('› edited draft'), 'the edited text in the box');
    await sleep(300);
    const after = tmux.capture('edit');
    expect(screen).toContain('second answer very last line');
    expect(after).toContain('second answer very last line');
    expect(after).toContain('row 30 of the second answer');
    const scrollback = tmux.capture('edit', true);
    for (const line of ['first answer line one', 'first answer last line', 'second answer', 'row 29 of the second answer', 'row 30 of the second answer', 'second answer very last line']) {
      expect(scrollback).toContain(line);
    }
    // One input box and one status line: no copy of them left behind.
    expect(count(scrollback, 'gpt-test · session')).toBe(1);
    expect(clearsIn(readFileSync(raw, 'latin1'))).toBe(0);
  }, 60_000);
});

describe('Ctrl-Z and fg leave no copy of the input box (tmux, an interactive bash)', () => {
  it('after fg the scrollback holds one input box and one status line; the answer stays whole; no clear', async () => {
    // A screenful of answer: the box sits at the bottom, and the shell's lines scroll it up.
    server().onRequest(() => ({ content: `the answer\n\n${Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n\n')}\n\nits last line` }));
    const { dir, work } = chatWorkspace('adk-handover-suspend-');
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
    tmux.type('susp', 'question');
    tmux.keys('susp', 'Enter');
    await tmux.waitForScreen('susp', (s) => s.includes('its last line') && s.includes(PROMPT), 'the answer');
    tmux.type('susp', 'half typed');
    await tmux.waitForScreen('susp', (s) => s.includes('› half typed'), 'text in the box');
    tmux.keys('susp', 'C-z');
    await tmux.waitForScreen('susp', (s) => /Stopped/.test(s), 'the job stopped');
    tmux.type('susp', 'echo shell-works; echo and-more');
    tmux.keys('susp', 'Enter');
    await tmux.waitForScreen('susp', (s) => s.includes('and-more\n'), 'the shell taking commands');
    tmux.type('susp', 'fg');
    tmux.keys('susp', 'Enter');
    await tmux.waitForScreen('susp', (s) => s.includes('› half typed') && s.includes('gpt-test · session'), 'the REPL back with its text');
    await sleep(500);
    const scrollback = tmux.capture('susp', true);
    expect(scrollback).toContain('its last line');
    expect(scrollback).toContain('line 20');
    expect(count(scrollback, '› half typed')).toBe(1);
    expect(count(scrollback, 'gpt-test · session')).toBe(1);
    // What was done in the shell stays too.
    expect(scrollback).toContain('Stopped');
    expect(scrollback).toContain('shell-works\nand-more');
    expect(clearsIn(readFileSync(raw, 'latin1'))).toBe(0);
  }, 60_000);
});
