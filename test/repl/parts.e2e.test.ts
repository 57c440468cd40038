import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { sleep, tempDir } from './helpers.js';
import { clearsIn, serverChatEnv, startChat, useTmux } from './tmux.js';

// Issue 35: an image (`@red.png`, a workspace file) and a PDF (a pasted path outside the workspace) sent
// from the REPL reach the model as parts in its own format, and show as chips in the transcript.
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';
const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/parts/${name}`, import.meta.url));

describe('images and PDFs in the REPL (tmux)', () => {
  it('@image and a pasted PDF path go to the model as parts; chips show them', async () => {
    server().onRequest(() => ({ content: 'A red square and an invoice.' }));
    const dir = tempDir('adk-parts-repl-');
    const work = join(dir, 'work');
    mkdirSync(join(dir, 'Downloads'), { recursive: true });
    mkdirSync(work, { recursive: true });
    copyFileSync(fixture('red.png'), join(work, 'red.png'));
    copyFileSync(fixture('invoice.pdf'), join(dir, 'Downloads', 'my invoice.pdf'));
    startChat(tmux, 'parts', { dir, cwd: work, env: serverChatEnv(dir, server().url), size: [120, 40] });
    await tmux.waitForScreen('parts', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('parts', `what are @red.png and '${join(dir, 'Downloads', 'my invoice.pdf')}'?`);
    await sleep(100);
    tmux.keys('parts', 'Enter');
    const screen = await tmux.waitForScreen('parts', (s) => s.includes('A red square and an invoice.'), 'the answer');
    expect(screen).toContain(' image red.png ');
    expect(screen).toContain(' PDF my invoice.pdf');
    const user = server().chatRequests[0]!.body.messages.find((m: any) => m.role === 'user');
    const png = readFileSync(fixture('red.png')).toString('base64');
    const pdf = readFileSync(fixture('invoice.pdf')).toString('base64');
    expect(user.content.slice(1)).toEqual([
      { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } },
      { type: 'file', file: { filename: 'my invoice.pdf', file_data: `data:application/pdf;base64,${pdf}` } },
    ]);
    expect(clearsIn(readFileSync(join(dir, 'parts.raw'), 'latin1'))).toBe(0);
  }, 60_000);
});
