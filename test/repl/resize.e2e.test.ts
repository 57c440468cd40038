import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { sleep } from './helpers.js';
import { chatWorkspace, clearsIn, serverChatEnv, startChat, useTmux } from './tmux.js';

// Issue 32, item 1: shrinking the window while a long markdown answer streams made Ink clear the
// terminal (ESC[2J ESC[3J), re-print the whole transcript and lose a heading of the answer.
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';

const PARTS = 24;
const ANSWER = Array.from(
  { length: PARTS },
  (_, i) => `## Part ${String(i + 1).padStart(2, '0')}\n\nThis paragraph explains part ${i + 1} of the answer in a sentence long enough to wrap on a narrow screen.\n\n- first point of part ${i + 1}\n- second point of part ${i + 1}\n`,
).join('\n');

function chat(name: string, size: [number, number]) {
  const { dir, work } = chatWorkspace(`adk-resize-${name}-`);
  const raw = join(dir, 'raw.out');
  startChat(tmux, name, { dir, cwd: work, size, raw, env: serverChatEnv(dir, server().url) });
  return { raw: () => readFileSync(raw, 'latin1') };
}

const resize = (target: string, columns: number, rows: number) => tmux.run('resize-window', '-t', target, '-x', String(columns), '-y', String(rows));
const missingParts = (scrollback: string) => Array.from({ length: PARTS }, (_, i) => `Part ${String(i + 1).padStart(2, '0')}`).filter((h) => !scrollback.includes(h));

describe('resizing the window mid-stream (tmux, raw output)', () => {
  for (const [columns, rows] of [
    [40, 12],
    [60, 15],
  ]) {
    it(`120×40 → ${columns}×${rows} while a long markdown answer streams: no clear, every heading in the scrollback`, async () => {
      server().onRequest(() => ({ content: ANSWER, chunkSize: 12, chunkDelayMs: 8 }));
      const name = `shrink${columns}`;
      const pane = chat(name, [120, 40]);
      await tmux.waitForScreen(name, (s) => s.includes(PROMPT), 'the prompt');
      tmux.type(name, 'explain it in parts');
      tmux.keys(name, 'Enter');
      await tmux.waitForScreen(name, (s) => s.includes('Part 04'), 'the stream under way');
      resize(name, columns, rows);
      await sleep(300);
      resize(name, columns, rows - 1);
      const scrollback = await tmux.waitForScreen(name, (s) => s.includes('second point of part 24') && s.includes('› '), 'the end of the answer', 30_000, true);
      await sleep(300);
      expect(missingParts(tmux.capture(name, true))).toEqual([]);
      expect(scrollback).toContain('Part 01');
      expect(clearsIn(pane.raw())).toBe(0);
    }, 60_000);
  }

  it('a resize mid-stream after a long answer writes the live area again, not the whole transcript', async () => {
    const big = Array.from({ length: 400 }, (_, i) => `Line ${i + 1} of a long earlier answer, kept in the terminal's own scrollback.`).join('\n\n');
    server().onRequest((_req, index) => (index === 0 ? { content: big, chunkSize: 4000 } : { content: ANSWER, chunkSize: 12, chunkDelayMs: 8 }));
    const pane = chat('reprint', [120, 40]);
    await tmux.waitForScreen('reprint', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('reprint', 'a long one');
    tmux.keys('reprint', 'Enter');
    await tmux.waitForScreen('reprint', (s) => s.includes('Line 400 of') && s.includes(PROMPT), 'the long answer');
    tmux.type('reprint', 'and now in parts');
    tmux.keys('reprint', 'Enter');
    await tmux.waitForScreen('reprint', (s) => s.includes('Part 04'), 'the second stream under way');
    resize('reprint', 40, 12);
    await sleep(300);
    resize('reprint', 60, 15);
    await tmux.waitForScreen('reprint', (s) => s.includes('second point of part 24') && s.includes('› '), 'the end of the second answer', 30_000, true);
    await sleep(300);
    // The first answer was written once; a resize never writes the transcript again.
    const raw = pane.raw();
    expect(raw.split('Line 1 of a long earlier answer').length - 1).toBe(1);
    expect(clearsIn(raw)).toBe(0);
  }, 60_000);

  it('an approval at 40×12 after shrinking from 120×40: no clear, the frame fits the screen, and it can be approved', async () => {
    server().onRequest((req) => {
      const last = req.body.messages.at(-1);
      if (last.role === 'tool') return { content: 'ran it' };
      return { content: 'I will run the command now.', toolCalls: [{ name: 'shell', arguments: { command: 'touch small-screen.txt && echo made' } }] };
    });
    const pane = chat('approval', [120, 40]);
    await tmux.waitForScreen('approval', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('approval', 'touch it');
    tmux.keys('approval', 'Enter');
    await tmux.waitForScreen('approval', (s) => /approve/i.test(s), 'the approval box');
    resize('approval', 40, 12);
    // The frame fits the screen (cut at its top if it must): its last row is the status line, with
    // the prompt's keys above it.
    const screen = await tmux.waitForScreen('approval', (s) => /approve/i.test(s) && s.trimEnd().split('\n').at(-1)!.includes('gpt-test ·'), 'the approval box at 40×12');
    expect(screen).toMatch(/\[y\]/);
    await sleep(500);
    tmux.keys('approval', 'y');
    await tmux.waitForScreen('approval', (s) => s.includes('ran it'), 'the answer', 30_000);
    expect(clearsIn(pane.raw())).toBe(0);
  }, 60_000);
});
