import { useCallback, useEffect, useReducer, useRef } from 'react';
import { FrameBatcher } from './frame-batcher.js';

/** 25 state updates a second: one per frame Ink draws (REPL_RENDER_OPTIONS.maxFps). */
export const FRAME_MS = 40;

export interface BatchedDispatch<A> {
  (action: A): void;
  /** Applies the queued actions now. */
  flush(): void;
}

/**
 * `useReducer` whose dispatch is batched per frame. Queued actions are applied in order in one
 * state update; `coalesce` may merge them first (e.g. consecutive deltas of one stream).
 */
export function useBatchedReducer<S, A>(
  reducer: (state: S, action: A) => S,
  init: () => S,
  options: { frameMs?: number; coalesce?: (actions: A[]) => A[] } = {},
): [S, BatchedDispatch<A>] {
  const [state, apply] = useReducer((s: S, actions: A[]) => actions.reduce(reducer, s), undefined, init);
  const batcher = useRef<FrameBatcher<A>>(null);
  batcher.current ??= new FrameBatcher<A>(apply, options.frameMs ?? FRAME_MS, options.coalesce);
  useEffect(() => () => batcher.current?.dispose(), []);
  const dispatch = useCallback((a: A) => batcher.current!.push(a), []) as BatchedDispatch<A>;
  dispatch.flush = useCallback(() => batcher.current!.flush(), []);
  return [state, dispatch];
}
