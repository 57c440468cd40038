import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { sleep } from './helpers.js';
import { chatWorkspace, clearsIn, serverChatEnv, startChat, useTmux } from './tmux.js';

// Issue 32: Ctrl-O opens the transcript view in place of the input area: thinking collapsed until
// expanded, `/` searches, Esc goes back; the terminal is never cleared and the scrollback stays.
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';
const PANE = 'view';

describe('the transcript view (tmux)', () => {
  it('Ctrl-O shows the session, / finds a line inside a collapsed thought and expands it, Esc returns; no clear', async () => {
    server().onRequest(() => ({ reasoning: Array.from({ length: 8 }, (_, i) => `reasoning-line-${i + 1}\n`).join(''), content: 'The visible answer.' }));
    const { dir, work } = chatWorkspace('adk-view-');
    const raw = join(dir, 'raw.out');
    startChat(tmux, PANE, { dir, cwd: work, raw, size: [100, 24], env: serverChatEnv(dir, server().url) });
    await tmux.waitForScreen(PANE, (s) => s.includes(PROMPT), 'the prompt');
    tmux.type(PANE, 'first question');
    tmux.keys(PANE, 'Enter');
    await tmux.waitForScreen(PANE, (s) => s.includes('The visible answer.') && s.includes(PROMPT) && /✻ Thought/.test(s), 'the answer');
    expect(tmux.capture(PANE)).not.toContain('reasoning-line-5');

    tmux.keys(PANE, 'C-o');
    let screen = await tmux.waitForScreen(PANE, (s) => s.includes('Transcript (') && s.includes('Esc back'), 'the transcript view');
    expect(screen).toContain('› first question');
    expect(screen).not.toContain('reasoning-line-5');
    tmux.type(PANE, '/');
    await sleep(100);
    tmux.type(PANE, 'line-5');
    tmux.keys(PANE, 'Enter');
    screen = await tmux.waitForScreen(PANE, (s) => s.includes('reasoning-line-5'), 'the thought expanded by the search');
    expect(screen).toContain('reasoning-line-1');

    tmux.keys(PANE, 'Escape');
    screen = await tmux.waitForScreen(PANE, (s) => s.includes(PROMPT) && !s.includes('Transcript ('), 'the prompt again');
    expect(screen).not.toContain('reasoning-line-5');
    const history = tmux.capture(PANE, true);
    expect(history).toContain('› first question');
    expect(history.split('The visible answer.').length - 1).toBe(1);
    expect(clearsIn(readFileSync(raw, 'latin1'))).toBe(0);
  }, 40_000);
});
