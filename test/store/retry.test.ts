import { describe, expect, it } from 'vitest';
import { CancelledError, ConfigError } from '../../src/core/errors.js';
import { StoreError, withRetry } from '../../src/core/store/index.js';

describe('withRetry', () => {
  it('retries failures with backoff until one attempt succeeds', async () => {
    const seen: Array<[number, number]> = [];
    let calls = 0;
    const result = await withRetry(
      async (n) => {
        calls++;
        if (n < 3) throw new StoreError('store_unavailable', `down ${n}`, 'redis://x');
        return 'saved';
      },
      { attempts: 5, baseDelayMs: 5, onRetry: (_e, attempt, delay) => seen.push([attempt, delay]) },
    );
    expect(result).toBe('saved');
    expect(calls).toBe(3);
    expect(seen.map(([a]) => a)).toEqual([1, 2]);
    expect(seen.every(([, d]) => d >= 0 && d <= 2000)).toBe(true);
  });

  it('stops after the bounded number of attempts, keeping the error code', async () => {
    let calls = 0;
    const e = await withRetry(
      async () => {
        calls++;
        throw new StoreError('store_locked', 'store is locked by another process: /x.sqlite', 'sqlite:///x.sqlite');
      },
      { attempts: 3, baseDelayMs: 1, what: 'saving session s1' },
    ).catch((x: unknown) => x);
    expect(calls).toBe(3);
    expect(e).toBeInstanceOf(StoreError);
    expect((e as StoreError).code).toBe('store_locked');
    expect((e as Error).message).toBe('saving session s1 failed after 3 attempts: store is locked by another process: /x.sqlite');
  });

  it('does not retry config errors', async () => {
    let calls = 0;
    const fail = () => {
      calls++;
      return Promise.reject(new ConfigError('bad url'));
    };
    await expect(withRetry(fail, { attempts: 4, baseDelayMs: 1 })).rejects.toThrow('bad url');
    expect(calls).toBe(1);
  });

  it('stops waiting when its signal aborts', async () => {
    const ctrl = new AbortController();
    const p = withRetry(() => Promise.reject(new Error('down')), { attempts: 10, baseDelayMs: 10_000, signal: ctrl.signal });
    setTimeout(() => ctrl.abort(), 20);
    await expect(p).rejects.toBeInstanceOf(CancelledError);
  });
});
