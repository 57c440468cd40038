import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { chatWorkspace, serverChatEnv, startChat, useTmux } from './tmux.js';

// Issue 14: /compact and /clear in a real terminal, with the next request checked on the server.
const server = useServer();
const tmux = useTmux();

const PROMPT = '› Message, or / for commands';
const isSummary = (body: any) => String(body.messages[0]?.content ?? '').startsWith('You are compacting a conversation');
const userTexts = (body: any) => body.messages.filter((m: any) => m.role === 'user').map((m: any) => String(m.content));

describe('/compact and /clear (tmux)', () => {
  it('/compact puts a summary in place of the conversation; /clear empties the context; the screen keeps both', async () => {
    server().onRequest((req) => {
      if (isSummary(req.body)) return { content: 'SUMMARY: the favourite colour is blue; the project is Apollo.' };
      return { content: `ok: ${req.body.messages.at(-1).content}` };
    });
    const { dir, work } = chatWorkspace('adk-repl-compact-');
    startChat(tmux, 'compact', { dir, cwd: work, env: serverChatEnv(dir, server().url) });
    await tmux.waitForScreen('compact', (s) => s.includes(PROMPT), 'the prompt');
    for (const [i, line] of ['my favourite colour is blue', 'the project is called Apollo'].entries()) {
      tmux.type('compact', line);
      tmux.keys('compact', 'Enter');
      // The next line is typed once the turn has ended, so each answer pairs with its question.
      await tmux.waitForScreen('compact', (s) => s.includes(`ok: ${line}`) && s.includes(PROMPT), `answer ${i + 1}`);
    }

    tmux.type('compact', '/compact keep the colour');
    tmux.keys('compact', 'Enter');
    await tmux.waitForScreen('compact', (s) => /⋯ 4 earlier messages summarised/.test(s) && s.includes(PROMPT), 'the compaction line');
    const summaryRequest = server().chatRequests.find((r) => isSummary(r.body))!;
    expect(summaryRequest.body.messages[0].content).toContain('keep the colour');
    expect(userTexts(summaryRequest.body).join('\n')).toContain('my favourite colour is blue');

    tmux.type('compact', 'what next?');
    tmux.keys('compact', 'Enter');
    await tmux.waitForScreen('compact', (s) => s.includes('ok: what next?') && s.includes(PROMPT), 'the answer after /compact');
    const afterCompact = server().chatRequests.at(-1)!.body;
    expect(userTexts(afterCompact)).toEqual([expect.stringMatching(/^\[Summary of the earlier conversation: 4 earlier messages\]\nSUMMARY: the favourite colour is blue/), 'what next?']);

    tmux.type('compact', '/clear');
    tmux.keys('compact', 'Enter');
    await tmux.waitForScreen('compact', (s) => s.includes('Cleared: the model starts afresh'), 'the /clear notice');
    tmux.type('compact', 'fresh question');
    tmux.keys('compact', 'Enter');
    await tmux.waitForScreen('compact', (s) => s.includes('ok: fresh question'), 'the answer after /clear');
    const afterClear = server().chatRequests.at(-1)!.body;
    expect(userTexts(afterClear)).toEqual(['fresh question']);
    expect(afterClear.messages.filter((m: any) => m.role === 'assistant')).toEqual([]);

    // The scrollback still holds the whole conversation.
    const history = tmux.capture('compact', true);
    for (const text of ['ok: my favourite colour is blue', 'ok: the project is called Apollo', '⋯ 4 earlier messages summarised', 'ok: what next?']) expect(history).toContain(text);
  }, 60_000);
});
