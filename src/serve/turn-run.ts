import type { AgentEvent } from '../core/agents/types.js';
import type { Conversation } from '../core/conversation/conversation.js';
import { drainRun, type RunSummary } from '../core/conversation/drain-run.js';
import { JsonEvents, type JsonEvent } from '../core/conversation/json-events.js';
import type { ConversationTeam } from '../core/conversation/team.js';

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
): Promise<RunSummary> {
  const sink = new JsonEvents(emit);
  const root = conv.team.agent.name;
  sink.session(conv.id, root);
  let summary: RunSummary;
  try {
    summary = await drainRun(await start(signal), sink, signal);
    await conv.finishTurn(summary);
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
  sink.done(summary, conv.id);
  return summary;
}
