import { spawn, type ChildProcess } from 'node:child_process';
import { shellEnvironment } from '../../tools/builtin/shell.js';
import { bwrapArgs, spawnSandboxed, type SandboxSpec, type SandboxStatus } from '../../tools/sandbox/bwrap.js';
import type { HookCommand, HookEvent, HooksConfig } from './config.js';
import { hostRunRisk } from './host-risk.js';
import { matches } from './matcher.js';
import { claudeNamesOf } from '../../tools/claude-tool-names.js';

/** Claude Code's default: a hook that runs longer than 60 s is killed. */
export const DEFAULT_HOOK_TIMEOUT_S = 60;
/** More than this of a hook's output is cut (a runaway hook must not fill memory). */
const MAX_OUTPUT = 256 * 1024;

export interface HookRunOptions {
  /** The workspace: hooks run in it, and see it as ADK_PROJECT_DIR (and CLAUDE_PROJECT_DIR). */
  cwd: string;
  /** Where the allow-listed variables come from (default process.env). */
  env?: NodeJS.ProcessEnv | undefined;
  /** Further variable names hooks may see (ADK_SHELL_ENV), as shell commands do. */
  extraEnv?: readonly string[] | undefined;
  signal?: AbortSignal | undefined;
  /**
   * Asked before each command runs: a reason makes it not run (a folder hook whose script changed
   * since the person trusted it). Fails closed where a hook guards something: see refusedHook.
   */
  guard?: HookGuard | undefined;
  /**
   * The sandbox hooks run in (adk's CLI gives the shell's); without it they run on the host, as the
   * library's caller wrote them. See HookSandbox.
   */
  sandbox?: HookSandbox | undefined;
}

/**
 * Hooks inside the shell's sandbox: the workspace writable, nothing else of the machine, no network
 * unless the hook says `network: true`, a pid namespace of their own (adk's memory out of reach). Code
 * the workspace holds (a package.json script, a Makefile, conftest.py) then runs with no more power
 * than a sandboxed command that could have written it. A hook that runs on the host instead (its
 * `sandbox: off`, or no sandbox here) may not use a tool that runs such code (hostRunRisk): it is refused.
 */
export interface HookSandbox {
  /** Whether bwrap works here (or why not); `off`: the person turned the sandbox off (hooks then run on the host, checked). */
  status(): Promise<SandboxStatus & { off?: boolean }>;
  /** The shell's sandbox without its network setting (each hook's own). */
  spec: Omit<SandboxSpec, 'network'>;
}

/** Why a hook command must not run now, or undefined when it may. */
export type HookGuard = (hook: HookCommand) => Promise<string | undefined> | string | undefined;

/** What one hook command did. */
export interface HookRun {
  command: string;
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** It could not be started at all. */
  error?: string | undefined;
}

/**
 * Runs one hook command with `sh -c`, the event's JSON on stdin, in the workspace, with the same
 * credential-free environment the shell tool gives commands (a hook is code from a settings file;
 * it has no business with the person's API keys); inside bwrap when `sandbox` is given (HookSandbox).
 * A timeout kills the hook's whole process group (and, sandboxed, its pid namespace).
 */
export function runHookCommand(hook: HookCommand, input: unknown, opts: HookRunOptions, sandbox?: { bwrap: string; spec: Omit<SandboxSpec, 'network'> }): Promise<HookRun> {
  const timeoutMs = (hook.timeout ?? DEFAULT_HOOK_TIMEOUT_S) * 1000;
  const env = { ...shellEnvironment(opts.env ?? process.env, opts.extraEnv ?? []), ADK_PROJECT_DIR: opts.cwd, CLAUDE_PROJECT_DIR: opts.cwd };
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let done = false;
    const options = { cwd: opts.cwd, env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] as ['pipe', 'pipe', 'pipe'] };
    const child: ChildProcess & { stdin: NodeJS.WritableStream; stdout: NodeJS.ReadableStream; stderr: NodeJS.ReadableStream } = sandbox
      ? (spawnSandboxed(sandbox.bwrap, bwrapArgs({ ...sandbox.spec, network: !!hook.network }, hook.command, opts.env ?? process.env), options) as never)
      : spawn('/bin/sh', ['-c', hook.command], options);
    const kill = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, timeoutMs);
    const onAbort = () => kill();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    const finish = (r: Omit<HookRun, 'command' | 'stdout' | 'stderr' | 'timedOut'>) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      resolve({ command: hook.command, stdout, stderr, timedOut, ...r });
    };
    child.stdout.on('data', (d: Buffer) => {
      if (stdout.length < MAX_OUTPUT) stdout += d.toString('utf8');
    });
    child.stderr.on('data', (d: Buffer) => {
      if (stderr.length < MAX_OUTPUT) stderr += d.toString('utf8');
    });
    child.on('error', (e) => finish({ exitCode: null, error: e.message }));
    // The group may outlive `sh` (a backgrounded child); its pipes closing is the end that counts.
    child.on('close', (code) => finish({ exitCode: timedOut ? null : code }));
    child.stdin.on('error', () => {}); // a hook that never reads its input is fine
    child.stdin.end(`${JSON.stringify(input)}\n`);
  });
}

/** What the hooks of one event decided, joined. */
export interface HookOutcome {
  /** The call or prompt is blocked: exit code 2's stderr, `decision: "block"`'s reason, or a `deny`. */
  block?: string | undefined;
  /** PreToolUse's `permissionDecision` (deny wins, then ask, then allow). */
  permission?: 'allow' | 'deny' | 'ask' | undefined;
  /** PreToolUse's `updatedInput`: the arguments the tool gets instead. */
  updatedInput?: Record<string, unknown> | undefined;
  /** Text for the model: `additionalContext`, or plain stdout of UserPromptSubmit and SessionStart. */
  context: string[];
  /** `continue: false`: the run stops, with `stopReason`. */
  stop?: string | undefined;
  /** For the person: non-blocking failures and `systemMessage`s. */
  notices: string[];
}

/** Events whose plain (non-JSON) stdout is context for the model, as in Claude Code. */
const STDOUT_IS_CONTEXT = new Set<HookEvent>(['UserPromptSubmit', 'SessionStart']);

/** Reads one hook's result the way Claude Code does: exit 0 with JSON or text, exit 2 blocks, others only warn. */
export function interpretHookRun(event: HookEvent, run: HookRun): HookOutcome {
  const out: HookOutcome = { context: [], notices: [] };
  const label = `${event} hook \`${run.command}\``;
  if (run.error) return { ...out, notices: [`${label} could not start: ${run.error}`] };
  if (run.timedOut) return { ...out, notices: [`${label} timed out and was killed`] };
  if (run.exitCode === 2) return { ...out, block: run.stderr.trim() || `blocked by ${label}` };
  if (run.exitCode !== 0) return { ...out, notices: [`${label} failed (exit ${run.exitCode})${run.stderr.trim() ? `: ${run.stderr.trim()}` : ''}`] };
  const text = run.stdout.trim();
  const json = text.startsWith('{') ? parseJson(text) : undefined;
  if (!json) {
    if (text && STDOUT_IS_CONTEXT.has(event)) out.context.push(text);
    return out;
  }
  const reason = typeof json.reason === 'string' ? json.reason : undefined;
  if (json.decision === 'block') out.block = reason || `blocked by ${label}`;
  if (json.continue === false) out.stop = (typeof json.stopReason === 'string' && json.stopReason) || `stopped by ${label}`;
  if (typeof json.systemMessage === 'string' && json.systemMessage) out.notices.push(json.systemMessage);
  const specific = isRecord(json.hookSpecificOutput) ? json.hookSpecificOutput : {};
  const decision = specific.permissionDecision ?? legacyDecision(json.decision);
  if (decision === 'allow' || decision === 'deny' || decision === 'ask') out.permission = decision;
  const why = typeof specific.permissionDecisionReason === 'string' ? specific.permissionDecisionReason : reason;
  if (out.permission === 'deny') out.block = why || `denied by ${label}`;
  if (isRecord(specific.updatedInput)) out.updatedInput = specific.updatedInput;
  if (typeof specific.additionalContext === 'string' && specific.additionalContext) out.context.push(specific.additionalContext);
  return out;
}

/** Events whose hooks check something before it happens: a hook that may not run blocks it (fails closed). */
const GUARDING = new Set<HookEvent>(['PreToolUse', 'UserPromptSubmit']);

/** A hook the guard did not let run: the person is told why; a tool call or prompt it would have checked is blocked. */
export function refusedHook(event: HookEvent, reason: string): HookOutcome {
  return { context: [], notices: [reason], ...(GUARDING.has(event) ? { block: reason } : {}) };
}

/** Claude Code's older PreToolUse output: `decision: "approve" | "block"`. */
function legacyDecision(d: unknown): string | undefined {
  return d === 'approve' ? 'allow' : undefined;
}

/**
 * Runs every hook of `event` whose matcher matches `matchValue`, at the same time (as Claude Code
 * does; the same command twice runs once), and joins what they decided.
 */
export async function runHooks(config: HooksConfig, event: HookEvent, matchValue: string | undefined, input: unknown, opts: HookRunOptions): Promise<HookOutcome> {
  const commands = new Map<string, HookCommand>();
  // A tool is matched by adk's name or Claude Code's (`Bash`, `Edit|MultiEdit|Write`): copied hooks fire.
  const names = matchValue !== undefined && (event === 'PreToolUse' || event === 'PostToolUse') ? [matchValue, ...claudeNamesOf(matchValue)] : [matchValue];
  for (const g of config[event] ?? []) {
    if (!names.some((n) => matches(g.matcher, n))) continue;
    for (const h of g.hooks) {
      const key = `${h.command}\0${h.sandbox ?? ''}\0${h.network ?? ''}`;
      if (!commands.has(key)) commands.set(key, h);
    }
  }
  const outcome: HookOutcome = { context: [], notices: [] };
  if (!commands.size) return outcome;
  const results = await Promise.all(
    [...commands.values()].map(async (h) => {
      // A guard that fails is a refusal: the hook is not run unchecked.
      const refused = await Promise.resolve(opts.guard?.(h)).catch((e: unknown) => `the hook \`${h.command}\` was not run: its code could not be checked (${(e as Error).message})`);
      if (refused) return refusedHook(event, refused);
      const place = await hookPlace(h, opts);
      if ('refused' in place) return refusedHook(event, place.refused);
      return interpretHookRun(event, await runHookCommand(h, input, opts, place.sandbox));
    }),
  );
  const rank = { deny: 3, ask: 2, allow: 1 } as const;
  for (const r of results) {
    if (r.block) outcome.block = outcome.block ? `${outcome.block}\n${r.block}` : r.block;
    if (r.permission && (!outcome.permission || rank[r.permission] > rank[outcome.permission])) outcome.permission = r.permission;
    if (r.updatedInput) outcome.updatedInput = { ...outcome.updatedInput, ...r.updatedInput };
    if (r.stop) outcome.stop ??= r.stop;
    outcome.context.push(...r.context);
    outcome.notices.push(...r.notices);
  }
  return outcome;
}

/** Where a hook runs: in the sandbox, on the host, or (a host run of workspace code) nowhere. */
async function hookPlace(h: HookCommand, opts: HookRunOptions): Promise<{ sandbox?: { bwrap: string; spec: Omit<SandboxSpec, 'network'> } } | { refused: string }> {
  if (!opts.sandbox) return {};
  const status = h.sandbox === 'off' ? undefined : await opts.sandbox.status();
  if (status?.bwrap) return { sandbox: { bwrap: status.bwrap, spec: opts.sandbox.spec } };
  // No sandbox here (bwrap missing or refused): a hook the person (or a trusted file) did not mark
  // `sandbox: off` was trusted as one that runs in the sandbox, so it does not run on the host instead.
  if (status && !status.off) return { refused: `the hook \`${h.command}\` was not run: hooks run in the sandbox, which cannot run here (${status.reason ?? 'unknown'}); to run it on the host, give it "sandbox": "off"` };
  const risk = hostRunRisk(h.command);
  if (!risk) return {};
  const instead = h.sandbox === 'off' ? 'remove its `sandbox: off`' : 'the sandbox is off (ADK_SHELL_SANDBOX=off)';
  return { refused: `the hook \`${h.command}\` was not run on the host: ${risk}, code the workspace can change that adk cannot pin to what you trusted; it runs in the sandbox only (${instead})` };
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return isRecord(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return !!x && typeof x === 'object' && !Array.isArray(x);
}
