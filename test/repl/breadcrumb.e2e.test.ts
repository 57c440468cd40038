import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { chatWorkspace, serverChatEnv, startChat, useTmux } from './tmux.js';

// Issue 15, defect 7: the breadcrumb kept the siblings a sequence had finished (`seq ▸ a1 ▸ a2`).
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';
const TEAM = `version: 1
default: seq
agents:
  seq:
    type: sequential
    description: One after the other.
    sub_agents: [drafter, checker]
  drafter:
    description: Drafts.
    instruction: You draft.
  checker:
    description: Checks.
    instruction: You check.
`;

describe('the breadcrumb (tmux)', () => {
  it('shows where the run is: the finished sibling is gone', async () => {
    server().onRequest((req) => {
      const system = String(req.body.messages[0]?.content ?? '');
      if (system.includes('You check')) return { content: 'checked: all good here', chunkDelayMs: 400 };
      return { content: 'drafted' };
    });
    const { dir, work } = chatWorkspace('adk-crumb-');
    writeFileSync(join(work, 'agents.yaml'), TEAM);
    startChat(tmux, 'crumb', { dir, cwd: work, env: serverChatEnv(dir, server().url) });
    await tmux.waitForScreen('crumb', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('crumb', 'go');
    tmux.keys('crumb', 'Enter');
    const working = await tmux.waitForScreen('crumb', (s) => /seq ▸ checker/.test(s), 'the checker working', 10_000);
    expect(working).not.toMatch(/drafter ▸/);
    await tmux.waitForScreen('crumb', (s) => s.includes('all good here') && s.includes(PROMPT), 'the turn done', 15_000);
  }, 40_000);
});
