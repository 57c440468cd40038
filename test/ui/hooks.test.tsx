import { Text } from 'ink';
import { cleanup, render } from 'ink-testing-library';
import { useEffect } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { useBatchedReducer } from '../../src/ui/hooks/use-batched-reducer.js';
import { useThrottledValue } from '../../src/ui/hooks/use-throttled-value.js';
import { plain, tick } from './helpers.js';

afterEach(() => cleanup());

describe('useThrottledValue', () => {
  it('lets through at most one change per interval and always ends on the latest value', async () => {
    const seen: number[] = [];
    function Show({ value }: { value: number }) {
      const shown = useThrottledValue(value, 50);
      seen.push(shown);
      return <Text>{shown}</Text>;
    }
    const r = render(<Show value={0} />);
    for (let i = 1; i <= 20; i++) r.rerender(<Show value={i} />);
    await tick(120);
    expect(plain(r.lastFrame())).toBe('20');
    expect(new Set(seen).size).toBeLessThan(6);
  });
});

describe('useBatchedReducer', () => {
  it('applies a burst of dispatches in one update, in order', async () => {
    let renders = 0;
    function Counter() {
      const [log, dispatch] = useBatchedReducer((s: string, a: string) => s + a, () => '', { frameMs: 30 });
      renders++;
      useEffect(() => {
        for (const c of 'abcdefghij') dispatch(c);
      }, [dispatch]);
      return <Text>{log || '-'}</Text>;
    }
    const r = render(<Counter />);
    await tick(80);
    expect(plain(r.lastFrame())).toBe('abcdefghij');
    expect(renders).toBeLessThanOrEqual(3);
  });
});
