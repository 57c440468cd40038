import { useStdout } from 'ink';
import { useCallback } from 'react';
import { useTerminalSize } from './use-terminal-size.js';

/**
 * `/clear` clears the screen as people expect, yet keeps the scrollback (issue 32): instead of
 * ESC[2J (which drops the screen in most terminals) or ESC[3J (which erases the scrollback) the
 * visible rows are scrolled up into the scrollback with line feeds, then the cursor goes back to
 * the top row. Written through Ink's stdout, which first erases its live area and redraws it after,
 * so Ink's idea of where it drew stays right. This is the only place adk empties the screen.
 */
export function scrollAwaySequence(rows: number): string {
  const n = Math.max(1, rows - 1);
  return `${'\n'.repeat(n)}\u001B[${n}A`;
}

export function useScrollAway(): () => void {
  const { stdout, write } = useStdout();
  // The real height (Ink itself may be told another one, see inkStdout).
  const { rows } = useTerminalSize();
  return useCallback(() => {
    if (!stdout.isTTY) return;
    write(scrollAwaySequence(rows));
  }, [stdout, write, rows]);
}
