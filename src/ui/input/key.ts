import type { Key } from 'ink';

/**
 * Ink's key, plus what Ink reports the same way: the forward Delete key (`ESC[3~`) and Backspace
 * (DEL, 0x7f) are both `delete` there; `forwardDelete` marks the first.
 */
export type AdkKey = Key & { forwardDelete?: boolean };

/**
 * The terminal's answer to the kitty keyboard protocol query (`ESC[?<flags>u`), which Ink sends at
 * start: it arrives on stdin like a key, but nobody typed it.
 */
export const isKittyQueryReply = (raw: string) => /^\x1b\[\?\d*u$/.test(raw);

/** Whether a raw input sequence is the forward Delete key (plain or with modifiers, e.g. `ESC[3;5~`). */
export const isForwardDelete = (raw: string) => /^\x1b\[3(;\d+)?~$/.test(raw);
