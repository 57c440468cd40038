import { realpathSync } from 'node:fs';
import path from 'node:path';
import { realOrSelf } from '../fs-checks.js';
import { denyView } from './shell-deny.js';

/**
 * Calls a person allowed ahead of time, as `tool` or `tool(pattern)`: `shell(git status*)`,
 * `shell(npm test)`, `read_file`, `write_file(docs/*)`, `fetch_url(https://docs.example.com/*)`,
 * `fetch_url(domain:example.com)`. A pattern matches the whole command (shell), path (file tools) or
 * URL (fetch_url, as the URL parser writes it; `domain:` a host and its subdomains); `*` stands for any text. A shell command with operators, substitutions or
 * redirections never matches a pattern (`git status; rm -rf ~` is not `git status*`).
 */
export interface AllowRule {
  tool: string;
  pattern?: string | undefined;
  /** Where it was written (for `/tools`): `agents.yaml`, `adk config`. */
  source?: string | undefined;
}

const RULE = /^([A-Za-z0-9_-]{1,64})(?:\((.+)\))?$/;
const SHELL_OPERATORS = /[;&|<>`$(){}\\\n\r!*?[\]~]/;
const PATH_TOOLS = new Set(['read_file', 'write_file', 'edit_file', 'list_dir', 'grep']);

/** Parses one rule; a string says what is wrong with it. */
export function parseAllowRule(text: string): AllowRule | string {
  const m = RULE.exec(text.trim());
  if (!m) return `'${text}' is not a rule: write a tool name, or tool(pattern) such as shell(git status*)`;
  const [, tool, pattern] = m;
  if (pattern !== undefined && tool !== 'shell' && tool !== 'fetch_url' && !PATH_TOOLS.has(tool)) {
    return `'${text}': patterns are for shell (its command), the file tools (their path) and fetch_url (its URL); write just '${tool}'`;
  }
  return pattern === undefined ? { tool } : { tool, pattern: pattern.trim() };
}

/**
 * Whether `rule` lets this call run unasked. A file tool's path is matched as it resolves inside
 * `workspace` (symbolic links followed, as the tool will open it): a link `docs/up -> ..` shipped in
 * a repository does not make `docs/up/package.json` a `docs/*` path. A path that resolves outside
 * the workspace never matches.
 */
export function ruleAllows(rule: AllowRule, tool: string, args: unknown, workspace?: string): boolean {
  if (rule.tool !== tool) return false;
  if (rule.pattern === undefined) return true;
  const a = args && typeof args === 'object' ? (args as Record<string, unknown>) : {};
  if (tool === 'shell') {
    const command = typeof a.command === 'string' ? a.command.trim() : undefined;
    return command !== undefined && !SHELL_OPERATORS.test(command) && globMatch(rule.pattern, command);
  }
  if (tool === 'fetch_url') return urlMatches(rule.pattern, a.url);
  const p = typeof a.path === 'string' ? a.path : undefined;
  if (p === undefined || p.split(/[\\/]/).includes('..')) return false;
  const pattern = rule.pattern.replace(/^\.\//, '');
  if (workspace === undefined) return globMatch(pattern, p.replace(/^\.\//, ''));
  const resolved = resolvedInside(workspace, p);
  return resolved !== undefined && globMatch(pattern, resolved);
}

/**
 * A fetch_url pattern against the URL as it will be fetched: both parsed (`HTTP://Example.COM./a/../b`
 * is `http://example.com/b`, `127.1` is `127.0.0.1`), without user info (`https://x.com@evil.net/` is
 * evil.net) or fragment, escaped unreserved characters written plainly (`%2D` is `-`, RFC 3986
 * §6.2.2.2). A deny rule (`wide`) also ignores the scheme: http and https are one place.
 */
function urlMatches(pattern: string, url: unknown, wide = false): boolean {
  if (typeof url !== 'string') return false;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (pattern.startsWith('domain:')) {
    const domain = pattern.slice('domain:'.length).trim().toLowerCase().replace(/\.$/, '');
    const host = u.hostname.toLowerCase().replace(/\.$/, '');
    return host === domain || host.endsWith(`.${domain}`);
  }
  let wanted: string;
  try {
    // A `*` in the pattern's path survives parsing as itself (or as %2A, put back).
    wanted = urlKey(new URL(pattern), wide).replace(/%2A/gi, '*');
    // The parser gives a URL without a path the path `/`: `https://x.com*` is not `https://x.com*/`.
    if (!/^[a-z][\w+.-]*:\/\/[^/]*\//i.test(pattern)) wanted = wanted.replace(/\/$/, '');
  } catch {
    wanted = plainEscapes(pattern); // not a URL: matched as written
  }
  return globMatch(wanted, urlKey(u, wide));
}

function urlKey(u: URL, wide: boolean): string {
  const host = u.hostname.toLowerCase().replace(/\.$/, '');
  return plainEscapes(`${wide ? '' : `${u.protocol}//`}${host}${u.port ? `:${u.port}` : ''}${u.pathname}${u.search}`);
}

function plainEscapes(s: string): string {
  return s.replace(/%([0-9A-Fa-f]{2})/g, (m, h: string) => (/[A-Za-z0-9\-._~]/.test(String.fromCharCode(parseInt(h, 16))) ? String.fromCharCode(parseInt(h, 16)) : m.toUpperCase()));
}

/**
 * Whether a deny `rule` forbids this call. Denying errs wide where allowing errs narrow: a shell
 * command is split at its operators (`a && b`, `a | b`, `a; b`), substitutions (`$(…)`, backticks)
 * and `sh -c '…'` bodies, and each simple command, past wrappers (`sudo`, `env VAR=…`, `command`,
 * `exec`, `nice`, `nohup`, `time`, `timeout N`, `xargs`), is matched on its own: `ls && rm -rf x` is
 * an `rm*` command. A file tool's path is matched however it is spelled (`sub/../.env` is `.env`).
 * The shell sandbox stays the boundary: a deny rule cannot see into a script the command runs.
 */
export function ruleDenies(rule: AllowRule, tool: string, args: unknown, workspace?: string): boolean {
  // Editing a file shows what it holds (a diff, "old text not found"): a file denied to read is denied to edit.
  if (rule.tool !== tool && !(rule.tool === 'read_file' && tool === 'edit_file')) return false;
  if (rule.pattern === undefined) return true;
  const a = args && typeof args === 'object' ? (args as Record<string, unknown>) : {};
  if (tool === 'shell') {
    const command = typeof a.command === 'string' ? a.command : undefined;
    if (command === undefined) return false;
    const view = denyView(command);
    return view.opaque || view.commands.some((c) => globMatch(rule.pattern!, c));
  }
  if (tool === 'fetch_url') return urlMatches(rule.pattern, a.url, true);
  const p = typeof a.path === 'string' ? a.path : undefined;
  if (p === undefined) return false;
  const pattern = rule.pattern.replace(/^\.\//, '');
  if (workspace === undefined) return globMatch(pattern, path.posix.normalize(p).replace(/^\.\//, ''));
  const inside = resolvedInside(workspace, p);
  return inside !== undefined ? globMatch(pattern, inside) : globMatch(pattern, path.resolve(realOrSelf(workspace), p));
}

/** `p` relative to the workspace after following links (the deepest part that exists), or undefined outside it. */
function resolvedInside(workspace: string, p: string): string | undefined {
  const root = realOrSelf(workspace);
  let existing = path.resolve(root, p);
  const rest: string[] = [];
  for (;;) {
    try {
      existing = realpathSync(existing);
      break;
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) return undefined;
      rest.unshift(path.basename(existing));
      existing = parent;
    }
  }
  const rel = path.relative(root, path.join(existing, ...rest));
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  return rel.split(path.sep).join('/');
}


/**
 * `*` matches any text (newlines too), everything else itself. Greedy with one backtrack point (the
 * last `*`), so time stays within pattern × text: a rule from a client or a settings file full of `*`
 * cannot stall the process on a long command, as a backtracking regular expression would.
 */
function globMatch(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let mark = 0;
  while (t < text.length) {
    if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      mark = t;
    } else if (p < pattern.length && pattern[p] === text[t]) {
      p++;
      t++;
    } else if (star !== -1) {
      p = star + 1;
      t = ++mark;
    } else return false;
  }
  while (pattern[p] === '*') p++;
  return p === pattern.length;
}

export function formatRule(rule: AllowRule): string {
  return rule.pattern === undefined ? rule.tool : `${rule.tool}(${rule.pattern})`;
}
