import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LEAD_HELPER_TEAM, leadAsksHelperTwice } from '../support/lead-helper-team.js';
import { useServer } from '../cli/helpers.js';
import { chatWorkspace, clearsIn, serverChatEnv, startChat, useTmux } from './tmux.js';

// Issue 32, item 4, in the REPL: the status line and `/cost` count the sub-agents' requests too
// (the server saw 5, each reporting 1,000 tokens in and 100 out), per model as well.
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';

const TEAM = LEAD_HELPER_TEAM;

describe('/cost counts every request (tmux)', () => {
  it('a lead asking a sub-agent twice: status line and /cost show the 5 requests the server answered; no clear', async () => {
    const usage = { promptTokens: 1000, completionTokens: 100 };
    server().onRequest(leadAsksHelperTwice(usage, () => 'All done.'));
    const { dir, work } = chatWorkspace('adk-cost-sub-');
    writeFileSync(join(work, 'agents.yaml'), TEAM);
    const raw = join(dir, 'raw.out');
    startChat(tmux, 'costsub', { dir, cwd: work, raw, args: ['--agents', join(work, 'agents.yaml')], env: serverChatEnv(dir, server().url) });
    await tmux.waitForScreen('costsub', (s) => s.includes(PROMPT), 'the prompt', 30_000);
    tmux.type('costsub', 'do the work');
    tmux.keys('costsub', 'Enter');
    const screen = await tmux.waitForScreen('costsub', (s) => s.includes('All done.') && s.includes(PROMPT), 'the answer');
    expect(server().chatRequests.length).toBe(5);
    expect(screen).toMatch(/↑5\.0k ↓500/);
    tmux.type('costsub', '/cost');
    tmux.keys('costsub', 'Enter');
    const cost = await tmux.waitForScreen('costsub', (s) => s.includes('By model:'), 'the /cost answer');
    const flat = cost.replace(/\s+/g, ' ');
    expect(flat).toContain('This session: 5.0k in, 500 out');
    expect(flat).toContain('By model: gpt-test 5.0k in, 500 out');
    expect(clearsIn(readFileSync(raw, 'latin1'))).toBe(0);
  }, 40_000);
});
