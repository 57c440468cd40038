import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { sleep, tempDir } from './helpers.js';
import { serverChatEnv, startChat, useTmux } from './tmux.js';

// Issue 15: `@path` mentions, Tab-completed from the workspace; the file's content (capped) goes to
// the model with the message; nothing outside the workspace is attached.
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';

describe('@path mentions (tmux)', () => {
  it('Tab completes a workspace path; the file is attached for the model, the transcript keeps what was typed', async () => {
    server().onRequest(() => ({ content: 'Read it.' }));
    const dir = tempDir('adk-mention-');
    const work = join(dir, 'work');
    mkdirSync(join(work, 'src'), { recursive: true });
    writeFileSync(join(work, 'src', 'planets.txt'), 'Mercury\nVenus\nEarth\n');
    writeFileSync(join(dir, 'secret.txt'), 'outside-the-workspace');
    symlinkSync(join(dir, 'secret.txt'), join(work, 'link.txt'));
    startChat(tmux, 'mention', { dir, cwd: work, env: serverChatEnv(dir, server().url) });
    await tmux.waitForScreen('mention', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('mention', 'summarise @sr');
    tmux.keys('mention', 'Tab');
    await tmux.waitForScreen('mention', (s) => s.includes('› summarise @src/'), 'the folder completed');
    tmux.type('mention', 'pl');
    tmux.keys('mention', 'Tab');
    await tmux.waitForScreen('mention', (s) => s.includes('› summarise @src/planets.txt'), 'the file completed');
    tmux.type('mention', 'and @link.txt');
    await sleep(100);
    tmux.keys('mention', 'Enter');
    const screen = await tmux.waitForScreen('mention', (s) => s.includes('Read it.'), 'the answer');
    expect(screen).not.toContain('Mercury');
    const user = server().chatRequests[0]!.body.messages.filter((m: any) => m.role === 'user').at(-1).content as string;
    expect(user.startsWith('summarise @src/planets.txt and @link.txt')).toBe(true);
    expect(user).toContain('<file path="src/planets.txt">\nMercury\nVenus\nEarth\n');
    expect(user).not.toContain('outside-the-workspace');
  }, 60_000);
});
