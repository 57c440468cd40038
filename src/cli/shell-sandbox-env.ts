import { insideContainer, type SandboxProbe } from './chat/permission-mode.js';
import { CliError, ExitCode } from './exit-codes.js';

/**
 * How shell commands are sandboxed: ADK_SANDBOX=container (`--sandbox container`) says the container
 * adk runs in is the boundary, for where bwrap cannot work (no user namespaces): commands run in it
 * directly, as with `off`, but only when adk sees a container. Else ADK_SHELL_SANDBOX (or `adk config
 * set shell_sandbox off`): `off` or `auto`. Anything else is a clear error.
 */
export function shellSandboxFromEnv(env: Record<string, string | undefined>, probe?: SandboxProbe): 'auto' | 'off' | undefined {
  if (containerIsTheSandbox(env, probe)) return 'off';
  const v = env.ADK_SHELL_SANDBOX?.trim().toLowerCase();
  if (!v) return undefined;
  if (v === 'off' || v === 'auto') return v;
  throw new CliError(`ADK_SHELL_SANDBOX must be "auto" or "off", not "${env.ADK_SHELL_SANDBOX}"`, ExitCode.usage);
}

/** ADK_SANDBOX=container, checked: refused where adk sees no container (on a host, root or not, it would be no sandbox at all). */
export function containerIsTheSandbox(env: Record<string, string | undefined>, probe?: SandboxProbe): boolean {
  const v = env.ADK_SANDBOX?.trim().toLowerCase();
  if (!v || v === 'bwrap' || v === 'auto') return false;
  if (v !== 'container') throw new CliError(`ADK_SANDBOX (--sandbox) must be "container" or "bwrap", not "${env.ADK_SANDBOX}"`, ExitCode.usage);
  if (!insideContainer(probe)) {
    throw new CliError('--sandbox container (ADK_SANDBOX=container): adk sees no container here (no /.dockerenv, /run/.containerenv, `container` variable or container cgroup), so commands would run on the host unsandboxed. Run adk inside the container, or leave it out to use bwrap.', ExitCode.usage);
  }
  return true;
}

/** What adk says once at start in container mode. */
export const CONTAINER_NOTICE = 'the container is the sandbox (--sandbox container): shell commands, hooks and module tools run in it without bwrap';
