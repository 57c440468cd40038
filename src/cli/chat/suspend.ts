import { releaseTerminal } from './hand-terminal.js';

/**
 * Ctrl-Z: gives the terminal back to the shell and stops the process as a shell's job control
 * expects; `fg` continues it, and `redraw` paints the REPL again. Not on Windows, which has no job control.
 */
export function suspendToShell(redraw: () => void): void {
  if (process.platform === 'win32' || !process.stdin.isTTY) return;
  const reclaim = releaseTerminal();
  process.stdout.write('\n');
  process.once('SIGCONT', () => {
    reclaim();
    redraw();
  });
  process.kill(process.pid, 'SIGTSTP');
}
