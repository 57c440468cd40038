import { describe, expect, it } from 'vitest';
import { ChatModelAgent, ScriptedChatModel } from '../../src/core/index.js';
import { lockSession, openAdkStores } from '../../src/core/store/index.js';
import { ServerStoppingError, UnknownSessionError } from '../../src/serve/served-session.js';
import { SessionHub } from '../../src/serve/session-hub.js';

// A request still in flight when `adk serve` starts stopping must not open a session the stop has
// already passed: it would keep its lease and its team's tools (MCP servers) after the server closed.
async function hubWithSlowTeam() {
  const stores = await openAdkStores('memory://');
  let closedTeams = 0;
  let release!: () => void;
  const loading = new Promise<void>((resolve) => (release = resolve));
  const team = () => ({
    agent: new ChatModelAgent({ name: 'assistant', description: 'helps', model: new ScriptedChatModel([]) }),
    close: async () => void closedTeams++,
  });
  const options = {
    stores,
    // The team loads slowly (an MCP server starting): the stop begins meanwhile.
    newTeam: async () => (await loading, team()),
    sessionTeam: async () => (await loading, team()),
  };
  return { stores, hub: new SessionHub(options), another: () => new SessionHub(options), release, closed: () => closedTeams };
}

describe('adk serve stopping while requests are in flight', () => {
  it('a session being created when the stop begins is refused (503) and its team closed, its id free', async () => {
    const { stores, hub, release, closed } = await hubWithSlowTeam();
    const creating = hub.create({});
    const stopping = hub.close({ cancel: true });
    release();
    await expect(creating).rejects.toBeInstanceOf(ServerStoppingError);
    await stopping;
    expect(closed()).toBe(1);
    expect(await stores.sessions.list()).toEqual([]);
    await stores.close();
  });

  it('a saved session asked for when the stop has begun is refused and stays free', async () => {
    const { stores, hub, another, release, closed } = await hubWithSlowTeam();
    release();
    const first = await hub.create({});
    await hub.close();
    const again = another();
    const stopping = again.close({ cancel: true });
    await expect(again.get(first.id)).rejects.toBeInstanceOf(ServerStoppingError);
    await stopping;
    // Nobody holds it: another server can take it at once.
    await (await lockSession(stores.kv, first.id)).release();
    expect(closed()).toBe(1);
    await stores.close();
  });

  it('a session a request already held when the stop closed it starts no turn', async () => {
    const { stores, hub, release } = await hubWithSlowTeam();
    release();
    const live = await hub.create({});
    await hub.close({ cancel: true });
    expect(() => live.run({ content: 'hello' })).toThrow(ServerStoppingError);
    await stores.close();
  });

  it('the stop beginning while a request looks the id up, or while the session record is written: refused, nothing kept', async () => {
    const { stores, hub, another, release, closed } = await hubWithSlowTeam();
    release();
    const first = await hub.create({});
    await hub.close();
    const looking = another();
    const getting = looking.get(first.id.slice(0, 6)); // a prefix: looked up in the store first
    const stopping = looking.close({ cancel: true });
    await expect(getting).rejects.toBeInstanceOf(ServerStoppingError);
    await stopping;
    // The record is written while the stop begins: the new session is deleted again and its team closed.
    let written!: () => void;
    const writing = new Promise<void>((resolve) => (written = resolve));
    const sessions = Object.create(stores.sessions) as typeof stores.sessions;
    sessions.create = async (init) => {
      const record = await stores.sessions.create(init);
      await writing;
      return record;
    };
    let closedLater = 0;
    const slowStore = new SessionHub({
      stores: { ...stores, sessions },
      newTeam: async () => ({ agent: new ChatModelAgent({ name: 'a', description: 'd', model: new ScriptedChatModel([]) }), close: async () => void closedLater++ }),
      sessionTeam: async () => {
        throw new Error('unused');
      },
    });
    const creating = slowStore.create({});
    await new Promise((r) => setTimeout(r, 50));
    const stopping2 = slowStore.close({ cancel: true });
    written();
    await expect(creating).rejects.toBeInstanceOf(ServerStoppingError);
    await stopping2;
    expect(closedLater).toBe(1);
    expect((await stores.sessions.list()).map((s) => s.id)).toEqual([first.id]);
    expect(closed()).toBe(1);
    await stores.close();
  });

  it('a session deleted while a request still held it: that request is told it is gone (404), not that the server stops', async () => {
    const { stores, hub, release } = await hubWithSlowTeam();
    release();
    const live = await hub.create({});
    await hub.delete(live.id);
    expect(() => live.run({ content: 'hello' })).toThrow(UnknownSessionError);
    await hub.close();
    await stores.close();
  });
});
