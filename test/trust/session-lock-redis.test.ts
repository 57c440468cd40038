import { afterAll, beforeAll, describe, it } from 'vitest';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';
import { tempHome, useServer } from '../cli/helpers.js';
import { racingResumes, scriptShell, waitingSession } from './lock-helpers.js';

// Issue 11, item 4: one writer per session on a real redis-server.
const server = useServer();
let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(() => redis?.stop());

describe('one writer per session on Redis', () => {
  it('20 trials of two simultaneous adk resume --approve: the command runs once, the loser exits 2 naming the holder', async () => {
    scriptShell(server(), 'echo ran >> ran.txt; sleep 1');
    const home = tempHome();
    for (let i = 0; i < 20; i++) await racingResumes(await waitingSession(server(), home, redis.url));
  }, 180_000);
});
