import { useInput, type Key } from 'ink';
import { useCallback, useRef } from 'react';
import { splitControlKeys } from '../input/split-keys.js';
import { useKeyGuard } from './key-guard.js';

export type KeyHandler = (input: string, key: Key) => void;

/**
 * `useInput` with a handler that always sees the latest props and state. Ink re-subscribes a
 * changed handler only after the next commit, so a key arriving in between would otherwise reach
 * a stale closure (a `y` meant for a text field could approve a tool). Control keys that arrived
 * in one chunk are handled one by one. Under a prompt's GuardKeys, keys that arrive before the
 * prompt could have been read are typed-ahead text, never answers.
 */
export function useKeys(handler: KeyHandler, options: { isActive?: boolean } = {}): void {
  const latest = useRef(handler);
  latest.current = handler;
  const guard = useRef(useKeyGuard());
  const stable = useCallback<KeyHandler>((input, key) => {
    for (const [i, k] of splitControlKeys(input, key)) {
      const g = guard.current;
      if (g && !g.armed()) g.typeAhead(i, k);
      else latest.current(i, k);
    }
  }, []);
  useInput(stable, options);
}
