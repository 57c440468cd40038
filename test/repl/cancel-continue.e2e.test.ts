import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { chatWorkspace, serverChatEnv, startChat, useTmux } from './tmux.js';

// Issue 15, defect 6: an answer cancelled with Esc stays on the screen; it must also stay in the
// model's context, so the next message ("continue") follows it instead of a second user message.
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';

describe('Esc mid-answer, then "continue" (tmux)', () => {
  it('the next request has the shown part of the answer between the two user messages', async () => {
    server().enqueue({ content: 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu', chunkSize: 6, chunkDelayMs: 150 }, { content: 'nu xi omicron' });
    const { dir, work } = chatWorkspace('adk-repl-cancel-');
    startChat(tmux, 'cancel', { dir, cwd: work, env: serverChatEnv(dir, server().url) });
    await tmux.waitForScreen('cancel', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('cancel', 'recite the greek letters');
    tmux.keys('cancel', 'Enter');
    await tmux.waitForScreen('cancel', (s) => s.includes('gamma'), 'part of the answer');
    tmux.keys('cancel', 'Escape');
    await tmux.waitForScreen('cancel', (s) => s.includes(PROMPT), 'the prompt after Esc');
    tmux.type('cancel', 'continue');
    tmux.keys('cancel', 'Enter');
    await tmux.waitForScreen('cancel', (s) => s.includes('nu xi omicron'), 'the continued answer');
    const messages = server().chatRequests[1]!.body.messages.filter((m: any) => m.role !== 'system');
    expect(messages.map((m: any) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(messages[1].content).toMatch(/^alpha beta gamma/);
    expect(messages[1].content).not.toContain('mu');
    expect(messages[2].content).toBe('continue');
  }, 60_000);
});
