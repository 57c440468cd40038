import { join } from 'node:path';
import { cleanup } from 'ink-testing-library';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { openAdkStores, type AdkStores } from '../../src/core/store/index.js';
import { startOpenAIServer, type OpenAITestServer } from '../support/openai-server.js';
import { openRepl } from './app.js';
import { KEY, removeTempDirs, tempDir, writeTeam } from './helpers.js';

let server: OpenAITestServer;
let stores: AdkStores;
let home: string;
let work: string;

beforeAll(async () => {
  server = await startOpenAIServer();
  home = tempDir('adk-repl-home-');
  work = tempDir('adk-repl-work-');
  stores = await openAdkStores(`sqlite://${join(home, 'adk.sqlite')}`);
});
afterAll(async () => {
  await stores?.close();
  await server?.close();
  removeTempDirs();
});
afterEach(() => cleanup());

it('Ctrl-C twice in the middle of a stream cancels and stays (issue 32); twice more at the idle prompt exits, the cancelled turn saved before the store closes', async () => {
  const app = await openRepl(stores, { agentsFile: writeTeam(work), cwd: work, env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'k' } }, home);
  const { host } = app.start;
  server.enqueue({ content: 'word '.repeat(400), chunkSize: 5, chunkDelayMs: 40 });
  await app.type('write a lot');
  await app.press(KEY.enter);
  await app.until('word word');
  void app.press(KEY.ctrlC);
  void app.press(KEY.ctrlC);
  await app.until((s) => s.includes('Cancelled.') && !app.busy());
  let exited = false;
  void app.exited.then(() => (exited = true));
  await new Promise((r) => setTimeout(r, 300));
  expect(exited).toBe(false);
  await app.press(KEY.ctrlC);
  await app.press(KEY.ctrlC);
  await app.exited;
  // What startRepl does after the app exits, before the store is closed.
  await host.settle();
  const saved = (await stores.sessions.get(host.conv.id))!;
  expect(saved.status).toBe('cancelled');
  expect(host.saved).toBe(true);
  app.unmount();
});

it('keys pressed together arrive as one chunk: Ctrl-C Ctrl-C still exits, nothing is typed into the input', async () => {
  const app = await openRepl(stores, { agentsFile: writeTeam(work), cwd: work, env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'k' } }, home);
  await app.until('Message, or / for commands');
  // Text and Ctrl-U (delete to the line start) in one chunk: the text is typed, then deleted.
  await app.press('draft\u0015');
  await app.until((s) => !s.includes('draft') && s.includes('Message, or / for commands'));
  const requests = server.chatRequests.length;
  await app.press(KEY.ctrlC + KEY.ctrlC);
  await app.exited;
  expect(server.chatRequests.length).toBe(requests);
  app.unmount();
});
