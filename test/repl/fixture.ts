import { join } from 'node:path';
import { cleanup } from 'ink-testing-library';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { TeamOptions } from '../../src/cli/team.js';
import { openAdkStores, type AdkStores } from '../../src/core/store/index.js';
import { startOpenAIServer, type OpenAITestServer } from '../support/openai-server.js';
import { removeTempDirs, tempDir, writeTeam } from './helpers.js';

export interface ReplFixture {
  server: OpenAITestServer;
  stores: AdkStores;
  home: string;
  work: string;
  teamOptions: TeamOptions;
}

/**
 * What every in-process REPL test needs: the local model server, a SQLite store in a temp
 * ADK_HOME, and the test team in a temp working folder. Filled in by `beforeAll`.
 */
export function replFixture(prepareWork?: (work: string) => void): ReplFixture {
  const f = {} as ReplFixture;
  beforeAll(async () => {
    f.server = await startOpenAIServer();
    f.home = tempDir('adk-repl-home-');
    f.work = tempDir('adk-repl-work-');
    prepareWork?.(f.work);
    f.stores = await openAdkStores(`sqlite://${join(f.home, 'adk.sqlite')}`);
    f.teamOptions = { agentsFile: writeTeam(f.work), cwd: f.work, env: { OPENAI_BASE_URL: f.server.url, OPENAI_API_KEY: 'test-key-123' } };
  });
  afterAll(async () => {
    await f.stores?.close();
    await f.server?.close();
    removeTempDirs();
  });
  afterEach(() => cleanup());
  return f;
}
