/**
 * How the REPL is rendered. Ink throttles ordinary frames to `maxFps` but writes a frame at once
 * whenever <Static> gets new items (committed paragraphs), on top of the throttled ones; 24
 * leaves room for those so the total stays within ~30 frames a second. Ink wraps each frame
 * in DEC 2026 synchronized output on terminals. (Its incrementalRendering option left stale lines
 * behind in tmux, so it stays off.)
 */
export const REPL_RENDER_OPTIONS = { exitOnCtrlC: false, maxFps: 24 } as const;
