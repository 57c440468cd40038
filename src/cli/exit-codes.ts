/** The CLI's exit codes (DESIGN §6). */
export const ExitCode = {
  ok: 0,
  runtimeError: 1,
  usage: 2,
  interrupted: 3,
  cancelled: 130,
} as const;

/** An error the CLI reports as one line on stderr, with the exit code it implies. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = ExitCode.usage,
  ) {
    super(message);
  }
}

/** A session id that matches no session (or several) is a usage error, like any other bad argument. */
const USAGE_ERROR_CODES = new Set(['session_not_found', 'session_ambiguous', 'session_in_use']);

export function exitCodeFor(e: unknown): number {
  if (e instanceof CliError) return e.exitCode;
  const code = (e as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && USAGE_ERROR_CODES.has(code) ? ExitCode.usage : ExitCode.runtimeError;
}

/** The line the CLI prints for an error (after `adk: `): a session that cannot be read also says how to get rid of it. */
export function errorLine(e: unknown): string {
  const err = e as { message?: unknown; code?: unknown; sessionId?: unknown } | undefined;
  const message = e instanceof Error ? e.message : String(e);
  if (err?.code === 'session_corrupt' && typeof err.sessionId === 'string') return `${message}; it cannot be opened: remove it with \`adk sessions delete ${err.sessionId}\``;
  return message;
}
