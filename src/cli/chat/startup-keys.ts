import { dieBySignal } from '../signals.js';
import { KITTY_QUERY, KittyAnswers, mayAnswerKitty } from './kitty-query.js';

const CTRL_C = 0x03;

/** Keys typed while `adk chat` starts, before Ink reads them. */
export interface StartupKeys {
  /** Gives the keys read so far back to stdin (where Ink reads them) and stops reading. */
  handOver(): void;
  /** Reads again (after a prompt of its own, such as the trust question, has closed and left the terminal cooked). */
  resume(): void;
  /** Stops reading for good (adk chat ends before its REPL): stdin no longer keeps the process alive. */
  stop(): void;
  /** Whether the terminal speaks the kitty keyboard protocol (undefined: it was not asked). */
  kittyKeyboard(): Promise<boolean | undefined>;
}

/**
 * The terminal is raw from adk chat's first moment (boot.ts: type-ahead reaches the message box,
 * not the screen), so Ctrl-C is a key, not SIGINT, until the REPL reads keys itself. Loading the
 * team can take long (an MCP server may take up to 30 s to start), and Ctrl-C must still work
 * within a second: this reads the keys meanwhile, keeps them for the REPL, and on Ctrl-C gives the
 * terminal back and ends the process as SIGINT would.
 */
export function watchStartupKeys(stdin: NodeJS.ReadStream = process.stdin, stdout: NodeJS.WriteStream = process.stdout): StartupKeys {
  const kept: Buffer[] = [];
  // Asked now, while this reader listens, so the answer is never lost to a busy start (kitty-query.ts).
  const kitty = stdout.isTTY && mayAnswerKitty() ? new KittyAnswers() : undefined;
  // 'readable' and read(), as Ink reads: the stream stays in the mode Ink expects when it takes over.
  const onReadable = () => {
    let chunk: Buffer | string | null;
    while ((chunk = stdin.read()) !== null) {
      const read = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      const bytes = kitty ? kitty.take(read) : read;
      if (bytes.includes(CTRL_C)) {
        stdin.setRawMode?.(false);
        return dieBySignal('SIGINT');
      }
      kept.push(bytes);
    }
  };
  let reading = false;
  const resume = () => {
    if (reading) return;
    reading = true;
    stdin.setRawMode?.(true);
    stdin.ref();
    stdin.on('readable', onReadable);
  };
  resume();
  if (kitty) stdout.write(KITTY_QUERY);
  return {
    handOver() {
      if (!reading) return;
      reading = false;
      stdin.off('readable', onReadable);
      if (kitty) kept.push(kitty.leftover());
      if (kept.some((b) => b.length)) stdin.unshift(Buffer.concat(kept.splice(0)));
    },
    resume,
    stop() {
      if (!reading) return;
      reading = false;
      stdin.off('readable', onReadable);
      stdin.unref();
    },
    kittyKeyboard: async () => (kitty ? kitty.supported() : undefined),
  };
}
