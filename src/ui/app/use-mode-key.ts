import { useKeys } from '../hooks/use-keys.js';

/** Shift-Tab cycles the permission mode (as in Claude Code), whatever else is on screen. */
export function useModeKey(onCycle: (() => void) | undefined): void {
  useKeys(
    (_input, key) => {
      if (key.tab && key.shift) onCycle?.();
    },
    { isActive: !!onCycle },
  );
}
