import type { ChatUi } from '../../ui/index.js';
import type { ChatHost } from './chat-host.js';
import { DEFAULT_GOAL_ATTEMPTS, goalFeedback, runGoalCheck, type CheckResult } from '../goal.js';

/**
 * `/goal CHECK`: the agent works until CHECK passes (run where shell commands run: in the sandbox).
 * The check runs first; while it fails, each attempt is a turn whose prompt is the check's output, shown
 * as `goal: attempt 2 · check failed (exit 1)`. It ends when the check passes, the attempts are used,
 * or a turn does not finish on its own: Esc (cancelled), a question or a budget (answer it, then
 * `/goal` alone goes on), an error. `/goal` shows where it stands; `/goal off` drops it.
 */
export async function goalCommand(host: ChatHost, args: string, ui: ChatUi): Promise<void> {
  const text = args.trim();
  const conv = host.conv;
  if (text === 'off' || text === 'clear') {
    const was = conv.record.goal;
    if (!was) return void ui.info('No goal is set.', 'muted');
    await conv.setGoal(undefined);
    return void ui.info(`goal dropped: \`${was.check}\``, 'muted');
  }
  const goal = conv.record.goal;
  if (!text && !goal) return void ui.info('Usage: /goal <check>, e.g. /goal npm test: the agent works until the check passes (in the sandbox). /goal off drops it.', 'muted');
  if (!text && goal?.met) return void ui.info(`goal met: \`${goal.check}\` passed (attempt ${goal.attempt}).`, 'success');
  // A new check starts over; `/goal` alone goes on with the one the session has.
  if (text) await conv.setGoal({ check: text, attempt: 0, maxAttempts: DEFAULT_GOAL_ATTEMPTS });
  await pursue(host, ui);
}

async function pursue(host: ChatHost, ui: ChatUi): Promise<void> {
  for (;;) {
    const conv = host.conv;
    const goal = conv.record.goal;
    if (!goal || goal.met) return;
    const result = await check(host, goal.check, ui);
    if (!result) return;
    const label = goal.attempt ? `attempt ${goal.attempt}` : 'before the first attempt';
    if (result.passed) {
      await conv.setGoal({ ...goal, met: true });
      return void ui.info(`goal: ${label} · check passed: \`${goal.check}\``, 'success');
    }
    if (goal.attempt >= goal.maxAttempts) {
      return void ui.error(`goal: ${label} · check failed (exit ${result.exitCode}); ${goal.maxAttempts} attempts used. /goal goes on with ${goal.maxAttempts} more.`);
    }
    ui.info(`goal: ${label} · check failed (exit ${result.exitCode})${failures(result.output)}`, 'warning');
    const attempt = goal.attempt + 1;
    await conv.setGoal({ ...goal, attempt });
    const outcome = await ui.run((signal) => host.runTurn(goalFeedback(goal.check, result, attempt, goal.maxAttempts), signal));
    if (outcome.cancelled) return void ui.info('goal stopped (Esc). /goal goes on from here.', 'muted');
    if (outcome.interrupts.length) return void ui.info('goal paused: the turn waits for you. Answer it; then /goal goes on.', 'muted');
    if (outcome.error) return void ui.error(`goal stopped: the turn failed (${outcome.error.message}). /goal tries again.`);
  }
}

/** The check, in the sandbox; undefined when it cannot run (said why). */
async function check(host: ChatHost, command: string, ui: ChatUi): Promise<CheckResult | undefined> {
  ui.info(`goal: running \`${command}\`…`, 'muted');
  try {
    return await runGoalCheck(host.conv, command, AbortSignal.timeout(10 * 60_000));
  } catch (e) {
    ui.error(`goal: the check could not run: ${(e as Error).message}`);
    return undefined;
  }
}

/** "(2 tests)" when the output says how many tests failed, as test runners print it. */
function failures(output: string): string {
  const m = /(\d+)\s+(?:tests?\s+)?fail(?:ed|ing|ures?)?\b/i.exec(output) ?? /fail(?:ed|ures?)?:?\s+(\d+)/i.exec(output);
  return m ? ` (${m[1]} failing)` : '';
}
