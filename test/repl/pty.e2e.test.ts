import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openAdkStores } from '../../src/core/store/index.js';
import { ADK_BIN } from '../support/cli.js';
import { PROMPT_ARM_MS } from '../../src/ui/hooks/use-armed.js';
import { removeTempDirs, sleep, tempDir, waitFor } from './helpers.js';
import { Tmux } from './tmux.js';

const tmux = new Tmux();
afterAll(() => {
  tmux.kill();
  removeTempDirs();
});

const DIST_MAIN = new URL('../../dist/cli/main.js', import.meta.url);
const PANE = 'chat';
const PROMPT = '› Message, or / for commands';

/** `adk chat` in a real pseudo-terminal (tmux), offline on the demo team, then the shell it returns to. */
function startChat(dir: string): { home: string; work: string } {
  const home = join(dir, 'home');
  const work = join(dir, 'work');
  mkdirSync(work, { recursive: true });
  writeFileSync(join(work, 'notes.txt'), 'hello\n');
  // After adk exits, a plain sh (no line editor of its own) is left in the pane: it only reads
  // lines if the terminal is back in cooked mode with echo.
  const script = join(dir, 'run.sh');
  writeFileSync(
    script,
    [
      'unset OPENAI_API_KEY OPENAI_BASE_URL ADK_MODEL ADK_STORE',
      `export ADK_HOME='${home}' PS1='$ '`,
      `cd '${work}'`,
      `node '${ADK_BIN}' chat`,
      `echo $? > '${join(dir, 'code')}'`,
      'exec sh -i',
      '',
    ].join('\n'),
  );
  tmux.start(PANE, `sh '${script}'`, 100, 30, { TERM: 'xterm-256color' });
  return { home, work };
}

describe('adk chat in a real terminal (tmux)', () => {
  it('streams, asks for approval, exits cleanly and restores the terminal; adk resume shows it again', async () => {
    expect(existsSync(DIST_MAIN), 'the CLI is not built: run `npm run build` first').toBe(true);
    const dir = tempDir('adk-pty-');
    const { home } = startChat(dir);

    await tmux.waitForScreen(PANE, (s) => s.includes(PROMPT) && s.includes('demo · session'), 'the chat prompt');
    // The app draws its own cursor and hides the terminal's; it must come back on exit.
    expect(tmux.display(PANE, '#{cursor_flag}')).toBe('0');

    // Streaming: part of the reply is on screen while the run is still going.
    tmux.type(PANE, 'hello there');
    await tmux.waitForScreen(PANE, (s) => s.includes('› hello there'), 'the typed text');
    tmux.keys(PANE, 'Enter');
    await tmux.waitForScreen(PANE, (s) => s.includes('Offline demo') && s.includes('esc to cancel'), 'the reply streaming in');
    await tmux.waitForScreen(PANE, (s) => s.includes('adk chat --model gpt-4o-mini') && s.includes(PROMPT), 'the whole reply');

    // An approval, answered with `y`: the command runs and its output is shown.
    tmux.type(PANE, 'run `echo pty-$((6*7))`');
    await tmux.waitForScreen(PANE, (s) => s.includes('run `echo pty-$((6*7))`'), 'the typed command');
    tmux.keys(PANE, 'Enter');
    await tmux.waitForScreen(PANE, (s) => s.includes('demo wants to run shell') && s.includes('[y] approve once'), 'the approval prompt');
    await sleep(PROMPT_ARM_MS + 100); // a key is an answer only once the prompt could have been read
    tmux.keys(PANE, 'y');
    await tmux.waitForScreen(PANE, (s) => s.includes('✓ approved shell') && s.includes('⎿ pty-42') && s.includes('Here is what shell returned') && s.includes(PROMPT), 'the command output');

    // Exit with Ctrl-C twice: exit code 0, the session id printed, the shell usable again.
    tmux.keys(PANE, 'C-c');
    await tmux.waitForScreen(PANE, (s) => s.includes('Press Ctrl-C again to exit'), 'the exit hint');
    tmux.keys(PANE, 'C-c');
    const code = await waitFor(() => existsSync(join(dir, 'code')) && readFileSync(join(dir, 'code'), 'utf8').trim(), 'adk to exit', () => tmux.capture(PANE), 20_000);
    expect(code).toBe('0');
    const exitScreen = await tmux.waitForScreen(PANE, (s) => /Continue it with: adk resume (\S+)/.test(s), 'the saved-session line');
    const id = /Continue it with: adk resume (\S+)/.exec(exitScreen)![1];
    expect(tmux.display(PANE, '#{cursor_flag}')).toBe('1');

    const stty = join(dir, 'stty.txt');
    tmux.type(PANE, `stty -a > '${stty}'; echo shell-ok-$((1+1))`);
    tmux.keys(PANE, 'Enter');
    await tmux.waitForScreen(PANE, (s) => s.includes('shell-ok-2'), 'the shell to run a command');
    const modes = readFileSync(stty, 'utf8').split(/\s+/);
    expect(modes).toContain('icanon');
    expect(modes).toContain('echo');
    expect(modes).not.toContain('-icanon');
    expect(modes).not.toContain('-echo');

    // The scrollback keeps the whole conversation, once, in order (the screen was never cleared).
    const scrollback = tmux.capture(PANE, true);
    const order = ['No model configured', '› hello there', 'Offline demo', '› run `echo pty-$((6*7))`', '✓ approved shell', '⎿ pty-42', `adk resume ${id}`, 'shell-ok-2'];
    const at = order.map((t) => scrollback.indexOf(t));
    expect(at.every((i) => i >= 0), `missing from the scrollback:\n${scrollback}`).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(scrollback.split('› hello there').length - 1).toBe(1);
    expect(scrollback.split('✓ approved shell').length - 1).toBe(1);

    // `adk resume <id>` in the same terminal shows the earlier transcript; Ctrl-C Ctrl-C pressed
    // together (one chunk of input) in the middle of a reply cancels it and stays (issue 32: a
    // second Ctrl-C while cancelling never quits); Ctrl-C twice at the idle prompt exits, the cancelled turn saved.
    const resume = `node '${ADK_BIN}' resume ${id}; echo resume-exit-$?`;
    tmux.type(PANE, resume);
    tmux.keys(PANE, 'Enter');
    const sinceResume = (s: string) => s.slice(s.lastIndexOf(resume));
    const resumed = await tmux.waitForScreen(PANE, (s) => /Resumed session \S+[\s\S]*› hello there[\s\S]*⎿ pty-42/.test(sinceResume(s)), 'the resumed transcript', 30_000, true);
    expect(sinceResume(resumed)).toContain(`Resumed session ${id}`);
    tmux.type(PANE, 'tell me more');
    await tmux.waitForScreen(PANE, (s) => s.includes('› tell me more'), 'the typed text');
    tmux.keys(PANE, 'Enter');
    await tmux.waitForScreen(PANE, (s) => s.includes('You said: “tell me more”') && s.includes('esc to cancel'), 'the second reply streaming in');
    tmux.keys(PANE, 'C-c', 'C-c');
    await tmux.waitForScreen(PANE, (s) => s.includes('Cancelled.') && !s.includes('esc to cancel') && s.includes(PROMPT), 'the cancelled turn, adk still running');
    await sleep(500);
    expect(tmux.capture(PANE)).not.toContain('resume-exit-');
    expect(tmux.capture(PANE)).not.toContain('Press Ctrl-C again to exit');
    tmux.keys(PANE, 'C-c');
    await tmux.waitForScreen(PANE, (s) => s.includes('Press Ctrl-C again to exit'), 'the exit hint at the idle prompt');
    tmux.keys(PANE, 'C-c');
    await tmux.waitForScreen(PANE, (s) => s.includes('resume-exit-0'), 'adk resume to exit with 0');
    expect(tmux.display(PANE, '#{cursor_flag}')).toBe('1');
    const stores = await openAdkStores(`sqlite://${join(home, 'adk.sqlite')}`);
    try {
      const saved = (await stores.sessions.get(id))!;
      expect(saved.status).toBe('cancelled');
      expect(saved.messages.map((m) => m.content)).toContain('tell me more');
    } finally {
      await stores.close();
    }
  }, 60_000);
});
