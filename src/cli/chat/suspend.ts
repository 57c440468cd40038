import { bracketedPasteMode } from '../../ui/input/paste.js';

/**
 * Ctrl-Z: gives the terminal back to the shell (cooked mode, cursor shown, no bracketed paste) and
 * stops the process as a shell's job control expects; `fg` continues it, and `redraw` paints the
 * REPL again. Not on Windows, which has no job control.
 */
export function suspendToShell(redraw: () => void): void {
  if (process.platform === 'win32' || !process.stdin.isTTY) return;
  const { stdin, stdout } = process;
  stdout.write(`${bracketedPasteMode(false)}\x1b[?25h\n`);
  stdin.setRawMode(false);
  process.once('SIGCONT', () => {
    stdin.setRawMode(true);
    stdout.write(bracketedPasteMode(true));
    redraw();
  });
  process.kill(process.pid, 'SIGTSTP');
}
