import { CliError, ExitCode } from './exit-codes.js';

/** ADK_SHELL_SANDBOX (or `adk config set shell_sandbox off`): `off` or `auto`; anything else is a clear error. */
export function shellSandboxFromEnv(env: Record<string, string | undefined>): 'auto' | 'off' | undefined {
  const v = env.ADK_SHELL_SANDBOX?.trim().toLowerCase();
  if (!v) return undefined;
  if (v === 'off' || v === 'auto') return v;
  throw new CliError(`ADK_SHELL_SANDBOX must be "auto" or "off", not "${env.ADK_SHELL_SANDBOX}"`, ExitCode.usage);
}
