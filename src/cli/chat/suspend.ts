import { releaseTerminal, type FrameHandOver } from './hand-terminal.js';

/**
 * Ctrl-Z: gives the terminal back to the shell and stops the process as a shell's job control
 * expects; `fg` continues it. The live area is erased first (the shell writes right under the
 * transcript) and painted again under the shell's lines on `fg`, so no copy of it stays behind.
 * Not on Windows, which has no job control.
 */
export function suspendToShell(frame: FrameHandOver): void {
  if (process.platform === 'win32' || !process.stdin.isTTY) return;
  frame.hide();
  const reclaim = releaseTerminal();
  process.once('SIGCONT', () => {
    reclaim();
    frame.show();
  });
  process.kill(process.pid, 'SIGTSTP');
}
