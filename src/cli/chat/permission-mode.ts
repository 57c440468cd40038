import { existsSync, readFileSync } from 'node:fs';

export { PERMISSION_MODES, parsePermissionMode, permissionModePolicy, type PermissionMode } from '../../core/conversation/permission-modes.js';
import { PERMISSION_MODES, parsePermissionMode, type PermissionMode } from '../../core/conversation/permission-modes.js';

/** The next mode for Shift-Tab; bypass is in the cycle only when it was allowed at start. */
export function nextPermissionMode(mode: PermissionMode, bypassAllowed: boolean): PermissionMode {
  const cycle = PERMISSION_MODES.filter((m) => m !== 'bypass' || bypassAllowed);
  return cycle[(cycle.indexOf(mode) + 1) % cycle.length]!;
}

/** The status line's words for a mode (nothing for the default). */
export function permissionModeLabel(mode: PermissionMode): string | undefined {
  switch (mode) {
    case 'accept-edits':
      return '⏵⏵ accept edits (shift+tab)';
    case 'plan':
      return '⏸ plan mode (shift+tab)';
    case 'bypass':
      return '⚠ bypass permissions (shift+tab)';
    default:
      return undefined;
  }
}

export interface SandboxProbe {
  uid: number | undefined;
  env: NodeJS.ProcessEnv;
  exists: (path: string) => boolean;
  read: (path: string) => string | undefined;
}

const hostProbe = (): SandboxProbe => ({
  uid: process.getuid?.(),
  env: process.env,
  exists: existsSync,
  read: (p) => {
    try {
      return readFileSync(p, 'utf8');
    } catch {
      return undefined;
    }
  },
});

/**
 * Whether adk runs inside a container (or flatpak's sandbox): the `container` variable that podman,
 * systemd-nspawn and others set, Docker's and podman's marker files, or PID 1's cgroups.
 */
export function insideContainer(probe: SandboxProbe = hostProbe()): boolean {
  if (probe.env.container) return true;
  if (probe.exists('/.dockerenv') || probe.exists('/run/.containerenv') || probe.exists('/.flatpak-info')) return true;
  return /docker|kubepods|containerd|lxc|podman/.test(probe.read('/proc/1/cgroup') ?? '');
}

/**
 * Why `--dangerously-skip-permissions` is refused here, if it is: as root outside any sandbox
 * (no container, no bwrap), a model could change the whole machine unasked. Claude Code refuses
 * the same; `IS_SANDBOX=1` says the machine is a throwaway one.
 */
export function bypassRefusal(probe: SandboxProbe = hostProbe()): string | undefined {
  if (probe.uid !== 0) return undefined;
  if (probe.env.IS_SANDBOX === '1' || insideContainer(probe)) return undefined;
  return '--dangerously-skip-permissions cannot be used as root outside a sandbox: every command would run as root unasked. Run adk as another user, or in a container (or set IS_SANDBOX=1 if this machine is a throwaway one).';
}

/** How `adk chat` starts: `--permission-mode`, else the settings' `permissions.defaultMode`, else default. */
export interface StartingMode {
  mode: PermissionMode;
  /** `--dangerously-skip-permissions` was given: bypass is in the Shift-Tab cycle. */
  bypassAllowed: boolean;
}

/**
 * The mode `adk chat` starts in. Bypass needs `--dangerously-skip-permissions` (a settings file or a
 * flag alone cannot turn it on), and is refused as root outside a sandbox. Errors are for the person.
 */
export function startingMode(o: { permissionMode?: string; dangerouslySkipPermissions?: boolean; defaultMode?: string }, probe?: SandboxProbe): StartingMode | { error: string } {
  const bypassAllowed = o.dangerouslySkipPermissions === true;
  if (bypassAllowed) {
    const refused = bypassRefusal(probe);
    if (refused) return { error: refused };
  }
  let mode: PermissionMode = 'default';
  if (o.permissionMode !== undefined) {
    const m = parsePermissionMode(o.permissionMode);
    if (!m) return { error: `--permission-mode ${o.permissionMode}: expected one of ${PERMISSION_MODES.join(', ')}` };
    mode = m;
  } else if (o.defaultMode !== undefined) {
    // A settings file naming an unknown mode (or bypass without the flag) starts in the default mode.
    mode = parsePermissionMode(o.defaultMode) ?? 'default';
  } else if (bypassAllowed) {
    mode = 'bypass';
  }
  if (mode === 'bypass' && !bypassAllowed) {
    if (o.permissionMode !== undefined) return { error: '--permission-mode bypass needs --dangerously-skip-permissions' };
    mode = 'default';
  }
  return { mode, bypassAllowed };
}
