/** The `adk resume` options that answer what a session waits for: with any of them it runs headless. */
export const ANSWER_OPTIONS = ['approve', 'reject', 'always', 'input', 'targets', 'raise'] as const;

/** The flags with which `adk resume` never opens the REPL (boot decides on them before parsing). */
export const HEADLESS_RESUME_FLAGS: ReadonlySet<string> = new Set(['--json', '--on-approval', ...ANSWER_OPTIONS.map((o) => `--${o}`)]);
