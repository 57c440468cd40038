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
