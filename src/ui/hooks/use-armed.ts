import { useRef } from 'react';

/** How long a prompt must have been on screen before a key counts as its answer. */
export const PROMPT_ARM_MS = 400;

/**
 * Whether a prompt has been visible long enough to take an answer. Keys a person was already
 * typing when it appeared (type-ahead) must not approve anything: they arrive within a few hundred
 * milliseconds, before anyone could have read the prompt.
 */
export function useArmed(delayMs: number = PROMPT_ARM_MS): () => boolean {
  const shownAt = useRef<number>(undefined);
  shownAt.current ??= Date.now();
  return () => Date.now() - shownAt.current! >= delayMs;
}
