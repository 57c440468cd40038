import type { AgentEvent } from '../core/agents/types.js';
import type { Conversation, TurnStart } from '../core/conversation/conversation.js';
import { drainRun, type RunSummary } from '../core/conversation/drain-run.js';
import { JsonEvents, type JsonEvent } from '../core/conversation/json-events.js';
import type { ConversationTeam } from '../core/conversation/team.js';
import { denials, describePending, MAX_DENIAL_ROUNDS, onlyApprovals } from '../core/conversation/session-policy.js';

/**
 * Runs one turn (or continuation) of a conversation to its saved end, handing each event to `emit`
 * as the API streams it. `settled` runs after the turn is saved and before its closing `interrupt`
 * and `done` events, so whoever reacts to `done` finds the session free.
 */
export async function runTurn(
  conv: Conversation<ConversationTeam>,
  start: (signal: AbortSignal) => Promise<AsyncIterable<AgentEvent>>,
  signal: AbortSignal,
  emit: (e: JsonEvent) => void,
  settled: () => void | Promise<void>,
  /** The turn's own options (its id, journal, model and tool options): the deny rounds continue the same turn. */
  turn: TurnStart = {},
): Promise<RunSummary> {
  const sink = new JsonEvents(emit);
  const root = conv.team.agent.name;
  sink.session(conv.id, root);
  let summary: RunSummary;
  try {
    summary = await drainRun(await start(signal), sink, signal);
    await conv.finishTurn(summary);
    // `on_approval: deny`: each approval nobody is there for is answered "no", with a reason the model sees.
    for (let round = 0; conv.record.policy?.onApproval === 'deny' && summary.status === 'interrupted' && onlyApprovals(conv.pending) && round < MAX_DENIAL_ROUNDS; round++) {
      summary = await drainRun(await conv.resumeTurn(denials(conv.pending), signal, undefined, turn), sink, signal);
      await conv.finishTurn(summary);
    }
  } catch (e) {
    const error = e as Error;
    sink.error({ agentName: root, runPath: [] }, error);
    summary = { status: 'error', output: '', usage: { promptTokens: 0, completionTokens: 0 }, interrupts: [], messages: [], error };
    await settled();
    sink.done(summary, conv.id);
    return summary;
  }
  await settled();
  if (summary.status === 'interrupted') sink.interrupted({ agent: root }, conv.record.checkpointId ?? conv.id, summary.interrupts);
  // `on_approval: fail` (or deny with nothing it can answer): the turn ends incomplete, naming what it waits on;
  // the session stays as it stopped, so an answer through /interrupts still goes on.
  const policy = conv.record.policy?.onApproval;
  if (summary.status === 'interrupted' && (policy === 'fail' || policy === 'deny') && !conv.pending.some((p) => p.kind === 'budget')) {
    const why = policy === 'deny' && onlyApprovals(conv.pending) ? `still asking after ${MAX_DENIAL_ROUNDS} denials` : 'nobody is there to answer it';
    const error = new Error(`approval needed (${why}, on_approval: ${policy}): ${describePending(conv.pending)}; nothing of it ran`);
    summary = { ...summary, status: 'incomplete', incompleteReason: 'approval_needed', error };
    sink.error({ agentName: root, runPath: [] }, error);
  }
  sink.done(summary, conv.id);
  return summary;
}
