import { grantsFromFlags, InvalidAnswerError, targetsFromFlags, type AnswerFlags } from '../../core/conversation/answers.js';
import { Conversation } from '../../core/conversation/conversation.js';
import { CliError } from '../exit-codes.js';
import { runHeadless } from '../headless.js';
import { lockedSession, sessionTeamOptions } from '../session-access.js';
import { openStores } from '../stores.js';
import { loadTeam, type Team } from '../team.js';
import { ANSWER_OPTIONS } from '../resume-flags.js';
import { forkedSession } from '../chat/choose-session.js';
import { unattendedPolicy, type Unattended, type UnattendedFlags } from '../unattended.js';

export interface ResumeCommandOptions extends AnswerFlags, UnattendedFlags {
  json?: boolean;
  model?: string;
  /** A new session with the history of `id`; `id` itself stays as it is. */
  fork?: boolean;
}

const answering = (o: AnswerFlags) => ANSWER_OPTIONS.some((k) => o[k] !== undefined && o[k] !== false);

export async function resumeCommand(id: string | undefined, words: string[], opts: ResumeCommandOptions): Promise<number> {
  const interactive = process.stdout.isTTY && process.stdin.isTTY && !opts.json && !answering(opts) && !opts.onApproval && words.length === 0;
  if (interactive) {
    const { chatCommand } = await import('./chat.js');
    // No id: a list of the sessions to pick from.
    const { maxTurns, maxModelCalls, maxToolCalls, maxTokens, maxCost, maxDailyModelCalls, maxDailyTokens, maxDailyCost } = opts;
    const caps = { maxTurns, maxModelCalls, maxToolCalls, maxTokens, maxCost, maxDailyModelCalls, maxDailyTokens, maxDailyCost };
    return chatCommand({ resume: id, pick: !id, fork: opts.fork, model: opts.model, permissionMode: opts.permissionMode, dangerouslySkipPermissions: opts.dangerouslySkipPermissions, ...caps });
  }
  const unattended = unattendedPolicy(opts);
  if (!id) throw new CliError('give a session id: adk resume <id> (adk sessions lists them); in a terminal, adk resume alone shows a list');
  // boot set the terminal raw in case the REPL opens; headless, Ctrl-C must be a signal again.
  if (process.stdin.isTTY && process.stdin.isRaw) process.stdin.setRawMode(false);
  const stores = await openStores();
  try {
    const { record, lease } = opts.fork ? await forkedSession(stores, id) : await lockedSession(stores, id);
    if (opts.fork) process.stderr.write(`Forked session ${id} into ${record.id}.\n`);
    try {
      const team = await loadTeam(sessionTeamOptions(record, { model: opts.model }));
      try {
        const conv = Conversation.open(stores, team, record, lease);
        unattended.apply(conv);
        return await continueSession(conv, words.join(' ').trim(), opts, unattended);
      } finally {
        await team.close();
      }
    } finally {
      await lease.release();
    }
  } finally {
    await stores.close();
  }
}

async function continueSession(conv: Conversation<Team>, prompt: string, opts: ResumeCommandOptions, unattended: Unattended): Promise<number> {
  const headless = { json: opts.json, onApproval: unattended.onApproval, maxTimeMs: unattended.maxTimeMs };
  const record = conv.record;
  const resumable = !!record.checkpointId && (record.status === 'interrupted' || record.status === 'cancelled' || record.status === 'active');
  // A prompt after a cancelled run moves on (the stopped turn joins the history as far as it got);
  // questions that wait for an answer must be answered first.
  if (resumable && !(prompt && record.status === 'cancelled')) {
    if (prompt) throw new CliError(`session ${record.id} is waiting on an interrupt; answer it before adding a prompt`);
    const targets = answerTargets(record.pendingInterrupts, opts);
    for (const tool of grantsFromFlags(record.pendingInterrupts, opts)) await conv.grant(tool);
    return runHeadless(conv, (signal) => conv.resumeTurn(targets, signal), headless);
  }
  if (answering(opts)) throw new CliError(`session ${record.id} has no pending interrupts (status: ${record.status})`);
  if (!prompt && record.goal && !record.goal.met) {
    // A goal session that stopped after an attempt, before its check: the check runs, and the attempts go on.
    if (record.status === 'completed') return runHeadless(conv, undefined, headless);
    // adk stopped during attempt N (killed): the check after attempt N-1 runs again, and attempt N starts over with what it prints.
    if (record.status === 'active' && record.goal.attempt > 1) {
      await conv.setGoal({ ...record.goal, attempt: record.goal.attempt - 1 });
      return runHeadless(conv, undefined, headless);
    }
  }
  if (!prompt) throw new CliError(`session ${record.id} is ${record.status}; give a prompt to continue it: adk resume ${record.id} "…"`);
  return runHeadless(conv, (signal) => conv.startTurn(prompt, signal), headless);
}

function answerTargets(pending: Conversation['pending'], flags: AnswerFlags): Record<string, unknown> {
  try {
    return targetsFromFlags(pending, flags);
  } catch (e) {
    throw e instanceof InvalidAnswerError ? new CliError(e.message) : e;
  }
}
