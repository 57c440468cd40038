import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { sleep } from './helpers.js';
import { chatWorkspace, serverChatEnv, startChat, useTmux } from './tmux.js';

// Issue 15: Ctrl-R searches the input history, newest first.
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';

describe('Ctrl-R history search (tmux)', () => {
  it('finds the newest match, Ctrl-R goes older, Enter takes it into the box', async () => {
    server().onRequest((req) => ({ content: `got: ${req.body.messages.at(-1).content}` }));
    const { dir, work } = chatWorkspace('adk-search-');
    startChat(tmux, 'search', { dir, cwd: work, env: serverChatEnv(dir, server().url) });
    await tmux.waitForScreen('search', (s) => s.includes(PROMPT), 'the prompt');
    for (const line of ['apple pie', 'banana bread', 'apple crumble']) {
      tmux.type('search', line);
      tmux.keys('search', 'Enter');
      await tmux.waitForScreen('search', (s) => s.includes(`got: ${line}`) && s.includes(PROMPT), line);
    }
    tmux.keys('search', 'C-r');
    await sleep(100);
    tmux.type('search', 'apple');
    await tmux.waitForScreen('search', (s) => s.includes('search history › apple') && s.includes('  apple crumble'), 'the newest match');
    tmux.keys('search', 'C-r');
    await tmux.waitForScreen('search', (s) => /search history › apple\s+apple pie/.test(s), 'the older match');
    tmux.keys('search', 'Enter');
    // The box, not the transcript's first line: below the last answer, the search closed.
    await tmux.waitForScreen('search', (s) => !s.includes('search history') && s.lastIndexOf('› apple pie') > s.indexOf('got: apple crumble'), 'the match in the box');
    await sleep(100);
    tmux.keys('search', 'Enter');
    await tmux.waitForScreen('search', (s) => s.split('got: apple pie').length > 2, 'the match sent again');
    expect(server().chatRequests.at(-1)!.body.messages.at(-1).content).toBe('apple pie');
  }, 60_000);
});
