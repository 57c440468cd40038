import { join } from 'node:path';
import { cleanup } from 'ink-testing-library';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { openAdkStores, type AdkStores } from '../../src/core/store/index.js';
import type { TeamOptions } from '../../src/cli/team.js';
import { startOpenAIServer, type OpenAITestServer } from '../support/openai-server.js';
import { openRepl, type ReplUnderTest } from './app.js';
import { danglingToolCalls, KEY, messagesOf, removeTempDirs, tempDir, writeTeam } from './helpers.js';

let server: OpenAITestServer;
let stores: AdkStores;
let home: string;
let teamOptions: TeamOptions;

beforeAll(async () => {
  server = await startOpenAIServer();
  home = tempDir('adk-repl-home-');
  const work = tempDir('adk-repl-work-');
  stores = await openAdkStores(`sqlite://${join(home, 'adk.sqlite')}`);
  teamOptions = { agentsFile: writeTeam(work), cwd: work, env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'k' } };
});
afterAll(async () => {
  await stores?.close();
  await server?.close();
  removeTempDirs();
});
afterEach(() => cleanup());

const lastToolResult = () => {
  const req = server.chatRequests[server.chatRequests.length - 1];
  expect(danglingToolCalls(req)).toEqual([]);
  return messagesOf(req).filter((m) => m.role === 'tool').at(-1)?.content as string;
};

/** Starts a turn whose shell call waits for approval. */
async function askApproval(app: ReplUnderTest, word: string): Promise<void> {
  server.enqueue({ toolCalls: [{ name: 'shell', arguments: { command: `echo ${word}` } }] });
  await app.type(`say ${word}`);
  await app.press(KEY.enter);
  await app.until('lead wants to run shell');
}

it('quitting at an approval prompt and resuming the session brings the same prompt back', async () => {
  const app = await openRepl(stores, teamOptions, home);
  const id = app.start.host.conv.id;
  await askApproval(app, 'first-$((1+1))');
  await app.press(KEY.ctrlC);
  await app.press(KEY.ctrlC);
  await app.exited;
  app.unmount();

  const record = (await stores.sessions.get(id))!;
  expect(record.status).toBe('interrupted');
  const again = await openRepl(stores, teamOptions, home, record);
  await again.until((s) => s.includes(`Resumed session ${id}`) && s.includes('lead wants to run shell') && s.includes('echo first-$((1+1))'));
  server.enqueue({ content: 'It printed first-2.' });
  await again.press('y');
  await again.until('It printed first-2.');
  expect(lastToolResult()).toContain('first-2');
  again.unmount();
});

it('/resume <id> of a session waiting on a question asks it again', async () => {
  const app = await openRepl(stores, teamOptions, home);
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
  server.enqueue({ content: 'It printed second-3.' });
  await app.press('y');
  await app.until('It printed second-3.');
  expect(lastToolResult()).toContain('second-3');
  expect((await stores.sessions.get(waiting))!.status).toBe('completed');
  app.unmount();
});
