import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { chatWorkspace, quitChat, serverChatEnv, startChat, useTmux } from './tmux.js';

// Issue 44: goal mode in the REPL. `/goal CHECK` runs the check in the sandbox; while it fails, the
// agent gets its output as the next turn. A scripted model that needs three attempts: the screen shows
// each attempt's check, and the goal is met at the third.
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';

describe('/goal in the REPL (tmux)', () => {
  it('/goal "test -f attempt3.txt": three attempts, each a turn, the check after each; met at the third', async () => {
    server().onRequest((req) => {
      const messages = req.body.messages as Array<{ role: string; content?: string }>;
      const attempt = messages.filter((m) => m.role === 'user' && String(m.content).startsWith('The goal is not met yet')).length;
      if (messages.at(-1)!.role === 'tool') return { content: `wrote attempt ${attempt}` };
      return { toolCalls: [{ id: `w${attempt}`, name: 'write_file', arguments: { path: `attempt${attempt}.txt`, content: 'x' } }] };
    });
    const { dir, work } = chatWorkspace('adk-goal-repl-');
    startChat(tmux, 'goal', { dir, cwd: work, env: serverChatEnv(dir, server().url), args: ['--permission-mode', 'accept-edits'] });
    await tmux.waitForScreen('goal', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('goal', '/goal test -f attempt3.txt');
    tmux.keys('goal', 'Enter');
    const screen = await tmux.waitForScreen('goal', (s) => s.includes('goal: attempt 3 · check passed'), 'the goal met', 60_000, true);
    expect(screen).toContain('goal: before the first attempt · check failed (exit 1)');
    expect(screen).toContain('goal: attempt 1 · check failed (exit 1)');
    expect(screen).toContain('goal: attempt 2 · check failed (exit 1)');
    expect(screen).toContain('wrote attempt 3');
    expect(['attempt1.txt', 'attempt2.txt', 'attempt3.txt', 'attempt4.txt'].map((f) => existsSync(join(work, f)))).toEqual([true, true, true, false]);
    // Each attempt was a turn: two model requests each.
    expect(server().chatRequests).toHaveLength(6);
    tmux.type('goal', '/goal');
    tmux.keys('goal', 'Enter');
    await tmux.waitForScreen('goal', (s) => s.includes('goal met: `test -f attempt3.txt` passed (attempt 3)'), 'the goal status');
    await quitChat(tmux, 'goal');
  }, 90_000);
});
