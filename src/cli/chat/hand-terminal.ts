import { bracketedPasteMode } from '../../ui/input/paste.js';

/** The REPL's live area around a hand-over (see LiveFrame): erased before, painted again after. */
export interface FrameHandOver {
  hide(): void;
  show(): void;
}

/**
 * Gives the terminal to another program (the shell after Ctrl-Z, $EDITOR after Ctrl-G): cooked
 * mode, cursor shown, no bracketed paste. The returned function takes it back for the REPL.
 */
export function releaseTerminal(): () => void {
  const { stdin, stdout } = process;
  stdout.write(`${bracketedPasteMode(false)}\x1b[?25h`);
  if (stdin.isTTY) stdin.setRawMode(false);
  return () => {
    if (stdin.isTTY) stdin.setRawMode(true);
    stdout.write(bracketedPasteMode(true));
  };
}
