import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../support/openai-server.js';
import { formatTokens } from '../../src/ui/components/StatusLine.js';
import { openRepl } from './app.js';
import { danglingToolCalls, KEY, messagesOf, textOf, waitFor } from './helpers.js';
import { replFixture } from './fixture.js';

const f = replFixture((work) => {
  writeFileSync(join(work, 'alpha.txt'), 'a');
  writeFileSync(join(work, 'beta.txt'), 'b');
});

const requests = () => f.server.chatRequests;
const lastRequest = (): RecordedRequest => requests()[requests().length - 1];
const toolResults = (req: RecordedRequest): string[] => messagesOf(req).filter((m) => m.role === 'tool').map((m) => String(m.content));

describe('adk chat against the local OpenAI-compatible server', () => {
  it('one conversation: stream, tool, transfer, approve, reject, ask_user, Ctrl-C, exit; then resume', async () => {
    const app = await openRepl(f.stores, f.teamOptions, f.home);
    const id = app.start.host.conv.id;
    await app.until(`gpt-test · session ${id.slice(0, 8)}`);
    expect(app.bottom()).toContain('✓ saved');

    // Streaming: the reply shows up in pieces before it is complete.
    f.server.enqueue({ content: 'Hello from the test server. Streaming works fine.', chunkDelayMs: 40, usage: { promptTokens: 1500, completionTokens: 12 } });
    await app.type('hi');
    await app.press(KEY.enter);
    await app.until((s) => s.includes('Hello from') && !s.includes('works fine.'));
    await app.until((s) => s.includes('Streaming works fine.') && !app.busy());
    expect(app.screen()).toContain('› hi');
    await app.until('↑1.5k ↓12');
    expect(app.bottom()).toContain('✓ saved');

    // A tool call: the row, its result, and the result sent back to the model.
    f.server.enqueue({ toolCalls: [{ name: 'list_dir', arguments: { path: '.' } }] }, { content: 'There are two files.' });
    await app.type('list the files');
    await app.press(KEY.enter);
    await app.until('There are two files.');
    expect(app.screen()).toMatch(/✓ list_dir path: "\."/);
    expect(app.screen()).toContain('alpha.txt');
    expect(toolResults(lastRequest()).join('\n')).toContain('beta.txt');

    // A transfer: the breadcrumb shows the path while the researcher speaks, then the transfer line stays.
    f.server.enqueue(
      { content: 'Asking the researcher.', toolCalls: [{ name: 'transfer_to_agent', arguments: { agent_name: 'researcher' } }] },
      { content: 'The researcher says it is noon. Research done.', chunkDelayMs: 60 },
    );
    await app.type('ask the researcher what time it is');
    await app.press(KEY.enter);
    await app.until((s) => s.split('\n').slice(-6).some((l) => l.includes('lead ▸ researcher') && l.includes('esc to cancel')));
    await app.until((s) => s.includes('Research done.') && !app.busy());
    expect(app.screen()).toContain('↳ lead → researcher');
    expect(textOf(lastRequest())).toContain('You research.');

    // Approval answered `y`: the command runs and its output reaches the model.
    f.server.enqueue({ toolCalls: [{ name: 'shell', arguments: { command: 'echo approved-$((40+2))' } }] }, { content: 'The command ran.' });
    await app.type('run the echo');
    await app.press(KEY.enter);
    await app.until('lead wants to run shell');
    // The session was saved before the prompt appeared: quitting here loses nothing.
    expect(app.bottom(1)).toContain('✓ saved');
    const waiting = (await f.stores.sessions.get(id))!;
    expect(waiting.status).toBe('interrupted');
    expect(waiting.pendingInterrupts).toMatchObject([{ kind: 'approval', tool: 'shell' }]);
    await app.press('y');
    await app.until('The command ran.');
    expect(app.screen()).toContain('✓ approved shell');
    expect(app.screen()).toContain('approved-42');
    expect(toolResults(lastRequest()).join('\n')).toContain('approved-42');

    // Approval rejected with `n` and a reason: the model is told the reason.
    f.server.enqueue({ toolCalls: [{ name: 'shell', arguments: { command: 'touch should-not-exist' } }] }, { content: 'Understood, I will not.' });
    await app.type('make a file');
    await app.press(KEY.enter);
    await app.until('lead wants to run shell');
    await app.press('n');
    await app.until('reason ›');
    await app.type('too risky today');
    await app.press(KEY.enter);
    await app.until('Understood, I will not.');
    expect(toolResults(lastRequest()).at(-1)).toContain('too risky today');
    expect(existsSync(join(f.work, 'should-not-exist'))).toBe(false);

    // ask_user answered with text.
    f.server.enqueue({ toolCalls: [{ name: 'ask_user', arguments: { question: 'What is your name?' } }] }, { content: 'Nice to meet you, Ada.' });
    await app.type('ask me something');
    await app.press(KEY.enter);
    await app.until((s) => s.includes('What is your name?') && s.includes('answer ›'));
    await app.type('Ada Lovelace');
    await app.press(KEY.enter);
    await app.until('Nice to meet you, Ada.');
    expect(toolResults(lastRequest())).toContainEqual(expect.stringContaining('Ada Lovelace'));

    // Ctrl-C in the middle of a slow stream cancels the turn; the elapsed time shows while it runs.
    f.server.enqueue({ content: 'word '.repeat(400), chunkSize: 5, chunkDelayMs: 40 });
    await app.type('write a long essay');
    await app.press(KEY.enter);
    await app.until((s) => s.includes('word word word') && /· [1-9]\d*s · esc to cancel/.test(s));
    // The status line: model, session, tokens, the context meter (no known window for gpt-test: a count)
    // and the elapsed time; not saved while the turn runs.
    const status = app.bottom(1);
    expect(status).toMatch(new RegExp(`^gpt-test · session ${id.slice(0, 8)} · ↑[\\d.]+k? ↓\\d+ · ctx [\\d.]+k? · [1-9]\\d*s`));
    expect(status).not.toContain('saved');
    const aborted = f.server.abortedRequests;
    await app.press(KEY.ctrlC);
    await f.server.waitForAborted(aborted + 1, 5000);
    await app.until((s) => s.includes('Cancelled.') && !app.busy());
    // Cancelling a run does not arm the exit (issue 32).
    expect(app.bottom()).not.toContain('Press Ctrl-C again to exit');

    // Esc while an approved command is running: the call is cancelled.
    f.server.enqueue({ toolCalls: [{ name: 'shell', arguments: { command: 'sleep 20' } }] });
    await app.type('run a slow command');
    await app.press(KEY.enter);
    await app.until('lead wants to run shell');
    await app.press('y');
    await app.until((s) => s.includes('✓ approved shell') && app.busy() && !s.includes('wants to run'));
    await new Promise((r) => setTimeout(r, 300));
    await app.press(KEY.esc);
    await app.until(() => !app.busy(), 8000);
    // The cancelled call is closed as such, and the note comes after it.
    expect(app.screen()).toMatch(/✗ shell command: "sleep 20"\n\s+⎿ cancelled\n\nCancelled\./);

    // The session stays consistent: the next turn works and sends no tool call without a result.
    f.server.enqueue({ content: 'Still here after the cancels.' });
    await app.type('are you there?');
    await app.press(KEY.enter);
    await app.until('Still here after the cancels.');
    const after = lastRequest();
    expect(danglingToolCalls(after)).toEqual([]);
    expect(textOf(after)).toContain('Nice to meet you, Ada.');
    expect(textOf(after)).toContain('are you there?');

    // Exit: Ctrl-C twice (the hint after the first press was checked above). The session is saved as it ended.
    await app.press(KEY.ctrlC);
    await app.press(KEY.ctrlC);
    await app.exited;
    app.unmount();
    const saved = (await f.stores.sessions.get(id))!;
    expect(saved.status).toBe('completed');
    expect(saved.messages.some((m) => m.content.includes('Still here after the cancels.'))).toBe(true);

    // Resume: the earlier transcript is shown and a new turn continues with the history.
    const resumed = await openRepl(f.stores, f.teamOptions, f.home, saved);
    await resumed.until(`Resumed session ${id}`);
    // The scrollback arrives a batch per frame after the input box: wait for its last turn.
    await resumed.until('Still here after the cancels.');
    const shown = resumed.screen();
    for (const text of ['› hi', 'Streaming works fine.', 'alpha.txt', '↳ lead → researcher', 'approved-42', 'Nice to meet you, Ada.', 'Still here after the cancels.']) {
      expect(shown).toContain(text);
    }
    expect(resumed.bottom(2)).toContain(`session ${id.slice(0, 8)} · ↑${formatTokens(saved.usage.promptTokens)} ↓${formatTokens(saved.usage.completionTokens)}`);
    f.server.enqueue({ content: 'Continuing where we left off.' });
    await resumed.type('and now?');
    await resumed.press(KEY.enter);
    await resumed.until('Continuing where we left off.');
    const cont = lastRequest();
    expect(messagesOf(cont).filter((m) => m.role === 'user').map((m) => m.content)).toEqual(expect.arrayContaining(['hi', 'list the files', 'and now?']));
    expect(textOf(cont)).toContain('Hello from the test server. Streaming works fine.');
    expect(danglingToolCalls(cont)).toEqual([]);
    await waitFor(async () => (await f.stores.sessions.get(id))?.messages.some((m) => m.content === 'Continuing where we left off.'), 'the resumed turn to be saved');
    resumed.unmount();
  }, 60_000);
});
