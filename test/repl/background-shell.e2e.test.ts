import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { sleep } from './helpers.js';
import { chatWorkspace, serverChatEnv, startChat, useTmux } from './tmux.js';

// Issue 15: a shell command that runs long can be moved to the background (Ctrl-B): the call
// answers at once, the command goes on, `shell_output` reads it later, and leaving adk stops it.
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';
const COMMAND = 'echo warming-up; sleep 47; echo finished-late';
const running = () => {
  try {
    return execFileSync('pgrep', ['-f', 'sleep 47'], { encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
};

describe('moving a shell command to the background (tmux)', () => {
  it('Ctrl-B answers the call at once; shell_output reads the job; exiting adk stops it', async () => {
    let job = '';
    server().onRequest((req) => {
      const msgs = req.body.messages;
      const last = msgs.at(-1);
      if (last.role === 'user' && last.content === 'start the server') return { toolCalls: [{ id: 'c_sh', name: 'shell', arguments: { command: COMMAND } }] };
      if (last.role === 'tool' && last.tool_call_id === 'c_sh') {
        job = /job (\w+)/.exec(last.content)?.[1] ?? '';
        return { content: `It runs in the background as ${job}.` };
      }
      if (last.role === 'user' && last.content === 'how is it doing') return { toolCalls: [{ id: 'c_out', name: 'shell_output', arguments: { job } }] };
      if (last.role === 'tool' && last.tool_call_id !== 'c_sh') return { content: `Status: ${last.content.split('\n')[0]}` };
      return { content: 'ok' };
    });
    const { dir, work } = chatWorkspace('adk-bg-');
    startChat(tmux, 'bg', { dir, cwd: work, env: serverChatEnv(dir, server().url, { ADK_SHELL_SANDBOX: 'off' }) });
    await tmux.waitForScreen('bg', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('bg', 'start the server');
    tmux.keys('bg', 'Enter');
    await tmux.waitForScreen('bg', (s) => s.includes('approve once'), 'the approval');
    await sleep(500);
    tmux.keys('bg', 'y');
    await tmux.waitForScreen('bg', (s) => s.includes('warming-up') && s.includes('ctrl-b'), 'the running row offering Ctrl-B', 10_000);
    tmux.keys('bg', 'C-b');
    await tmux.waitForScreen('bg', (s) => /It runs in the background as \w+\./.test(s) && s.includes(PROMPT) && !s.includes('esc to cancel'), 'the turn over, the job running', 10_000);
    expect(job).toMatch(/^\w+$/);
    const toolResult = server().chatRequests[1]!.body.messages.at(-1).content as string;
    expect(toolResult).toContain('warming-up');
    expect(toolResult).toContain('shell_output');
    expect(running()).not.toBe('');

    tmux.type('bg', 'how is it doing');
    tmux.keys('bg', 'Enter');
    await tmux.waitForScreen('bg', (s) => s.includes('Status:') && s.includes('running'), 'the job read back', 10_000);

    // Another model (a new team underneath): the job belongs to this adk, not to the team it started in.
    tmux.type('bg', '/model gpt-other');
    tmux.keys('bg', 'Enter');
    await tmux.waitForScreen('bg', (s) => s.includes('Model: gpt-other.'), 'the model switched', 10_000);
    expect(running()).not.toBe('');
    tmux.type('bg', 'how is it doing');
    tmux.keys('bg', 'Enter');
    await tmux.waitForScreen('bg', (s) => (s.match(/Status: job \w+: running/g) ?? []).length === 2, 'the job read back after the switch', 10_000);

    tmux.keys('bg', 'C-d');
    await tmux.waitForScreen('bg', (s) => s.includes('saved. Continue it with'), 'adk gone', 10_000);
    await sleep(300);
    expect(running()).toBe('');
  }, 60_000);
});
