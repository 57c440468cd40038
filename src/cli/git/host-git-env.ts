import { pathOutside } from '../mcp/personal-launch.js';

/**
 * The environment for git run on the host over a workspace: found on a PATH without the workspace's
 * folders (a `node_modules/.bin/git` it planted), with no system config and no key of adk's in reach
 * (only what git needs). Repository settings that run programs are turned off on the command line
 * (`HOST_GIT_SAFE_ARGS`): `.git/config` is writable from the sandbox.
 */
export function hostGitEnv(workspace: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: pathOutside(workspace, process.env.PATH ?? '/usr/bin:/bin') || '/usr/bin:/bin',
    ...(process.env.HOME ? { HOME: process.env.HOME } : {}),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_TERMINAL_PROMPT: '0',
    LC_ALL: 'C',
    ...extra,
  };
}

/** `-c` settings that keep a repository's own config from running anything (fsmonitor hooks) while git reads it. */
export const HOST_GIT_SAFE_ARGS = ['-c', 'core.fsmonitor=false', '-c', 'core.untrackedCache=false'];
