import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { ADK_BIN } from '../support/cli.js';
import { chatWorkspace, clearsIn, quitChat, serverChatEnv, startChat, useTmux } from './tmux.js';

// Issue 32, item 7: a resumed transcript equals the live one. An approval edited from 9090 to 7070
// replays with 7070, a rejected call replays as ⊘ (not ✗), an `@file` message replays as typed.
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';
const PANE = 'fidelity';

describe('a resumed transcript equals the live one (tmux)', () => {
  it('edited arguments, a rejected call and an @file message replay as they were shown live; no clear', async () => {
    server().onRequest((req) => {
      const last = req.body.messages.at(-1);
      if (last.role === 'tool') return { content: `noted: ${/port-\d+|rejected/.exec(String(last.content))?.[0] ?? 'other'}` };
      const text = String(last.content);
      if (text.startsWith('serve')) return { toolCalls: [{ name: 'shell', arguments: { command: 'echo port-9090' } }] };
      if (text.startsWith('wipe')) return { toolCalls: [{ name: 'shell', arguments: { command: 'echo wipe-all' } }] };
      return { content: 'Read the notes.' };
    });
    const { dir, work } = chatWorkspace('adk-fidelity-');
    writeFileSync(join(work, 'notes.txt'), 'NOTE-BODY-SECRET-LINE\n');
    const raw = join(dir, 'raw.out');
    startChat(tmux, PANE, { dir, cwd: work, raw, env: serverChatEnv(dir, server().url, { ADK_SHELL_SANDBOX: 'off', ADK_PROMPT_ARM_MS: '0' }) });
    await tmux.waitForScreen(PANE, (s) => s.includes(PROMPT), 'the prompt');

    // 1. An approval edited from 9090 to 7070.
    tmux.type(PANE, 'serve it');
    tmux.keys(PANE, 'Enter');
    await tmux.waitForScreen(PANE, (s) => s.includes('approve once') && s.includes('port-9090'), 'the approval');
    tmux.type(PANE, 'e');
    await tmux.waitForScreen(PANE, (s) => s.includes('Edit the arguments'), 'the argument editor');
    for (let i = 0; i < 60; i++) tmux.keys(PANE, 'BSpace');
    tmux.type(PANE, '{"command": "echo port-7070"}');
    tmux.keys(PANE, 'Enter');
    await tmux.waitForScreen(PANE, (s) => s.includes('noted: port-7070') && s.includes(PROMPT), 'the first answer');

    // 2. A rejected call.
    tmux.type(PANE, 'wipe it');
    tmux.keys(PANE, 'Enter');
    await tmux.waitForScreen(PANE, (s) => s.includes('approve once') && s.includes('wipe-all'), 'the second approval');
    tmux.keys(PANE, 'Escape');
    await tmux.waitForScreen(PANE, (s) => s.includes('noted: rejected') && s.includes('⊘ rejected shell') && s.includes(PROMPT), 'the rejection');

    // 3. An @file message.
    tmux.type(PANE, 'look at @notes.txt please');
    tmux.keys(PANE, 'Enter');
    const live = await tmux.waitForScreen(PANE, (s) => s.includes('Read the notes.') && s.includes(PROMPT), 'the third answer');
    expect(live).toContain('› look at @notes.txt please');
    expect(live).not.toContain('NOTE-BODY-SECRET-LINE');

    await quitChat(tmux, PANE);
    const exit = await tmux.waitForScreen(PANE, (s) => /Continue it with: adk resume (\S+)/.test(s), 'the saved-session line');
    const id = /Continue it with: adk resume (\S+)/.exec(exit)![1];
    // Typed only once the shell asks: keys typed while adk hands the terminal back can be discarded.
    await tmux.waitForScreen(PANE, (s) => /Continue it with[^\n]*\n+[#$]\s*$/.test(s.trimEnd() + ' '), 'the shell prompt');
    tmux.type(PANE, `node '${ADK_BIN}' resume ${id}`);
    tmux.keys(PANE, 'Enter');
    const all = await tmux.waitForScreen(PANE, (s) => s.includes(`Resumed session ${id}`) && s.lastIndexOf('Read the notes.') > s.indexOf(`Resumed session ${id}`) && s.includes(PROMPT), 'the resumed transcript', 30_000, true);
    const replay = all.slice(all.indexOf(`Resumed session ${id}`));
    // The edited call replays with what ran.
    expect(replay).toMatch(/shell \(edited\) command: "echo port-7070"/);
    expect(replay).not.toContain('port-9090');
    // The rejected call replays as ⊘, as live.
    expect(replay).toMatch(/⊘ shell[^\n]*wipe-all/);
    expect(replay).not.toMatch(/✗ shell[^\n]*wipe-all/);
    // The @file message as typed, without the file's text.
    expect(replay).toContain('› look at @notes.txt please');
    expect(replay).not.toContain('NOTE-BODY-SECRET-LINE');
    expect(clearsIn(readFileSync(raw, 'latin1'))).toBe(0);
  }, 60_000);
});
