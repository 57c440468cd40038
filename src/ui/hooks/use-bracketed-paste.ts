import { useStdout } from 'ink';
import { useEffect } from 'react';
import { bracketedPasteMode } from '../input/paste.js';

/**
 * Asks the terminal to mark pastes (ESC[200~ … ESC[201~) while mounted, so a pasted newline is
 * text, not Enter. The sequence moves no cursor, so it is written straight to the terminal.
 */
export function useBracketedPaste(enabled = true): void {
  const { stdout } = useStdout();
  useEffect(() => {
    if (!enabled || !stdout.isTTY) return;
    stdout.write(bracketedPasteMode(true));
    return () => {
      stdout.write(bracketedPasteMode(false));
    };
  }, [enabled, stdout]);
}
