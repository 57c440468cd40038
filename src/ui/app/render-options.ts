/**
 * How the REPL is rendered. Ink throttles ordinary frames to `maxFps` (the app's state updates
 * come at the same pace, FRAME_MS) but writes a frame at once, on top of those, whenever <Static>
 * gets new items; streamed paragraphs move there at most every STREAM_COMMIT_MS (200 ms), so a
 * fast stream stays within 25 + 5 = 30 frames a second. Ink wraps each frame in DEC 2026
 * synchronized output on terminals. (Its incrementalRendering option left stale lines behind in
 * tmux, so it stays off.) Terminals that speak the kitty keyboard protocol (kitty, WezTerm, ghostty;
 * confirmed by a query first) are asked to report keys unambiguously, so Shift-Enter is told from
 * Enter; Ink reads those keys and pops the protocol on exit.
 */
export const REPL_RENDER_OPTIONS = { exitOnCtrlC: false, maxFps: 25, kittyKeyboard: { mode: 'auto' } } as const;
