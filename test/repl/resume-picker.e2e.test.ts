import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { runCli } from '../support/cli.js';
import { sleep } from './helpers.js';
import { chatWorkspace, startChat, useTmux } from './tmux.js';

// Issue 15: `/resume` with no id opens a list of the saved sessions to pick with ↑/↓ (issue 32: typing filters it).
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';

describe('/resume picker (tmux)', () => {
  it('lists the sessions (title, age, status), ↑/↓ and Enter resume the one picked', async () => {
    server().onRequest((req) => ({ content: `answer to: ${req.body.messages.filter((m: any) => m.role === 'user').map((m: any) => m.content).join(' | ')}` }));
    const { dir, work } = chatWorkspace('adk-picker-');
    const env = { ADK_HOME: join(dir, 'home'), OPENAI_BASE_URL: server().url, OPENAI_API_KEY: 'test-key-123456', ADK_MODEL: 'gpt-test' };
    for (const q of ['about apples', 'about bananas']) expect((await runCli(['run', q], { env, cwd: work })).code).toBe(0);
    startChat(tmux, 'picker', { dir, cwd: work, env });
    await tmux.waitForScreen('picker', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('picker', '/resume');
    tmux.keys('picker', 'Enter');
    const list = await tmux.waitForScreen('picker', (s) => s.includes('Resume which session?') && s.includes('about apples'), 'the session list');
    expect(list.indexOf('about bananas')).toBeLessThan(list.indexOf('about apples'));
    expect(list).toMatch(/❯ about bananas\s+just now · completed/);
    await sleep(300);
    tmux.keys('picker', 'Down');
    await tmux.waitForScreen('picker', (s) => s.includes('❯ about apples'), 'the selection moved');
    // Issue 32: typing filters the list (by title, first message or id); Backspace widens it again.
    // The filters are long enough that no random session id (8 characters of [a-z0-9]) holds them.
    tmux.type('picker', 'bananx');
    await tmux.waitForScreen('picker', (s) => s.includes('Filter: bananx') && s.includes('no match') && !s.includes('about apples'), 'nothing matches');
    tmux.keys('picker', 'BSpace');
    await tmux.waitForScreen('picker', (s) => s.includes('Filter: banan') && s.includes('❯ about bananas') && !s.includes('about apples'), 'the list filtered');
    tmux.keys('picker', 'BSpace', 'BSpace', 'BSpace', 'BSpace', 'BSpace');
    await tmux.waitForScreen('picker', (s) => s.includes('about apples') && s.includes('about bananas'), 'the whole list again');
    tmux.type('picker', 'APPLES');
    await tmux.waitForScreen('picker', (s) => s.includes('❯ about apples') && !s.includes('about bananas'), 'filtered, any case');
    tmux.keys('picker', 'Enter');
    await tmux.waitForScreen('picker', (s) => s.includes('answer to: about apples') && s.includes(PROMPT), 'the picked session shown');
    tmux.type('picker', 'and more');
    tmux.keys('picker', 'Enter');
    await tmux.waitForScreen('picker', (s) => s.includes('answer to: about apples | and more'), 'the next turn in the picked session');
  }, 60_000);
});
