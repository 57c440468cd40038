/** How a code manifest (config/code-graph.ts) records what is not a file's bytes, read back when the code is pinned. */

/** The hash recorded for a file that is not there (or is no regular file). */
export const MISSING = '(missing)';
/** The hash recorded for a symbolic link in a folder counted whole: its text after this. */
export const LINK_PREFIX = 'link:';
