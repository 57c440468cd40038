import type { AgentEvent } from '../core/index.js';
import type { Conversation } from '../core/conversation/conversation.js';
import type { Team } from './team.js';
import { drainRun, type RunStatus, type RunSummary } from '../core/conversation/drain-run.js';
import { ExitCode } from './exit-codes.js';
import { JsonlSink } from './jsonl-sink.js';
import { writeUnsavedSession } from './recovery.js';
import { abortOnSignals, dieBySignal, stopOnClosedOutput } from './signals.js';
import { TextSink } from './text-sink.js';
import { sanitizeText } from '../ui/text/sanitize.js';
import { redactSecrets, secretsFromEnv } from '../core/store/redact.js';
import { configSecretValues } from './secrets.js';
import { runGoalCheck, goalFeedback } from './goal.js';
import { suggestedLimit } from '../core/agents/run-budget.js';
import { denials, describePending, MAX_DENIAL_ROUNDS, onlyApprovals, type OnApproval } from './unattended.js';

const STATUS_EXIT: Record<RunStatus, number> = {
  completed: ExitCode.ok,
  incomplete: ExitCode.runtimeError,
  error: ExitCode.runtimeError,
  interrupted: ExitCode.interrupted,
  cancelled: ExitCode.cancelled,
};

let outputClosed = () => false;
/** What text output redacts, as JSON Lines does (set once the team, and so its api_key_env values, is known). */
let secrets: string[] = [];
const write = (s: string) => void (outputClosed() || process.stdout.write(s));
// Text that reaches a terminal carries nothing a model, tool or file could make it act on (JSON Lines
// escapes controls itself), and no secret: the same redaction as --json, the approval line included.
const writeText = (s: string) => write(sanitizeText(redactSecrets(s, secrets)));
const writeErr = (s: string) => void (outputClosed() || process.stderr.write(sanitizeText(redactSecrets(s, secrets))));

/**
 * One headless step of a conversation (a new turn or a resume; in goal mode, the attempts that follow
 * until the check passes): streams it to stdout as text or JSON Lines, saves the session however it
 * ends, and returns the exit code.
 */
export async function runHeadless(
  conv: Conversation<Team>,
  start: ((signal: AbortSignal) => Promise<AsyncIterable<AgentEvent>>) | undefined,
  opts: { json?: boolean; onApproval?: OnApproval; maxTimeMs?: number | undefined },
): Promise<number> {
  secrets = [...secretsFromEnv(), ...configSecretValues()];
  const json = opts.json ? new JsonlSink(write) : undefined;
  const sink = json ?? new TextSink(writeText, writeErr, (s) => redactSecrets(s, secrets));
  if (conv.team.isDemo && !json) writeErr('adk: no OPENAI_API_KEY or OPENAI_BASE_URL set; using the offline demo model.\n');
  // Said as soon as it is known, without holding the run up for the sandbox probe.
  void conv.team.sandboxNotice?.then((n) => n && writeErr(`adk: warning: ${n}\n`));
  // Hooks: told the session; what they say for the person (failures, systemMessage) goes to stderr.
  const hooks = conv.team.hooks;
  if (hooks) {
    hooks.session.id = conv.id;
    hooks.onNotice = (n) => writeErr(`adk: hook: ${n}\n`);
  }
  if (conv.team.hooksNotice) writeErr(`adk: warning: ${conv.team.hooksNotice}\n`);
  // A second Ctrl-C while saving exits at once; the first lets the run stop and save.
  const interrupt = abortOnSignals(dieBySignal);
  const output = stopOnClosedOutput();
  outputClosed = output.closed;
  // --max-time: the run is cancelled as Ctrl-C would (saved at its safe point), then reported as a budget.
  const timeUp = opts.maxTimeMs ? AbortSignal.timeout(opts.maxTimeMs) : undefined;
  const signal = AbortSignal.any([interrupt.signal, output.signal, ...(timeUp ? [timeUp] : [])]);
  const dispose = () => {
    interrupt.dispose();
    output.dispose();
  };
  try {
    json?.session(conv.id, conv.team.agent.name);
    conv.onSaveRetry = (e, attempt, delayMs) => writeErr(`adk: ${oneLine(e.message)}; saving again in ${Math.round(delayMs)} ms (attempt ${attempt + 1})\n`);
    // One step: a run (a new turn or a resume) drained and saved, then every approval nobody can
    // answer denied (--on-approval deny), each denial resumed with a reason the model sees.
    const step = async (begin: (signal: AbortSignal) => Promise<AsyncIterable<AgentEvent>>, before?: RunSummary): Promise<RunSummary | number> => {
      let summary = await drainRun(await begin(signal), sink, signal);
      try {
        await conv.finishTurn(summary);
      } catch (e) {
        return unsaved(conv, summary, e as Error, json);
      }
      if (before) summary = withUsageOf(before, summary);
      for (let round = 0; opts.onApproval === 'deny' && summary.status === 'interrupted' && onlyApprovals(conv.pending) && round < MAX_DENIAL_ROUNDS; round++) {
        writeErr(`adk: denied, nobody is there to approve it (--on-approval deny): ${describePending(conv.pending)}\n`);
        const next = await drainRun(await conv.resumeTurn(denials(conv.pending), signal), sink, signal);
        try {
          await conv.finishTurn(next);
        } catch (e) {
          return unsaved(conv, next, e as Error, json);
        }
        summary = withUsageOf(summary, next);
      }
      return summary;
    };
    // No run to start: a goal session whose last attempt finished before its check ran (adk stopped in between).
    const first = start ? await step(start) : CHECK_ONLY;
    if (typeof first === 'number') return first;
    let summary = first;
    // Goal mode (adk run --until): each attempt is a turn of the session; the check decides whether another follows.
    for (let goal = conv.record.goal; goal && !goal.met && summary.status === 'completed' && !signal.aborted; goal = conv.record.goal) {
      const result = await runGoalCheck(conv, goal.check, signal);
      if (signal.aborted) break;
      json?.goal({ attempt: goal.attempt, maxAttempts: goal.maxAttempts, check: goal.check, passed: result.passed, exitCode: result.exitCode });
      writeErr(`adk: goal: attempt ${goal.attempt} · check ${result.passed ? 'passed' : `failed (exit ${result.exitCode})`}\n`);
      if (result.passed) {
        await conv.setGoal({ ...goal, met: true });
        break;
      }
      if (goal.attempt >= goal.maxAttempts) {
        const error = new Error(`goal not met after ${goal.maxAttempts} attempts: \`${goal.check}\` still fails (exit ${result.exitCode}). The session is saved: adk resume ${conv.id} "…" goes on`);
        summary = { ...summary, status: 'incomplete', incompleteReason: 'goal_not_met', error };
        break;
      }
      const attempt = goal.attempt + 1;
      await conv.setGoal({ ...goal, attempt });
      const next = await step((s) => conv.startTurn(goalFeedback(goal!.check, result, attempt, goal!.maxAttempts), s), summary);
      if (typeof next === 'number') return next;
      summary = next;
    }
    if (timeUp?.aborted && summary.status === 'cancelled' && !interrupt.signal.aborted) {
      const error = new Error(`budget reached: max_time (${Math.round(opts.maxTimeMs! / 1000)} s); the run was stopped at a safe point. The session is saved: adk resume ${conv.id}`);
      summary = { ...summary, status: 'incomplete', incompleteReason: 'budget', error };
    }
    const budgets = conv.pending.filter((p) => p.kind === 'budget');
    if (summary.status === 'interrupted' && budgets.length) {
      // A budget reached: nobody raises it here, so the run ends incomplete; its checkpoint stays for `--raise`.
      json?.interrupted({ agent: conv.team.agent.name }, conv.record.checkpointId ?? conv.id, summary.interrupts);
      const raise = budgets.map((p) => (p.budget ? `${p.budget.name}=${suggestedLimit(p.budget.name, p.budget.limit)}` : 'max_model_calls=…'));
      const error = new Error(`${budgets[0]!.message}. The session is saved: adk resume ${conv.id} --raise ${[...new Set(raise)].join(' --raise ')} goes on`);
      summary = { ...summary, status: 'incomplete', incompleteReason: 'budget', error };
    } else if (summary.status === 'interrupted' && opts.onApproval && opts.onApproval !== 'ask') {
      // Unattended (--on-approval fail, or deny with nothing left to deny): the run ends here, naming what it waited on.
      json?.interrupted({ agent: conv.team.agent.name }, conv.record.checkpointId ?? conv.id, summary.interrupts);
      const why = opts.onApproval === 'deny' && onlyApprovals(conv.pending) ? `still asking after ${MAX_DENIAL_ROUNDS} denials` : 'nobody is there to answer it';
      const error = new Error(`approval needed (${why}, --on-approval ${opts.onApproval}): ${describePending(conv.pending)}; nothing of it ran. The session is saved: adk resume ${conv.id}`);
      summary = { ...summary, status: 'incomplete', incompleteReason: 'approval_needed', error };
    } else if (summary.status === 'interrupted') {
      json?.interrupted({ agent: conv.team.agent.name }, conv.record.checkpointId ?? conv.id, summary.interrupts);
      writeErr(`adk: waiting for you (session ${conv.id} is saved): ${answerHint(conv.id, summary)}\n`);
    }
    json?.done(summary, conv.id, conv.team.contextWindow);
    if ((summary.status === 'error' || summary.status === 'incomplete') && summary.error) writeErr(`adk: ${oneLine(summary.error.message)}\n`);
    if (summary.status === 'cancelled') writeErr(`adk: cancelled; session ${conv.id} is saved (adk resume ${conv.id}).\n`);
    // Nobody is reading any more: the session is saved, so leave quietly.
    if (output.closed()) return ExitCode.ok;
    return STATUS_EXIT[summary.status];
  } finally {
    dispose();
  }
}

/** What a goal session resumed between its last attempt and that attempt's check starts from. */
const CHECK_ONLY: RunSummary = { status: 'completed', output: '', usage: { promptTokens: 0, completionTokens: 0 }, interrupts: [], messages: [] };

/** `next` (a run resumed after denials) with the tokens of every run before it counted in. */
function withUsageOf(before: RunSummary, next: RunSummary): RunSummary {
  const byModel = { ...before.usageByModel };
  for (const [model, u] of Object.entries(next.usageByModel ?? {})) {
    const was = byModel[model];
    byModel[model] = was ? { ...was, promptTokens: was.promptTokens + u.promptTokens, completionTokens: was.completionTokens + u.completionTokens } : u;
  }
  const usage = { ...next.usage, promptTokens: before.usage.promptTokens + next.usage.promptTokens, completionTokens: before.usage.completionTokens + next.usage.completionTokens };
  return { ...next, usage, ...(Object.keys(byModel).length ? { usageByModel: byModel } : {}) };
}

/** The turn ran but its session could not be saved: keep it in a file and say where. */
function unsaved(conv: Conversation<Team>, summary: RunSummary, error: Error, json: JsonlSink | undefined): number {
  const kept = writeUnsavedSession(conv.record);
  const where = 'file' in kept ? `; the conversation was written to ${kept.file}` : `; the conversation was not kept either: nothing was written to ${kept.dir} (${kept.error})`;
  const message = `could not save session ${conv.id}: ${oneLine(error.message)}${where}`;
  json?.error({ agentName: conv.team.agent.name, runPath: [] }, new Error(message));
  json?.done({ ...summary, status: 'error' }, conv.id);
  writeErr(`adk: ${message}\n`);
  return ExitCode.runtimeError;
}

const oneLine = (s: string) => s.replace(/\s*\n\s*/g, ' ').trim();

/** How to answer what the run is waiting for, by the kinds of its interrupts. */
function answerHint(id: string, summary: RunSummary): string {
  const kinds = new Set(summary.interrupts.map((c) => (c.info as { kind?: string } | undefined)?.kind ?? 'custom'));
  const ways: string[] = [];
  if (kinds.has('approval') || kinds.has('plan_review')) ways.push(`adk resume ${id} --approve (or --reject --reason "…")`);
  if (kinds.has('input')) ways.push(`adk resume ${id} --input "your answer"`);
  if (kinds.has('custom')) ways.push(`adk resume ${id} --targets '{"<id>": …}'`);
  return ways.join(', or ');
}
