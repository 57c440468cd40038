import { useRef } from 'react';

/** How long a prompt must have been on screen, with no key typed, before a key counts as its answer. */
export const PROMPT_ARM_MS = 400;

export interface Arming {
  /** The prompt has been readable, with the keyboard quiet, for the whole delay. */
  armed(): boolean;
  /** A key arrived too early: the quiet period starts over (someone is still typing). */
  touch(): void;
  /** Starts the wait over (a prompt's second step, such as confirming "always"). */
  rearm(): void;
}

/**
 * Whether a prompt may take an answer. Keys a person was already typing when it appeared
 * (type-ahead) must not approve anything: the prompt arms only after `delayMs` with no key at all,
 * so a fast typist's `…may` cannot approve "always".
 */
export function useArmed(delayMs: number = PROMPT_ARM_MS): Arming {
  const quietSince = useRef<number>(undefined);
  quietSince.current ??= Date.now();
  const arming = useRef<Arming>(undefined);
  arming.current ??= {
    armed: () => Date.now() - quietSince.current! >= delayMs,
    touch: () => void (quietSince.current = Date.now()),
    rearm: () => void (quietSince.current = Date.now()),
  };
  return arming.current;
}
