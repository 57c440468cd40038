import { useInput, useStdin } from 'ink';
import { useCallback, useEffect, useRef } from 'react';
import { isForwardDelete, isKittyQueryReply, type AdkKey } from '../input/key.js';
import { splitControlKeys } from '../input/split-keys.js';
import { useKeyGuard } from './key-guard.js';

export type KeyHandler = (input: string, key: AdkKey) => void;

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
  // Ink hands handlers a parsed key only; the raw sequence (heard first) tells Delete from Backspace.
  const raw = useRef('');
  const { internal_eventEmitter: events } = useStdin();
  useEffect(() => {
    const hear = (data: string) => (raw.current = data);
    events?.prependListener('input', hear);
    return () => void events?.removeListener('input', hear);
  }, [events]);
  const stable = useCallback<KeyHandler>((input, parsed) => {
    if (isKittyQueryReply(raw.current)) return;
    const key: AdkKey = parsed.delete && isForwardDelete(raw.current) ? { ...parsed, delete: false, forwardDelete: true } : parsed;
    for (const [i, k] of splitControlKeys(input, key)) {
      const g = guard.current;
      if (g && !g.armed()) g.typeAhead(i, k);
      else latest.current(i, k);
    }
  }, []);
  useInput(stable, options);
}
