import type { Key } from 'ink';
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { useArmed } from './use-armed.js';

/** Holds back the keys of everything below it until it has been on screen for a moment. */
export interface KeyGuard {
  armed(): boolean;
  /** Holds keys back again, e.g. for a prompt's second step. */
  rearm(): void;
  /** A key that arrived too early: typed ahead, meant for the message box, never an answer. */
  typeAhead(input: string, key: Key): void;
}

const KeyGuardContext = createContext<KeyGuard | undefined>(undefined);

export function useKeyGuard(): KeyGuard | undefined {
  return useContext(KeyGuardContext);
}

export interface GuardKeysProps {
  /** How long the keys are held back (default PROMPT_ARM_MS; 0 turns the guard off). */
  armMs?: number;
  /** Receives the printable text typed during that time. */
  onTypeAhead?: (text: string) => void;
  children: ReactNode;
}

/** Wraps a prompt: keys typed before it could have been read go to `onTypeAhead`, not to the prompt. */
export function GuardKeys({ armMs, onTypeAhead, children }: GuardKeysProps) {
  const arming = useArmed(armMs);
  const guard = useMemo<KeyGuard>(
    () => ({
      armed: arming.armed,
      rearm: arming.rearm,
      typeAhead(input, key) {
        arming.touch();
        if (key.ctrl || key.meta || key.escape || key.return || key.tab || key.backspace || key.delete) return;
        if (key.upArrow || key.downArrow || key.leftArrow || key.rightArrow || key.pageUp || key.pageDown) return;
        if (input) onTypeAhead?.(input);
      },
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );
  return <KeyGuardContext.Provider value={guard}>{children}</KeyGuardContext.Provider>;
}
