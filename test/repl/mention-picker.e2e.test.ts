import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { sleep } from './helpers.js';
import { chatWorkspace, clearsIn, quitChat, serverChatEnv, startChat, useTmux } from './tmux.js';

// Issue 32, item 5: the `@` picker appears as you type (no Tab), follows every key, is never stale
// (after clearing and typing `@qqq` the old list is gone), and ranks fuzzily like fzf
// (`@hel` finds `src/hello.ts`), with git-ignored files last.
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';
const PANE = 'picker';

/** The picker's rows: the `@…` lines under the input line. */
function pickerRows(screen: string): string[] {
  const lines = screen.split('\n');
  const at = lines.findIndex((l) => l.startsWith('› '));
  return lines.slice(at + 1).map((l) => l.trim()).filter((l) => l.startsWith('@'));
}

describe('the live @ picker (tmux)', () => {
  it('updates on every key without Tab, never shows a stale list, ranks fuzzily with ignored files last; Tab takes the highlighted row', async () => {
    server().onRequest(() => ({ content: 'Seen.' }));
    const { dir, work } = chatWorkspace('adk-picker-');
    mkdirSync(join(work, 'src'), { recursive: true });
    mkdirSync(join(work, 'docs'), { recursive: true });
    writeFileSync(join(work, 'src', 'hello.ts'), 'export const hello = 1;\n');
    writeFileSync(join(work, 'docs', 'guide.md'), '# guide\n');
    writeFileSync(join(work, 'zebra.txt'), 'z\n');
    writeFileSync(join(work, '.gitignore'), '*.log\n');
    writeFileSync(join(work, 'hello.log'), 'ignored\n');
    execFileSync('git', ['init', '-q'], { cwd: work });
    const raw = join(dir, 'raw.out');
    startChat(tmux, PANE, { dir, cwd: work, raw, env: serverChatEnv(dir, server().url) });
    await tmux.waitForScreen(PANE, (s) => s.includes(PROMPT), 'the prompt');

    tmux.type(PANE, 'see @');
    let screen = await tmux.waitForScreen(PANE, (s) => pickerRows(s).length >= 3, 'the picker after @ (no Tab)');
    expect(pickerRows(screen)).toContain('@zebra.txt');
    tmux.type(PANE, 'h');
    screen = await tmux.waitForScreen(PANE, (s) => s.includes('› see @h') && !pickerRows(s).includes('@zebra.txt'), 'the list after @h');
    tmux.type(PANE, 'el');
    screen = await tmux.waitForScreen(PANE, (s) => s.includes('› see @hel') && pickerRows(s).includes('@src/hello.ts'), 'src/hello.ts for @hel');
    const rows = pickerRows(screen);
    expect(rows).not.toContain('@docs/guide.md');
    // The git-ignored file matches best by its name, yet comes last.
    expect(rows.at(-1)).toBe('@hello.log');

    // Clear the box, type @qqq: no row of the old list stays.
    tmux.keys(PANE, 'C-u');
    tmux.type(PANE, '@qqq');
    screen = await tmux.waitForScreen(PANE, (s) => s.includes('› @qqq'), 'the new query');
    await sleep(300);
    expect(pickerRows(tmux.capture(PANE))).toEqual([]);

    // Tab takes the highlighted row; ↓ moves the highlight.
    tmux.keys(PANE, 'C-u');
    tmux.type(PANE, 'read @srchel');
    await tmux.waitForScreen(PANE, (s) => pickerRows(s)[0] === '@src/hello.ts', 'src/hello.ts first for @srchel');
    tmux.keys(PANE, 'Tab');
    await tmux.waitForScreen(PANE, (s) => s.includes('› read @src/hello.ts'), 'the completed mention');
    tmux.keys(PANE, 'Enter');
    await tmux.waitForScreen(PANE, (s) => s.includes('Seen.'), 'the answer');
    expect(String(server().chatRequests.at(-1)!.body.messages.at(-1).content)).toContain('<file path="src/hello.ts">');
    expect(clearsIn(readFileSync(raw, 'latin1'))).toBe(0);
    // Leave before the temp folders go.
    await quitChat(tmux, PANE);
    await tmux.waitForScreen(PANE, (s) => s.includes('Continue it with'), 'adk to exit');
  }, 60_000);
});
