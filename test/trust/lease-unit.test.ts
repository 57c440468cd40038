import { describe, expect, it } from 'vitest';
import { lockSession, openKeyValueStore, SessionInUseError } from '../../src/core/store/index.js';

// Issue 11, item 4: the lease's own guarantees, on the memory store.
describe('session leases', () => {
  it('one holder at a time; released leases are free; the message names the holder', async () => {
    const kv = await openKeyValueStore('memory:');
    const a = await lockSession(kv, 's1');
    const err = await lockSession(kv, 's1').catch((e) => e);
    expect(err).toBeInstanceOf(SessionInUseError);
    expect(err.message).toMatch(new RegExp(`^session s1 is in use by pid ${process.pid} on \\S+ since \\d{4}-`));
    await a.release();
    const b = await lockSession(kv, 's1');
    await b.release();
  });

  it('a holder whose renewals stop landing for a whole ttl is told to stop (its signal aborts)', async () => {
    const kv = await openKeyValueStore('memory:');
    const lease = await lockSession(kv, 's2', { ttlMs: 300, heartbeatMs: 50 });
    Object.defineProperty(kv, 'leases', { value: { ...kv.leases, renew: async () => Promise.reject(new Error('store down')) } });
    await new Promise((r) => setTimeout(r, 500));
    expect(lease.signal.aborted).toBe(true);
    await lease.release();
  });
});
