import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { sleep } from './helpers.js';
import { chatWorkspace, serverChatEnv, startChat, useTmux } from './tmux.js';

// Issue 15: /agents can switch the team (another root agent of the same file, in a new session).
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';

describe('/agents switches the team (tmux)', () => {
  it('lists the teams of the bundled file; picking one starts a session on it', async () => {
    server().onRequest(() => ({ content: 'hello from whichever team' }));
    const { dir, work } = chatWorkspace('adk-agents-');
    startChat(tmux, 'agents', { dir, cwd: work, env: serverChatEnv(dir, server().url) });
    await tmux.waitForScreen('agents', (s) => s.includes(PROMPT) && s.includes('adk · assistant'), 'the prompt');
    tmux.type('agents', '/agents');
    tmux.keys('agents', 'Enter');
    await tmux.waitForScreen('agents', (s) => s.includes('Switch to which team?') && s.includes('❯ assistant'), 'the team list');
    await sleep(200);
    for (let i = 0; i < 30 && !/❯ coder\b/.test(tmux.capture('agents')); i++) {
      tmux.keys('agents', 'Down');
      await sleep(60);
    }
    tmux.keys('agents', 'Enter');
    await tmux.waitForScreen('agents', (s) => s.includes('Team coder: new session') && s.includes(PROMPT), 'the switch');
    tmux.type('agents', 'hi');
    tmux.keys('agents', 'Enter');
    await tmux.waitForScreen('agents', (s) => s.includes('hello from whichever team'), 'the answer');
    const system = String(server().chatRequests.at(-1)!.body.messages[0].content);
    expect(system).toMatch(/you lead a team of code_planner/i);
  }, 60_000);
});
