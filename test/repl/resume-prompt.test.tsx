import { join } from 'node:path';
import { expect, it } from 'vitest';
import { openRepl, type ReplUnderTest } from './app.js';
import { danglingToolCalls, KEY, messagesOf } from './helpers.js';
import { replFixture } from './fixture.js';

const f = replFixture();

const lastToolResult = () => {
  const req = f.server.chatRequests[f.server.chatRequests.length - 1];
  expect(danglingToolCalls(req)).toEqual([]);
  return messagesOf(req).filter((m) => m.role === 'tool').at(-1)?.content as string;
};

/** Starts a turn whose shell call waits for approval. */
async function askApproval(app: ReplUnderTest, word: string): Promise<void> {
  f.server.enqueue({ toolCalls: [{ name: 'shell', arguments: { command: `echo ${word}` } }] });
  await app.type(`say ${word}`);
  await app.press(KEY.enter);
  await app.until('lead wants to run shell');
}

it('quitting at an approval prompt and resuming the session brings the same prompt back', async () => {
  const app = await openRepl(f.stores, f.teamOptions, f.home);
  const id = app.start.host.conv.id;
  await askApproval(app, 'first-$((1+1))');
  await app.press(KEY.ctrlC);
  await app.press(KEY.ctrlC);
  await app.exited;
  app.unmount();

  const record = (await f.stores.sessions.get(id))!;
  expect(record.status).toBe('interrupted');
  const again = await openRepl(f.stores, f.teamOptions, f.home, record);
  await again.until((s) => s.includes(`Resumed session ${id}`) && s.includes('lead wants to run shell') && s.includes('echo first-$((1+1))'));
  f.server.enqueue({ content: 'It printed first-2.' });
  await again.press('y');
  await again.until('It printed first-2.');
  expect(lastToolResult()).toContain('first-2');
  again.unmount();
});

it('/resume <id> of a session waiting on a question asks it again', async () => {
  const app = await openRepl(f.stores, f.teamOptions, f.home);
  const waiting = app.start.host.conv.id;
  await askApproval(app, 'second-$((2+1))');
  // Ctrl-C at a prompt leaves it unanswered; the session stays saved and waiting.
  await app.press(KEY.ctrlC);
  await app.until('Left 1 question unanswered');
  await app.type('/new');
  await app.press(KEY.enter);
  await app.until('New session ');
  await app.type(`/resume ${waiting}`);
  await app.press(KEY.enter);
  await app.until((s) => s.slice(s.lastIndexOf(`Resumed session ${waiting}`)).includes('lead wants to run shell'));
  f.server.enqueue({ content: 'It printed second-3.' });
  await app.press('y');
  await app.until('It printed second-3.');
  expect(lastToolResult()).toContain('second-3');
  expect((await f.stores.sessions.get(waiting))!.status).toBe('completed');
  app.unmount();
});
