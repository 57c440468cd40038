import path from 'node:path';
import type { AllowRule } from './allow-rules.js';

const PATH_TOOLS = new Set(['read_file', 'write_file', 'edit_file', 'list_dir', 'grep']);
/** What a shell rule can never match (see ruleAllows): such a command gets no prefix rule. */
const SHELL_OPERATORS = /[;&|<>`$(){}\\\n\r!*?[\]~]/;
/**
 * Programs whose every use can destroy or publish something: "don't ask again" for one of them
 * remembers exactly the command approved, never a prefix (approving `rm -rf build` must not allow
 * every `rm`).
 */
const EXACT_ONLY = new Set(['rm', 'rmdir', 'unlink', 'shred', 'truncate', 'dd', 'mkfs', 'fdisk', 'parted', 'wipefs', 'sudo', 'su', 'doas', 'chmod', 'chown', 'chgrp', 'kill', 'killall', 'pkill', 'reboot', 'shutdown', 'halt', 'poweroff', 'crontab', 'find', 'xargs', 'env', 'eval', 'exec',
  // Wrappers and interpreters: what they run is in their arguments (`bash x.sh` as `bash *` would allow `bash -c "rm -rf ."`).
  'time', 'nice', 'nohup', 'timeout', 'stdbuf', 'command', 'builtin', 'watch', 'bash', 'sh', 'zsh', 'dash', 'ksh', 'fish', 'python', 'python3', 'node', 'perl', 'ruby', 'php', 'lua', 'deno', 'bun', 'ssh', 'scp', 'rsync', 'curl', 'wget']);
/** Sub-commands of that kind under a program that is otherwise fine (`git status*` is, `git push*` is not). */
const EXACT_ONLY_SUB: Readonly<Record<string, ReadonlySet<string>>> = {
  git: new Set(['push', 'reset', 'clean', 'branch', 'checkout', 'restore', 'rebase', 'filter-branch', 'filter-repo', 'update-ref', 'reflog', 'gc', 'prune', 'stash', 'rm', 'tag', 'remote', 'config']),
  npm: new Set(['publish', 'unpublish', 'deprecate', 'owner', 'access', 'token', 'exec', 'x']),
  pnpm: new Set(['publish', 'exec', 'dlx']),
  yarn: new Set(['publish', 'npm', 'dlx']),
  npx: new Set(),
  docker: new Set(['rm', 'rmi', 'system', 'volume', 'kill', 'network', 'container', 'image', 'run', 'exec']),
  kubectl: new Set(['delete', 'apply', 'replace', 'patch', 'scale', 'drain', 'exec']),
  terraform: new Set(['apply', 'destroy', 'import', 'state']),
  gh: new Set(['repo', 'release', 'secret', 'api', 'pr', 'workflow']),
};
/** A word that reads as a sub-command (`test`, `status`, `run:dev`), not an option or a path. */
const SUBCOMMAND = /^[A-Za-z][\w:-]*$/;

/**
 * The rule "Yes, and don't ask again" offers for a call: a shell command's prefix (`npm test*` for
 * `npm test -- --watch`, `git status*`, `ls *` for `ls -la src`) or, for a command that destroys or
 * publishes (`rm -rf build`, `git push --force`), exactly that command; a file tool's path (relative to the
 * workspace when given), any other tool as a whole. Undefined when no rule could match the call again
 * (a command with operators, a path outside the workspace).
 */
export function suggestedRule(tool: string, args: unknown, workspace?: string): AllowRule | undefined {
  const a = args && typeof args === 'object' ? (args as Record<string, unknown>) : {};
  if (tool === 'shell') {
    const command = typeof a.command === 'string' ? a.command.trim() : '';
    if (!command || SHELL_OPERATORS.test(command)) return undefined;
    const words = command.split(/\s+/);
    const [first, second] = words;
    // A program named by its path (./build.sh) is allowed as exactly this command; so is one that destroys or publishes.
    if (first.includes('/') || words.length === 1 || EXACT_ONLY.has(first) || /^mkfs\b/.test(first)) return { tool, pattern: command };
    const risky = EXACT_ONLY_SUB[first];
    // An option before the sub-command (`git --no-pager push`) hides which one it is.
    if (risky && (risky.size === 0 || risky.has(second) || second.startsWith('-'))) return { tool, pattern: command };
    if (SUBCOMMAND.test(second)) return { tool, pattern: `${first} ${second}*` };
    return { tool, pattern: `${first} *` };
  }
  if (PATH_TOOLS.has(tool)) {
    const p = typeof a.path === 'string' ? a.path : undefined;
    if (!p) return { tool };
    const rel = relativePath(p, workspace);
    return rel === undefined ? undefined : { tool, pattern: rel };
  }
  return { tool };
}

function relativePath(p: string, workspace: string | undefined): string | undefined {
  let rel = p;
  if (path.isAbsolute(p)) {
    if (!workspace) return p.includes('*') ? undefined : p;
    rel = path.relative(workspace, p);
    if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  }
  rel = path.posix.normalize(rel.split(path.sep).join('/')).replace(/^\.\//, '');
  if (!rel || rel === '.' || rel.startsWith('..') || rel.includes('*')) return undefined;
  return rel;
}
