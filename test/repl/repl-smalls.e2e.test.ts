import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { sleep } from './helpers.js';
import { chatWorkspace, clearsIn, serverChatEnv, startChat, useTmux } from './tmux.js';

// Issue 32, item 9 (the smaller parts): a big paste's label and how it is shown once sent, thinking
// collapsed to one line, and `/clear` clearing the screen while the scrollback keeps everything.
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';

function chat(name: string, size: [number, number] = [100, 30]) {
  const { dir, work } = chatWorkspace(`adk-smalls-${name}-`);
  const raw = join(dir, 'raw.out');
  startChat(tmux, name, { dir, cwd: work, raw, size, env: serverChatEnv(dir, server().url) });
  return { raw: () => readFileSync(raw, 'latin1') };
}

describe('REPL details (tmux)', () => {
  it('a 300-line paste is labelled [Pasted text #1 +300 lines], sent whole, and shown as its label; no clear', async () => {
    server().onRequest(() => ({ content: 'Got the paste.' }));
    const pane = chat('paste');
    await tmux.waitForScreen('paste', (s) => s.includes(PROMPT), 'the prompt');
    const text = Array.from({ length: 300 }, (_, i) => `pasted-row-${i + 1}`).join('\n') + '\n';
    tmux.run('set-buffer', '-b', 'big', text);
    tmux.run('paste-buffer', '-p', '-b', 'big', '-t', 'paste');
    await tmux.waitForScreen('paste', (s) => s.includes('[Pasted text #1 +300 lines]'), 'the paste label');
    tmux.keys('paste', 'Enter');
    const all = await tmux.waitForScreen('paste', (s) => s.includes('Got the paste.'), 'the answer', 30_000, true);
    expect(all).toContain('› [Pasted text #1 +300 lines]');
    expect(all).not.toContain('pasted-row-150');
    const sent = String(server().chatRequests.at(-1)!.body.messages.at(-1).content);
    expect(sent).toContain('pasted-row-1\n');
    expect(sent).toContain('pasted-row-300');
    expect(clearsIn(pane.raw())).toBe(0);
  }, 30_000);

  it('thinking is collapsed to one line "✻ Thought for N s" once the answer comes; no clear', async () => {
    server().onRequest(() => ({ reasoning: Array.from({ length: 12 }, (_, i) => `reasoning-line-${i + 1}\n`).join(''), content: 'The answer.', chunkSize: 20, chunkDelayMs: 90 }));
    const pane = chat('thinking');
    await tmux.waitForScreen('thinking', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('thinking', 'think hard');
    tmux.keys('thinking', 'Enter');
    const all = await tmux.waitForScreen('thinking', (s) => s.includes('The answer.') && s.includes(PROMPT) && !s.includes('esc to cancel'), 'the answer', 30_000, true);
    expect(all).toMatch(/✻ Thought for \d+ s/);
    const after = all.slice(all.lastIndexOf('› think hard'));
    expect(after).not.toContain('reasoning-line-1\n');
    expect(after).not.toContain('reasoning-line-12');
    expect(clearsIn(pane.raw())).toBe(0);
  }, 30_000);

  it('/clear empties the screen but the scrollback keeps what came before; no ESC[2J or ESC[3J', async () => {
    server().onRequest((req) => ({ content: `answer to ${req.body.messages.at(-1).content}` }));
    const pane = chat('clear', [100, 20]);
    await tmux.waitForScreen('clear', (s) => s.includes(PROMPT), 'the prompt');
    for (const m of ['first-message', 'second-message']) {
      tmux.type('clear', m);
      tmux.keys('clear', 'Enter');
      await tmux.waitForScreen('clear', (s) => s.includes(`answer to ${m}`) && s.includes(PROMPT), `the answer to ${m}`);
    }
    tmux.type('clear', '/clear');
    await sleep(200);
    tmux.keys('clear', 'Enter');
    const screen = await tmux.waitForScreen('clear', (s) => s.includes('Cleared') && !s.includes('first-message') && !s.includes('second-message'), 'a screen without the earlier messages');
    expect(screen.split('\n').findIndex((l) => l.includes('Cleared'))).toBeLessThan(6);
    const history = tmux.capture('clear', true);
    for (const t of ['› first-message', 'answer to first-message', '› second-message', 'answer to second-message']) expect(history).toContain(t);
    expect(clearsIn(pane.raw())).toBe(0);
  }, 30_000);
});
