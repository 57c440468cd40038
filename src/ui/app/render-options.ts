/**
 * How the REPL is rendered. Ink throttles ordinary frames to `maxFps` (the app's state updates
 * come at the same pace, FRAME_MS) but writes a frame at once, on top of those, whenever <Static>
 * gets new items; streamed paragraphs move there at most every STREAM_COMMIT_MS (200 ms), so a
 * fast stream stays within 25 + 5 = 30 frames a second. Ink wraps each frame in DEC 2026
 * synchronized output on terminals. (Its incrementalRendering option left stale lines behind in
 * tmux, so it stays off.)
 */
export const REPL_RENDER_OPTIONS = { exitOnCtrlC: false, maxFps: 25 } as const;
