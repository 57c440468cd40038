import { useEffect, useRef, useState } from 'react';
import { useKeys } from '../hooks/use-keys.js';
import { EXIT_WINDOW_MS, ExitGate } from './exit-gate.js';

export interface ExitKeysOptions {
  busy: boolean;
  hasPrompt: boolean;
  inputEmpty: () => boolean;
  cancel: () => void;
  dismiss: () => void;
  clearInput: () => void;
  onExit: (reason: 'ctrl-c' | 'ctrl-d') => void;
  /** Ctrl-O: show the last collapsed result in full (like /expand). */
  expand: () => void;
  /** Ctrl-Z: suspend to the shell (job control). */
  onSuspend?: (() => void) | undefined;
  /** Ctrl-G: edit the message in $EDITOR. */
  onEditor?: (() => void) | undefined;
  /** Ctrl-B while a run works: its running shell commands go to the background. */
  onBackground?: (() => void) | undefined;
  /** Esc twice on an empty message box with nothing running: `/rewind` (unset while a list or command is open). */
  onRewind?: (() => void) | undefined;
}

/** How soon a second Esc must follow the first to open the rewind list. */
export const REWIND_ESC_MS = 800;
const REWIND_HINT = 'Esc again to rewind';

/**
 * Esc cancels a run. Ctrl-O expands the last collapsed result. Ctrl-C cancels a run; otherwise it leaves the prompts or clears the
 * input and arms the exit: a second Ctrl-C within 2 s exits. Ctrl-D exits on an empty input. Returns the hint to show.
 */
export function useExitKeys(o: ExitKeysOptions): string | undefined {
  const gate = useRef(new ExitGate());
  const [hint, setHint] = useState<string>();
  useEffect(() => {
    if (!hint) return;
    const t = setTimeout(() => setHint(undefined), EXIT_WINDOW_MS);
    return () => clearTimeout(t);
  }, [hint]);
  // Text that came in the same chunk as a Ctrl-D is in the box even if the box has not said so yet.
  const typedInChunk = useRef(false);
  const lastEsc = useRef(0);
  useKeys((input, key) => {
    if (input && !key.ctrl && !key.meta && !typedInChunk.current) {
      typedInChunk.current = true;
      queueMicrotask(() => (typedInChunk.current = false));
    }
    if (key.ctrl && input === 'c') {
      if (o.busy) {
        // Cancelling a run never arms the exit (issue 32): a second, impatient Ctrl-C while the run
        // winds down must not quit adk; only Ctrl-C twice at an idle prompt does.
        o.cancel();
        o.clearInput();
        gate.current.reset();
        setHint(undefined);
        return;
      }
      if (o.hasPrompt) o.dismiss();
      o.clearInput();
      if (gate.current.press() === 'exit') return o.onExit('ctrl-c');
      setHint('Press Ctrl-C again to exit');
      return;
    }
    if (key.ctrl && input === 'o') return o.expand();
    if (key.ctrl && input === 'z') return o.onSuspend?.();
    if (key.ctrl && input === 'b' && o.busy) return o.onBackground?.();
    if (key.ctrl && input === 'g' && !o.hasPrompt) return o.onEditor?.();
    if (key.ctrl && input === 'd') {
      if (!o.busy && !o.hasPrompt && o.inputEmpty() && !typedInChunk.current) o.onExit('ctrl-d');
      return;
    }
    if (key.escape && o.busy) o.cancel();
    else if (key.escape && o.onRewind && !o.hasPrompt && o.inputEmpty()) {
      const now = Date.now();
      if (now - lastEsc.current <= REWIND_ESC_MS) {
        lastEsc.current = 0;
        setHint(undefined);
        return o.onRewind();
      }
      lastEsc.current = now;
      setHint(REWIND_HINT);
      // The hint lasts as long as the second Esc would count.
      setTimeout(() => setHint((h) => (h === REWIND_HINT ? undefined : h)), REWIND_ESC_MS);
    }
  });
  return hint;
}
