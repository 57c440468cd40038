import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../support/openai-server.js';
import { openRepl, type ReplUnderTest } from './app.js';
import { formatTokens } from '../../src/ui/components/StatusLine.js';
import { KEY, messagesOf } from './helpers.js';
import { replFixture } from './fixture.js';

const f = replFixture();

const lastRequest = (): RecordedRequest => f.server.chatRequests[f.server.chatRequests.length - 1];
const userTexts = (req: RecordedRequest): string[] => messagesOf(req).filter((m) => m.role === 'user').map((m) => m.content);

async function send(app: ReplUnderTest, text: string): Promise<void> {
  await app.type(text);
  await app.press(KEY.enter);
}

/** Sends a message and waits until the reply is complete. */
async function turn(app: ReplUnderTest, text: string, reply: string, usage?: { promptTokens: number; completionTokens: number }): Promise<void> {
  f.server.enqueue({ content: reply, usage });
  await send(app, text);
  await app.until((s) => s.includes(reply) && !app.busy());
}

/** Output that appeared after `mark` (the screen keeps everything committed). */
const after = (app: ReplUnderTest, mark: string): string => app.screen().slice(app.screen().lastIndexOf(mark));

describe('slash commands in the real app', () => {
  it('/clear starts the model afresh; the session keeps every message on disk', async () => {
    const app = await openRepl(f.stores, f.teamOptions, f.home);
    const id = app.start.host.conv.id;
    await turn(app, 'my name is Ada', 'Hello Ada.', { promptTokens: 900, completionTokens: 10 });
    await turn(app, 'remember it', 'Noted.', { promptTokens: 950, completionTokens: 5 });
    await app.until('ctx 955');
    await send(app, '/clear');
    await app.until((s) => after(app, '› /clear').includes('Cleared: the model starts afresh'));
    await app.until((s) => !app.bottom(2).includes('ctx '));
    await turn(app, 'what is my name?', 'I do not know.');
    // The request after /clear carries only the new question.
    expect(userTexts(lastRequest())).toEqual(['what is my name?']);
    expect(JSON.stringify(messagesOf(lastRequest()))).not.toContain('Ada');
    const saved = (await f.stores.sessions.get(id))!;
    expect(saved.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['my name is Ada', 'remember it', 'what is my name?']);
    expect(saved.contextStart).toBe(4);
    await app.press(KEY.ctrlC);
    await app.press(KEY.ctrlC);
    await app.exited;
    app.unmount();
  });

  it('/help /agents /tools /cost /model /sessions /new /resume /exit', async () => {
    const app = await openRepl(f.stores, f.teamOptions, f.home);
    const first = app.start.host.conv.id;
    f.server.enqueue({ toolCalls: [{ name: 'list_dir', arguments: { path: '.' } }], usage: { promptTokens: 2000, completionTokens: 20 } });
    await turn(app, 'first question', 'First answer.', { promptTokens: 400, completionTokens: 10 });
    await app.until('↑2.4k ↓30');

    await send(app, '/help');
    await app.until((s) => after(app, '› /help').includes('Keys:'));
    for (const c of ['/agents', '/sessions', '/resume', '/new', '/model', '/tools', '/clear', '/cost', '/exit']) expect(after(app, '› /help')).toContain(c);

    await send(app, '/agents');
    await app.until((s) => /lead[\s\S]*researcher/.test(after(app, '› /agents')));

    await send(app, '/tools');
    await app.until((s) => after(app, '› /tools').includes('ask_user'));
    for (const t of ['list_dir', 'shell', 'current_time']) expect(after(app, '› /tools')).toContain(t);

    await send(app, '/cost');
    await app.until((s) => after(app, '› /cost').includes('This session: 2.4k in, 30 out'));

    await send(app, '/model');
    await app.until((s) => after(app, '› /model').includes('Model: gpt-test.'));
    // The models the endpoint lists open as a list to pick from (issue 15); Esc keeps the model.
    await app.until((s) => s.includes('Switch to which model?'));
    await app.press(KEY.esc);
    await app.until((s) => !s.includes('Switch to which model?'));
    await send(app, '/model gpt-other');
    await app.until((s) => after(app, '› /model gpt-other').includes('Model: gpt-other.'));
    await app.until((s) => app.bottom(2).includes(`gpt-other · session ${first.slice(0, 8)}`));
    await turn(app, 'second question', 'Second answer.');
    expect(lastRequest().body.model).toBe('gpt-other');
    expect(userTexts(lastRequest())).toEqual(['first question', 'second question']);

    await send(app, '/sessions');
    await app.until((s) => after(app, '› /sessions').includes(first));

    // /new twice without a word in between: the empty session is not kept (issue 15).
    await send(app, '/new');
    await app.until('New session ');
    const empty = app.start.host.conv.id;
    await send(app, '/new');
    await app.until((s) => s.split('New session ').length > 2);
    expect(await f.stores.sessions.get(empty)).toBeUndefined();
    const second = app.start.host.conv.id;
    expect(second).not.toBe(first);
    await app.until((s) => app.bottom(2).includes(`session ${second.slice(0, 8)}`));
    // A new session starts from nothing: no history, no tokens.
    expect(app.bottom(2)).toContain('↑0 ↓0');
    await turn(app, 'fresh start', 'Fresh answer.');
    expect(userTexts(lastRequest())).toEqual(['fresh start']);
    expect(lastRequest().body.model).toBe('gpt-other');

    await send(app, `/resume ${first}`);
    await app.until(`Resumed session ${first}`);
    await app.until((s) => app.bottom(2).includes(`session ${first.slice(0, 8)}`));
    // The status line counts the resumed session's tokens, not the ones of the session before.
    const before = (await f.stores.sessions.get(first))!.usage;
    expect(app.bottom(2)).toContain(`↑${formatTokens(before.promptTokens)} ↓${formatTokens(before.completionTokens)}`);
    const resumed = after(app, `Resumed session ${first}`);
    expect(resumed).toContain('› first question');
    expect(resumed).toMatch(/✓ list_dir path: "\."\n\s+⎿ agents\.yaml/);
    expect(resumed).toContain('Second answer.');
    await turn(app, 'third question', 'Third answer.');
    expect(userTexts(lastRequest())).toEqual(['first question', 'second question', 'third question']);
    expect(app.start.host.conv.id).toBe(first);
    const saved = (await f.stores.sessions.get(first))!;
    expect(saved.messages.map((m) => m.content)).toContain('Third answer.');

    await send(app, '/exit');
    await app.exited;
    app.unmount();
  }, 30_000);
});
