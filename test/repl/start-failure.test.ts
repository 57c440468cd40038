import { describe, expect, it } from 'vitest';
import { startRepl } from '../../src/cli/chat/start-repl.js';
import { lockedNewId } from '../../src/cli/session-access.js';
import { loadTeam } from '../../src/cli/team.js';
import { lockSession } from '../../src/core/store/index.js';
import { replFixture } from './fixture.js';

const f = replFixture();

describe('adk chat failing before its screen opens', () => {
  it('a session that cannot be created (store full, down): the lease is given back and the team closed', async () => {
    const team = await loadTeam(f.teamOptions);
    let closed = 0;
    const close = team.close;
    team.close = async () => {
      closed++;
      await close();
    };
    const { lease } = await lockedNewId(f.stores);
    const sessions = Object.create(f.stores.sessions) as typeof f.stores.sessions;
    sessions.create = async () => {
      throw new Error('SQLITE_FULL: database or disk is full');
    };
    await expect(startRepl({ stores: { ...f.stores, sessions }, team, lease, teamOptions: f.teamOptions })).rejects.toThrow(/disk is full/);
    expect(closed).toBe(1);
    // Free at once, not after the lease's 15 s: `adk resume`/`adk chat` can take the id now.
    const again = await lockSession(f.stores.kv, lease.sessionId);
    await again.release();
  });
});
