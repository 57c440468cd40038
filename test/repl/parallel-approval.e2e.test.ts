import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { sleep } from './helpers.js';
import { chatWorkspace, serverChatEnv, startChat, useTmux } from './tmux.js';

// Issue 15, defect 4: in a parallel team an approval is asked as soon as its branch waits, not once
// every sibling has finished; the answer is used when the run stops.
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';
const TEAM = `version: 1
default: team
agents:
  team:
    type: parallel
    description: Two at once.
    sub_agents: [fast, slow]
  fast:
    description: Runs a command.
    instruction: You are fast.
    tools: [shell]
    approval: [shell]
  slow:
    description: Thinks slowly.
    instruction: You are slow.
`;

describe('an approval in a parallel team (tmux)', () => {
  it('is asked while the sibling still works; answered early, the command runs once the sibling is done', async () => {
    server().onRequest((req) => {
      const system = String(req.body.messages[0]?.content ?? '');
      const last = req.body.messages.at(-1);
      if (system.includes('You are slow')) return { content: 'slow branch done', delayMs: 4000 };
      if (last.role === 'tool') return { content: 'fast branch done' };
      return { toolCalls: [{ id: 'c_sh', name: 'shell', arguments: { command: 'touch ran.txt' } }] };
    });
    const { dir, work } = chatWorkspace('adk-parallel-');
    writeFileSync(join(work, 'agents.yaml'), TEAM);
    startChat(tmux, 'par', { dir, cwd: work, env: serverChatEnv(dir, server().url, { ADK_SHELL_SANDBOX: 'off' }) });
    await tmux.waitForScreen('par', (s) => s.includes(PROMPT), 'the prompt');
    const t0 = Date.now();
    tmux.type('par', 'do both');
    tmux.keys('par', 'Enter');
    const asked = await tmux.waitForScreen('par', (s) => s.includes('approve once'), 'the approval while the slow branch works', 10_000);
    expect(Date.now() - t0).toBeLessThan(3500);
    expect(asked).not.toContain('slow branch done');
    await sleep(500);
    tmux.keys('par', 'y');
    await tmux.waitForScreen('par', (s) => s.includes('approved') && !s.includes('approve once'), 'the answer taken');
    expect(existsSync(join(work, 'ran.txt'))).toBe(false);
    await tmux.waitForScreen('par', (s) => s.includes('fast branch done'), 'the run resumed after the sibling finished', 30_000, true);
    expect(existsSync(join(work, 'ran.txt'))).toBe(true);
    expect(tmux.capture('par', true)).toContain('slow branch done');
  }, 60_000);
});
