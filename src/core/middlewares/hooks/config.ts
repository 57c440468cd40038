/**
 * Hooks as Claude Code's settings write them, so a `hooks` block can be copied between the two:
 *
 * ```json
 * { "hooks": { "PreToolUse": [{ "matcher": "shell|write_file", "hooks": [{ "type": "command", "command": "./check.sh", "timeout": 60 }] }] } }
 * ```
 *
 * The same shape sits under `hooks:` in agents.yaml and in the library's hooksMiddleware options.
 */
export const HOOK_EVENTS = ['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'Stop', 'SubagentStop', 'SessionStart', 'PreCompact', 'Notification'] as const;
/** A point in a run where hooks run: Claude Code's event names. */
export type HookEvent = (typeof HOOK_EVENTS)[number];

/**
 * One command a hook runs: `timeout` in seconds (default 60). Where the caller sandboxes hooks (adk's
 * CLI), it runs inside the shell's sandbox; adk's own keys say otherwise: `sandbox: off` runs it on the
 * host, `network: true` lets it use the network. In a folder's files both are powers the person trusts.
 */
export interface HookCommand {
  type: 'command';
  command: string;
  timeout?: number | undefined;
  sandbox?: 'off' | undefined;
  network?: boolean | undefined;
}

/** A matcher and its commands; `source` names the file it came from (for `/hooks`). */
export interface HookGroup {
  matcher?: string | undefined;
  hooks: HookCommand[];
  source?: string | undefined;
}

/** Hooks by event, as Claude Code's settings and agents.yaml's `hooks:` write them. */
export type HooksConfig = Partial<Record<HookEvent, HookGroup[]>>;

/** A problem with a hooks block, at a key path below it (the caller turns it into file:line:col). */
export interface HooksProblem {
  path: Array<string | number>;
  message: string;
  /** The problem is the key itself (an unknown name), not its value. */
  atKey?: boolean;
}

/**
 * Checks and normalises a `hooks` value. Invalid entries are reported and left out, so one typo
 * does not silently drop the whole block, and never runs something half-understood.
 */
export function parseHooks(value: unknown, source?: string): { hooks: HooksConfig; problems: HooksProblem[] } {
  const problems: HooksProblem[] = [];
  const hooks: HooksConfig = {};
  if (value === undefined || value === null) return { hooks, problems };
  if (!isRecord(value)) return { hooks, problems: [{ path: [], message: 'hooks must be a mapping of event names to lists of { matcher, hooks }' }] };
  for (const [event, groups] of Object.entries(value)) {
    if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
      problems.push({ path: [event], message: `unknown hook event '${event}' (known: ${HOOK_EVENTS.join(', ')})`, atKey: true });
      continue;
    }
    if (!Array.isArray(groups)) {
      problems.push({ path: [event], message: `${event} must be a list of { matcher, hooks: [{ type: command, command }] }` });
      continue;
    }
    const out: HookGroup[] = [];
    groups.forEach((g, i) => {
      const group = parseGroup(g, [event, i], problems);
      if (group) out.push(source ? { ...group, source } : group);
    });
    if (out.length) hooks[event as HookEvent] = out;
  }
  return { hooks, problems };
}

function parseGroup(g: unknown, at: Array<string | number>, problems: HooksProblem[]): HookGroup | undefined {
  if (!isRecord(g)) {
    problems.push({ path: at, message: 'each entry must be a mapping { matcher, hooks }' });
    return undefined;
  }
  for (const k of Object.keys(g)) if (k !== 'matcher' && k !== 'hooks') problems.push({ path: [...at, k], message: `unknown key '${k}' (allowed: matcher, hooks)`, atKey: true });
  if (g.matcher !== undefined && typeof g.matcher !== 'string') {
    problems.push({ path: [...at, 'matcher'], message: 'matcher must be a string (a tool name, names joined by |, or a regular expression)' });
    return undefined;
  }
  if (typeof g.matcher === 'string' && g.matcher && g.matcher !== '*') {
    try {
      new RegExp(g.matcher);
    } catch (e) {
      problems.push({ path: [...at, 'matcher'], message: `matcher is not a valid regular expression: ${(e as Error).message}` });
      return undefined;
    }
  }
  if (!Array.isArray(g.hooks) || !g.hooks.length) {
    problems.push({ path: [...at, 'hooks'], message: 'hooks must be a non-empty list of { type: command, command, timeout }' });
    return undefined;
  }
  const commands: HookCommand[] = [];
  g.hooks.forEach((h, j) => {
    const p = [...at, 'hooks', j];
    if (!isRecord(h)) return void problems.push({ path: p, message: 'a hook must be a mapping { type: command, command, timeout }' });
    for (const k of Object.keys(h)) if (!HOOK_KEYS.includes(k)) problems.push({ path: [...p, k], message: `unknown key '${k}' (allowed: ${HOOK_KEYS.join(', ')})`, atKey: true });
    if (h.type !== 'command') return void problems.push({ path: [...p, 'type'], message: "type must be 'command'" });
    if (typeof h.command !== 'string' || !h.command.trim()) return void problems.push({ path: [...p, 'command'], message: 'command must be a non-empty string' });
    if (h.timeout !== undefined && (typeof h.timeout !== 'number' || !(h.timeout > 0))) return void problems.push({ path: [...p, 'timeout'], message: 'timeout must be a positive number of seconds' });
    if (h.sandbox !== undefined && h.sandbox !== 'off' && h.sandbox !== 'auto') return void problems.push({ path: [...p, 'sandbox'], message: "sandbox must be 'off' (run on the host) or 'auto' (the default: inside the shell's sandbox)" });
    if (h.network !== undefined && typeof h.network !== 'boolean') return void problems.push({ path: [...p, 'network'], message: 'network must be true or false' });
    commands.push({
      type: 'command',
      command: h.command,
      ...(h.timeout !== undefined ? { timeout: h.timeout } : {}),
      ...(h.sandbox === 'off' ? { sandbox: 'off' as const } : {}),
      ...(h.network ? { network: true } : {}),
    });
  });
  if (!commands.length) return undefined;
  return g.matcher === undefined ? { hooks: commands } : { matcher: g.matcher, hooks: commands };
}

const HOOK_KEYS = ['type', 'command', 'timeout', 'sandbox', 'network'];

/** Joins hook blocks (the person's settings, the project's, agents.yaml): every group of each runs. */
export function mergeHooks(...configs: Array<HooksConfig | undefined>): HooksConfig {
  const out: HooksConfig = {};
  for (const c of configs) {
    for (const e of HOOK_EVENTS) if (c?.[e]?.length) out[e] = [...(out[e] ?? []), ...c[e]!];
  }
  return out;
}

/** Whether any hook is configured. */
export function hasHooks(c: HooksConfig | undefined): boolean {
  return !!c && HOOK_EVENTS.some((e) => !!c[e]?.length);
}

/** One line per command: `PreToolUse  shell|rm  ./check.sh  (.adk/settings.json)`, for `/hooks` and the trust prompt. */
export function listHooks(c: HooksConfig): ListedHook[] {
  const out: ListedHook[] = [];
  for (const event of HOOK_EVENTS) for (const g of c[event] ?? []) for (const h of g.hooks) out.push({ event, matcher: g.matcher || '*', command: h.command, timeout: h.timeout, sandbox: h.sandbox, network: h.network, source: g.source });
  return out;
}

/** One hook command with its event and matcher, as listHooks gives it. */
export interface ListedHook {
  event: HookEvent;
  matcher: string;
  command: string;
  timeout?: number | undefined;
  sandbox?: 'off' | undefined;
  network?: boolean | undefined;
  source?: string | undefined;
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return !!x && typeof x === 'object' && !Array.isArray(x);
}
