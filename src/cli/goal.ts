import { runShell } from '../core/tools/builtin/shell.js';
import { sandboxStatus } from '../core/tools/sandbox/bwrap.js';
import type { Conversation } from '../core/conversation/conversation.js';
import { CliError, ExitCode } from './exit-codes.js';
import { shellSandboxFromEnv } from './shell-sandbox-env.js';
import type { Team } from './team.js';

/** Attempts a goal gets unless `--max-attempts` says otherwise (budgets stop it sooner). */
export const DEFAULT_GOAL_ATTEMPTS = 10;
/** A check may run this long (a test suite) before it counts as failed. */
const CHECK_TIMEOUT_MS = 10 * 60_000;
/** The end of a failed check's output the model is shown (tests print their failures last). */
const FEEDBACK_CHARS = 8_000;

export interface CheckResult {
  passed: boolean;
  exitCode: number;
  output: string;
}

/**
 * Runs the goal's check where shell commands run: in the sandbox. The check is the person's command
 * line, but what it runs (`npm test` → package.json, the tests) is the workspace's, which the model
 * has been writing: where bwrap cannot make the sandbox, it does not run (unless the person turned
 * the sandbox off with ADK_SHELL_SANDBOX=off).
 */
export async function runGoalCheck(conv: Conversation<Team>, check: string, signal: AbortSignal, env: NodeJS.ProcessEnv = process.env): Promise<CheckResult> {
  const sandbox = shellSandboxFromEnv(env) ?? 'auto';
  if (sandbox !== 'off') {
    const status = await sandboxStatus(env, conv.team.workspace);
    if (!status.bwrap) throw new CliError(`the goal check cannot run in the sandbox here (${status.reason}); it runs the workspace's code, so adk does not run it outside. Set ADK_SHELL_SANDBOX=off to run it unsandboxed.`, ExitCode.runtimeError);
  }
  const shellEnv = env.ADK_SHELL_ENV?.split(/[\s,]+/).filter(Boolean);
  const readPaths = env.ADK_SANDBOX_READ_PATHS?.split(/[\s,]+/).filter(Boolean);
  const r = await runShell(check, { workspaceRoot: conv.team.workspace, sandbox, env: shellEnv, readPaths, timeoutMs: CHECK_TIMEOUT_MS }, signal);
  return { passed: r.exitCode === 0, exitCode: r.exitCode ?? 1, output: r.output };
}

/** The next attempt's prompt: the check failed, here is what it printed. */
export function goalFeedback(check: string, result: CheckResult, attempt: number, maxAttempts: number): string {
  const out = result.output.length > FEEDBACK_CHARS ? `…${result.output.slice(-FEEDBACK_CHARS)}` : result.output;
  return [
    `The goal is not met yet: the check \`${check}\` failed (exit code ${result.exitCode}). Its output:`,
    '```',
    out || '(no output)',
    '```',
    `Keep working until the check passes. This is attempt ${attempt} of ${maxAttempts}.`,
  ].join('\n');
}
