import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { chatWorkspace, serverChatEnv, startChat, useTmux } from '../repl/tmux.js';

// Issue 32: modes cycled with Shift-Tab and shown in the status line; plan mode refuses a write,
// ends with the plan in the plan review, and "accept and clear" starts the model afresh with the
// plan as its first message, back in the default mode. useTmux fails the file on any full clear.
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';
const PLAN = 'PLAN: 1. write notes.txt 2. check it';

describe('permission modes (tmux)', () => {
  it('Shift-Tab cycles the modes in the status line; plan mode refuses a write, then "accept and clear"', async () => {
    server().onRequest((req) => {
      const msgs = req.body.messages;
      const user = msgs.filter((m: any) => m.role === 'user').at(-1);
      if (String(user.content).includes('Carry out this plan')) return { content: 'Carrying it out.' };
      if (msgs.at(-1).role === 'tool') return { content: PLAN };
      return { toolCalls: [{ id: 'w1', name: 'write_file', arguments: { path: 'notes.txt', content: 'hi' } }] };
    });
    const { dir, work } = chatWorkspace('adk-plan-mode-');
    startChat(tmux, 'plan', { dir, cwd: work, env: serverChatEnv(dir, server().url, { ADK_PROMPT_ARM_MS: '100' }) });
    await tmux.waitForScreen('plan', (s) => s.includes(PROMPT), 'the prompt');
    const status = () => tmux.capture('plan').split('\n').filter((l) => l.includes('gpt-test')).at(-1) ?? '';
    tmux.keys('plan', 'BTab');
    await tmux.waitForScreen('plan', () => status().includes('⏵⏵ accept edits'), 'accept-edits in the status line');
    tmux.keys('plan', 'BTab');
    await tmux.waitForScreen('plan', () => status().includes('⏸ plan mode'), 'plan mode in the status line');
    tmux.keys('plan', 'BTab');
    await tmux.waitForScreen('plan', () => !status().includes('⏸') && !status().includes('⏵'), 'back to the default mode');
    tmux.keys('plan', 'BTab');
    tmux.keys('plan', 'BTab');
    await tmux.waitForScreen('plan', () => status().includes('⏸ plan mode'), 'plan mode again');

    tmux.type('plan', 'plan the notes');
    tmux.keys('plan', 'Enter');
    const review = await tmux.waitForScreen('plan', (s) => s.includes('accept and clear the context first'), 'the plan review');
    expect(review).toContain(PLAN);
    expect(existsSync(join(work, 'notes.txt'))).toBe(false);
    const refused = server().chatRequests[1]!.body.messages.find((m: any) => m.role === 'tool');
    expect(refused.content).toMatch(/Plan mode is on: write_file changes things, so it was not run/);

    await new Promise((r) => setTimeout(r, 300));
    tmux.type('plan', 'c');
    await tmux.waitForScreen('plan', (s) => s.includes('Carrying it out.'), 'the plan carried out');
    const last = server().chatRequests.at(-1)!.body.messages.filter((m: any) => m.role !== 'system');
    // A fresh context: the plan is the first (and only) message.
    expect(last).toHaveLength(1);
    expect(last[0].content).toContain(`Carry out this plan:\n\n${PLAN}`);
    expect(status()).not.toContain('plan mode');
  }, 40_000);
});
