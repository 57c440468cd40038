import { Box, measureElement, useStdout, type DOMElement } from 'ink';
import { useLayoutEffect, useRef, type ReactNode } from 'react';

/**
 * The REPL's live area (everything under the transcript) around a hand-over of the terminal to
 * another program ($EDITOR on Ctrl-G, the shell on Ctrl-Z). It is erased before the hand-over, so the
 * other program starts right under the transcript and no copy of the input box or the status line
 * stays behind. Ink still believes its last frame is on screen (its `clear` says so), and its next
 * frame erases that many lines from wherever the cursor is: that took the end of the answer above
 * with it. So before Ink paints again, as many blank lines are written as the frame had: they are
 * what it erases.
 */
export class LiveFrame {
  private clear?: () => void;
  private write?: (data: string) => void;
  /** Rows of the last frame (the app's root box; <Static> is not part of it). */
  private rows = 0;

  attach(instance: { clear(): void }): void {
    this.clear = instance.clear;
  }

  /** Erases the live area; the transcript above stays. */
  hide(): void {
    this.clear?.();
  }

  /** Paints the live area again where the cursor is now (under whatever the other program wrote). */
  show(): void {
    if (!this.write) return;
    // Ink's frame ends with a newline: the cursor sits `rows` lines under the frame's first line.
    process.stdout.write('\n'.repeat(this.rows));
    // Ink erases its last frame's lines (now the blank ones), writes this, then paints the frame again.
    this.write('');
  }

  /** Wraps the app once: lends `show` Ink's writer and measures the frame. */
  readonly Root = ({ children }: { children: ReactNode }) => {
    this.write = useStdout().write;
    const root = useRef<DOMElement>(null);
    useLayoutEffect(() => {
      if (root.current) this.rows = measureElement(root.current).height;
    });
    return (
      <Box ref={root} flexDirection="column">
        {children}
      </Box>
    );
  };
}
